package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// A vendor engine's family comes
// from its kind (and model); a family: that says otherwise is exit 2
// naming the engines file, the engine and the field, so a builder can
// never sit by relabelling its own vendor.
func TestReviewVendorFamilyCannotBeOverridden(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, engines, field string }{
		{"claude declared unknown", "engines:\n  cl:\n    kind: claude\n    family: unknown\n", "engines.cl.family"},
		{"claude declared google", "engines:\n  cl2:\n    kind: claude\n    model: claude-opus-4-1\n    family: google\n", "engines.cl2.family"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := newTribunal(t, c.engines)
			for _, args := range [][]string{{"engines", "--config", tr.cfg}, {"review", "--change", "HEAD~1..HEAD", "--contract", "a | b", "--builder", "anthropic", "--lens", "defect", "--config", tr.cfg, "--yes"}} {
				r := tr.run(args...)
				if r.code != 2 || !strings.Contains(r.stderr, tr.cfg) || !strings.Contains(r.stderr, c.field) || !strings.Contains(r.stderr, "anthropic") {
					t.Errorf("moot %s: exit %d, want 2 naming %s, %s and the family anthropic\n%s%s", args[0], r.code, tr.cfg, c.field, r.stdout, r.stderr)
				}
			}
			if len(tr.calls()) != 0 {
				t.Error("a juror was called")
			}
		})
	}
}

// TestReviewDefaultLaddersSpreadAcrossFamilies: with several families usable and no ladders in the
// engines file, the seats spread across families and no report says
// "blind same-family"; ladders that put every lens on one family while
// another could sit say that the file chose it, not that one family is
// all there is.
func TestReviewDefaultLaddersSpreadAcrossFamilies(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	r := tr.review("--change", "HEAD~1..HEAD", "--contract", "doc | Total has a doc comment", "--lens", "defect", "--lens", "security")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	dir := tr.only()
	if d, s := tr.seat(dir, 1, "defect"), tr.seat(dir, 1, "security"); d.Family == s.Family {
		t.Errorf("both lenses sat on family %s (%s, %s) although two external families could", d.Family, d.Engine, s.Engine)
	}
	for _, out := range []string{r.stdout, r.stderr, readText(t, dir+"/summary.md"), readText(t, dir+"/round-1/routes.md")} {
		if strings.Contains(out, "same-family") || strings.Contains(out, "gate weakened") {
			t.Errorf("a cross-family panel is reported weakened:\n%s", out)
		}
	}

	chosen := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai, loc]\n")
	r = chosen.review("--change", "HEAD~1..HEAD", "--contract", "doc | Total has a doc comment", "--lens", "defect", "--lens", "security", "--builder", "unknown")
	if r.code != 0 || !strings.Contains(r.stdout, "gate weakened: ") || !strings.Contains(r.stdout, "every seat is of family anthropic by the engines file's review.ladders, although openai, alibaba could sit") || strings.Contains(r.stdout, "blind same-family") {
		t.Errorf("ladders that chose one family: exit %d, want the choice named (not blind same-family)\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// stall runs a review that stalls (two rounds of new findings) and
// returns its ID.
func (tr *tribunal) stall() string {
	tr.t.Helper()
	tr.jury = "*/defect=refusenew"
	if r := tr.review("--change", "HEAD~1..HEAD", "--contract", "doc | Total has a doc comment", "--lens", "defect"); r.code != 4 {
		tr.t.Fatalf("round 1: exit %d\n%s", r.code, r.stderr)
	}
	id := filepath.Base(tr.only())
	if r := tr.review("--resume", id); r.code != 4 || !strings.Contains(r.stdout, "stalled") {
		tr.t.Fatalf("round 2: exit %d, want a stall\n%s%s", r.code, r.stdout, r.stderr)
	}
	tr.jury = ""
	return id
}

// TestReviewResumeNeverOverridesAHumanDecision: a human's approve or decline closes a stalled review: a
// --resume is refused (exit 2 naming moot decide and decisao.md), nothing
// is called, and list and show keep the decision; after revise the
// resumed round runs and the decision stays listed beside it.
func TestReviewResumeNeverOverridesAHumanDecision(t *testing.T) {
	t.Parallel()
	for _, choice := range []string{"decline", "approve"} {
		t.Run(choice, func(t *testing.T) {
			tr := newTribunal(t, juryEngines)
			id := tr.stall()
			if r := tr.run("decide", id, choice); r.code != 0 {
				t.Fatalf("decide: exit %d\n%s", r.code, r.stderr)
			}
			before := len(tr.calls())
			r := tr.review("--resume", id)
			if r.code != 2 || !strings.Contains(r.stderr, "moot decide") || !strings.Contains(r.stderr, "decisao.md") || !strings.Contains(r.stderr, choice) {
				t.Errorf("--resume after %s: exit %d, want 2 naming the decision\n%s", choice, r.code, r.stderr)
			}
			if len(tr.calls()) != before {
				t.Error("a juror was called after the human's decision")
			}
			if e := tr.listed(id); e["decision"] != choice || e["status"] != "stalled" {
				t.Errorf("listed as %v, want stalled with decision %s", e, choice)
			}
			if r := tr.run("show", id); !strings.Contains(r.stdout, "Human decision: "+choice) && !strings.Contains(r.stdout, "Human decision:** "+choice) {
				t.Errorf("show does not report the decision:\n%s", r.stdout)
			}
		})
	}
	t.Run("revise", func(t *testing.T) {
		tr := newTribunal(t, juryEngines)
		id := tr.stall()
		if r := tr.run("decide", id, "revise", "--note", "cap the discount"); r.code != 0 {
			t.Fatalf("decide: exit %d\n%s", r.code, r.stderr)
		}
		if r := tr.review("--resume", id); r.code != 0 {
			t.Fatalf("--resume after revise: exit %d\n%s", r.code, r.stderr)
		}
		if e := tr.listed(id); e["decision"] != "revise" || e["status"] != "pass" {
			t.Errorf("listed as %v, want pass with the revise decision kept", e)
		}
	})
}
