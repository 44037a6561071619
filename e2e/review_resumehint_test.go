package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReviewRefusedNamesMootResumeAsTheOneWayBack: a refused review tells
// the user, on stdout and in its summary, to continue with moot resume ID
// (the stop dialog's and the README's words) and the --config FILE it was
// started with, and that command, run as printed once the findings are
// fixed, re-convenes the jury.
func TestReviewRefusedNamesMootResumeAsTheOneWayBack(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.jury = "*/defect@1=refuse"
	r := tr.review(append(change, "--lens", "defect")...)
	if r.code != 4 {
		t.Fatalf("round 1: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	dir := tr.only()
	id := filepath.Base(dir)
	printed := "moot resume " + id + " --config " + tr.cfg
	if hint := "fix the findings, then: " + printed + "\n"; !strings.Contains(r.stdout, hint) || strings.Contains(r.stdout, "--resume") {
		t.Errorf("the refused review's hint is not %q:\n%s", hint, r.stdout)
	}
	if sum := readText(t, filepath.Join(dir, "summary.md")); !strings.Contains(sum, "`"+printed+"`") || strings.Contains(sum, "--resume") {
		t.Errorf("summary.md does not name %s:\n%s", printed, sum)
	}
	tr.write("calc.go", calcChange+"\n// Cap is the discount cap.\nconst Cap = 10\n")
	tr.git("commit", "-qam", "cap")
	tr.jury = ""
	if r := tr.run(append(strings.Fields(printed)[1:], "--yes")...); r.code != 0 {
		t.Errorf("moot resume %s as printed: exit %d\n%s%s", id, r.code, r.stdout, r.stderr)
	}
}
