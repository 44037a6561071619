package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fix review stays one whatever --lens gives its jurors: moot's own
// check change-set-matches-plan refuses a diff the plan never approved,
// fix-review.md and fix-review.json are written, and a resume re-runs
// that check on the sealed record's fix, so the blocker stays until the
// fix changes.
func TestReviewOfAFixWithLensesKeepsMootsOwnBlockerOnResume(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, _ := tr.fixedBug()
	extra := "diff --git a/calc.go b/calc.go\n--- a/calc.go\n+++ b/calc.go\n@@ -1,3 +1,3 @@\n package calc\n"
	if err := os.WriteFile(filepath.Join(tr.repo, bug, "fix", "CHG-003.diff"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	r := tr.review(bug, "--lens", "defect")
	if r.code != 4 || !strings.Contains(r.stdout+r.stderr, "change-set-matches-plan") {
		t.Fatalf("a diff the plan never approved: exit %d, want 4 and moot's blocker\n%s%s", r.code, r.stdout, r.stderr)
	}
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*"))
	if len(ms) != 1 {
		t.Fatalf("review folders %v", ms)
	}
	if md := readText(t, filepath.Join(ms[0], "fix-review.md")); !strings.Contains(md, "reject") {
		t.Errorf("fix-review.md:\n%s", md)
	}
	if js := readText(t, filepath.Join(ms[0], "fix-review.json")); !strings.Contains(js, `"verdict": "reject"`) {
		t.Errorf("fix-review.json:\n%s", js)
	}

	r = tr.run("resume", filepath.Base(ms[0]), "--config", tr.cfg, "--yes")
	if r.code != 4 || !strings.Contains(r.stdout+r.stderr, "change-set-matches-plan") {
		t.Fatalf("resumed with the fix unchanged: exit %d, want 4 and moot's blocker again\n%s%s", r.code, r.stdout, r.stderr)
	}
	if md := readText(t, filepath.Join(ms[0], "fix-review.md")); !strings.Contains(md, "reject") || !strings.Contains(md, "round 2") {
		t.Errorf("fix-review.md after the resume:\n%s", md)
	}

	// the fixer drops the unapproved diff: the blocker is gone
	if err := os.Remove(filepath.Join(tr.repo, bug, "fix", "CHG-003.diff")); err != nil {
		t.Fatal(err)
	}
	if r := tr.run("resume", filepath.Base(ms[0]), "--config", tr.cfg, "--yes"); r.code != 0 {
		t.Errorf("resumed once the fix matches its plan: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A fix review with --lens killed mid-round resumes on the same envelope
// (moot's test checks included): nothing reads as changed, and the lens
// that sat is not called again.
func TestReviewOfAFixWithLensesKilledMidRoundRepeatsNoFinishedCall(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
	bug, _ := tr.fixedBug()
	dir := tr.killMidRound(filepath.Join(tr.repo, bug, "review", "*"), bug)
	r := tr.run("resume", filepath.Base(dir), "--config", tr.cfg, "--yes")
	if r.code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "changed since round") {
		t.Errorf("the resumed envelope differs from the cut round's:\n%s", r.stderr)
	}
	seen := map[string]int{}
	for _, call := range tr.calls() {
		seen[strings.Split(call, "/")[1]]++
	}
	if seen["security"] != 1 || seen["defect"] != 2 {
		t.Errorf("calls by lens %v: security sat once, defect was cut and called again", seen)
	}
	if env := readText(t, filepath.Join(dir, "round-1", "envelope.md")); !strings.Contains(env, "change-set-matches-plan: passed") {
		t.Errorf("the resumed envelope lacks moot's check:\n%s", env)
	}
}

// On a fix review, --lens takes the fix reviewer's own check names
// (fix-scope, fix-regression, fix-tests, fix-spec).
func TestReviewOfAFixTakesTheReviewersLensNames(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, _ := tr.fixedBug()
	r := tr.review(bug, "--lens", "fix-scope", "--lens", "defect")
	if r.code != 0 {
		t.Fatalf("--lens fix-scope: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*", "round-1", "verdicts", "fix-scope.json"))
	if len(ms) != 1 {
		t.Errorf("fix-scope did not sit: %v\n%s", ms, r.stderr)
	}
}
