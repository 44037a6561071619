package bugfolder

import (
	"strings"
	"testing"
	"time"
)

// decisao.md as moot writes it reads back as the same decision, in both
// languages; a choice outside the three names the file and the field.
func TestDecisionRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 30, 17, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		lang    Lang
		choice  Choice
		note    string
		heading string
	}{
		{PT, ChoiceApprove, "", "# Decisão humana"},
		{EN, ChoiceRevise, "weigh the addendum\nand its: colon", "# Human decision"},
		{PT, ChoiceDecline, "---\nchoice: approve", "## Nota"},
	} {
		raw, err := RenderDecision(tc.lang, DecisionMeta{BugID: "BUG-20260715-A7K3", Choice: tc.choice, By: "Ana <a@b>", DecidedAt: Timestamp(at), Note: tc.note, FinalSHA256: "ab"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), tc.heading) {
			t.Errorf("%s: body lacks %q:\n%s", tc.lang, tc.heading, raw)
		}
		d, err := ParseDecision("decisao.md", raw)
		if err != nil {
			t.Fatal(err)
		}
		if d.Choice != tc.choice || d.Note != tc.note || d.By != "Ana <a@b>" || !d.At.Equal(at) || d.FinalSHA256 != "ab" {
			t.Errorf("read back %+v", d)
		}
	}
	for _, bad := range []string{"", "---\nchoice: maybe\n---\n", "---\nby: x\n---\n", "no front matter"} {
		_, err := ParseDecision("x/decisao.md", []byte(bad))
		if err == nil || !strings.Contains(err.Error(), "x/decisao.md: choice") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// FuzzParseDecision: decisao.md is read from the register (a teammate's
// commit, a hand edit): any bytes give a decision or an error, never a
// panic, and a decision's choice is one of the three.
func FuzzParseDecision(f *testing.F) {
	raw, _ := RenderDecision(PT, DecisionMeta{Choice: ChoiceRevise, By: "a", DecidedAt: "2026-11-30T17:00:00Z", Note: "n"})
	f.Add(raw)
	f.Add([]byte("---\nchoice: [approve]\n---\n"))
	f.Add([]byte("---\nchoice: APPROVE\ndecided_at: yesterday\n---\nbody"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseDecision("decisao.md", b)
		if err != nil {
			return
		}
		if _, err := ParseChoice(string(d.Choice)); err != nil {
			t.Fatalf("accepted choice %q", d.Choice)
		}
	})
}

// A final answer always carries decision: and escalation: (a council that
// waits for nothing writes none); none reads as nothing waiting.
func TestFinalFlagsNone(t *testing.T) {
	for _, tc := range []struct {
		fm, decision, escalation string
	}{
		{"decision: none\nescalation: none\n", "", ""},
		{"decision: pending\nescalation: escalate\n", "pending", "escalate"},
		{"decision: pending\nescalation: human\n", "pending", "human"},
		{"", "", ""},
	} {
		f, err := ParseFinal("resposta-final.md", []byte("---\nstatus: ok\n"+tc.fm+"---\n\n## Síntese\n\nx\n"))
		if err != nil {
			t.Fatal(err)
		}
		if f.Decision != tc.decision || f.Escalation != tc.escalation {
			t.Errorf("%q: decision %q escalation %q, want %q %q", tc.fm, f.Decision, f.Escalation, tc.decision, tc.escalation)
		}
	}
}

// TestDecisionNoteCannotForgeStructure: a note is quoted line by line and
// cleaned of escape sequences, so a "## " line in it is no heading of
// decisao.md and no terminal sequence reaches the file; the front matter
// keeps the note as given.
func TestDecisionNoteCannotForgeStructure(t *testing.T) {
	raw, err := RenderDecision(EN, DecisionMeta{Choice: ChoiceRevise, By: "ana", DecidedAt: "2026-12-01T10:00:00Z", Note: "line one\n## Forged heading\nchoice: decline\x1b[31m"})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ParseDocument(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range Headings(doc.Body) {
		if strings.Contains(h.Text, "Forged") {
			t.Errorf("the note forged a heading:\n%s", doc.Body)
		}
	}
	if strings.Contains(doc.Body, "\x1b") || !strings.Contains(doc.Body, "> ## Forged heading") {
		t.Errorf("the note is not quoted clean:\n%q", doc.Body)
	}
}
