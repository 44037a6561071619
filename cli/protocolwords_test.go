package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// wordProtocols are moot's protocols with the words a debate's output must
// never borrow from the others (a non-debate never says solver or judge).
var wordProtocols = []struct {
	name  string
	never []string
}{
	{"debate", []string{"synthesizer", "member", "reviewer", "persona"}},
	{"council", []string{"solver", "judge"}},
	{"tradeoff", []string{"solver", "judge"}},
	{"argue", []string{"solver", "judge"}},
}

// TestHeadlessProgressSpeaksTheProtocol: the headless progress lines of
// the final step (its attempt, its failure, its menu, the answer written
// by it) name each protocol's final step, never another's.
func TestHeadlessProgressSpeaksTheProtocol(t *testing.T) {
	for _, tc := range wordProtocols {
		t.Run(tc.name, func(t *testing.T) {
			var errb bytes.Buffer
			proto := protocols[tc.name]
			final := engine.Describe(proto).Final
			pr := newProgress(&env{stdout: &bytes.Buffer{}, stderr: &errb}, &bugfolder.Register{}, false, proto)
			for _, ev := range []engine.Event{
				{Type: engine.EvJudgeStarted, Attempt: 1},
				{Type: engine.EvJudgeFailed, Reason: "no sections"},
				{Type: engine.EvDecision, Point: bugfolder.PointJudge, Choice: "retry", By: "human"},
				{Type: engine.EvJudgeFinished, By: "judge", Attempt: 2},
				{Type: engine.EvJudgeFinished, Winner: "B", By: "judge", Attempt: 2},
			} {
				pr.sink(ev)
			}
			out := errb.String()
			for _, w := range []string{final + " (attempt 1)", final + " failed", "decision at the " + final + " menu", "(by " + final + ")", "(decided by " + final + ")"} {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.never {
				if strings.Contains(out, w) {
					t.Errorf("says %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestShowSpeaksTheProtocol: moot show's summary names the final step's
// section, its engine and the panel in the debate's protocol's words.
func TestShowSpeaksTheProtocol(t *testing.T) {
	for _, tc := range wordProtocols {
		t.Run(tc.name, func(t *testing.T) {
			in := engine.Describe(protocols[tc.name])
			proto := tc.name
			if proto == "debate" {
				proto = "" // the debate protocol's problema.md names none
			}
			d := &bugfolder.Debate{Dir: "/r/BUG-1/debate", Lang: bugfolder.EN,
				Problem:       &bugfolder.ProblemFile{Protocol: proto, N: 2, R: 1, Judge: "scripted", Solvers: []bugfolder.KV{{Key: "agent-1", Value: "scripted"}}},
				JudgeAttempts: []*bugfolder.DebaterFile{{Path: "/r/BUG-1/debate/judge/attempt-1.md", Status: bugfolder.StatusInvalidOutput}},
				Final:         &bugfolder.Final{DecidedBy: "judge", Participants: 1, Of: 2},
			}
			if got := protocolFor(d).Name(); got != tc.name {
				t.Fatalf("the debate reads as %s", got)
			}
			bug := &bugfolder.Bug{ID: "BUG-1"}
			out := showSummary(&bugfolder.Register{Root: "/r"}, bug, []*bugfolder.Debate{d}, d)
			fin, _ := showFinal(d)
			out += fin
			for _, w := range []string{"## " + capital(in.Final) + "\n", in.Final + " scripted", "of 2 " + in.Members + " took part", "decided by " + in.Final} {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.never {
				if strings.Contains(strings.ToLower(out), w) {
					t.Errorf("says %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestEveryProtocolDescribesItsWords: every protocol moot runs fills the
// words and limits the front ends read (one source of truth), and its
// setup lines (moot plan, the cost screen) never borrow another's.
func TestEveryProtocolDescribesItsWords(t *testing.T) {
	for _, tc := range wordProtocols {
		p := protocols[tc.name]
		in := engine.Describe(p)
		if in.MaxN < 2 || in.MaxN > engine.MaxSolvers || in.MaxR < 1 || in.MaxR > engine.MaxRounds ||
			!strings.Contains(in.Rounds, "%d") || in.MembersPT == "" || in.Support && in.Supporter == "" || in.Named != (tc.name != "debate") {
			t.Errorf("%s: incomplete words or limits: %+v", tc.name, in)
		}
		s := engine.Setup{Protocol: p, Lang: bugfolder.EN, N: 2, R: 1, Judge: "scripted", Lenses: []bugfolder.Lens{{Name: "A", Text: "a"}, {Name: "B", Text: "b"}}}
		if in.Support {
			s.Critics = []string{"scripted"}
		}
		var text string
		for _, l := range engine.SetupLines(s) {
			text += l.Key + " " + l.Text + "\n"
		}
		for _, w := range append([]string{in.Members, in.Final + " scripted"}, in.Supporter) {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the setup lines lack %q:\n%s", tc.name, w, text)
			}
		}
		for _, w := range tc.never {
			if strings.Contains(text, w) {
				t.Errorf("%s: the setup lines say %q:\n%s", tc.name, w, text)
			}
		}
	}
	if len(protocols) != len(wordProtocols) {
		t.Errorf("%d protocols, %d checked: add the new one to wordProtocols", len(protocols), len(wordProtocols))
	}
}
