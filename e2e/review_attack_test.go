package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// head is the commit id of rev in the tribunal's repository.
func (tr *tribunal) head(rev string) string {
	tr.t.Helper()
	out, err := exec.Command("git", "-C", tr.repo, "rev-parse", rev).Output()
	if err != nil {
		tr.t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// --resume reviews the same change on the current files: the base is
// kept as a commit id (HEAD~1 re-resolved after a fix commit would lose
// the first commit's files), the envelope keeps every file of round 1,
// and a range given by fixed commit ids reads the fix, not the old files.
func TestReviewResumeKeepsTheChangeAndReadsTheFix(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		tr := newTribunal(t, juryEngines)
		tr.write("a.go", "package calc\n\nconst A = 1\n")
		tr.write("b.go", "package calc\n\nconst B = 1\n")
		tr.git("add", "a.go", "b.go")
		tr.git("commit", "-qm", "two files")
		rng := "HEAD~1..HEAD"
		if fixed {
			rng = tr.head("HEAD~1") + ".." + tr.head("HEAD")
		}
		tr.jury = "*/defect@1=refuse"
		if r := tr.review("--change", rng, "--contract", "consts | A and B exist", "--lens", "defect"); r.code != 4 {
			t.Fatalf("round 1: exit %d\n%s", r.code, r.stderr)
		}
		tr.write("a.go", "package calc\n\nconst A = 2 // fixed\n")
		tr.git("commit", "-qam", "fix a")
		tr.jury = ""
		dir := tr.only()
		if r := tr.review("--resume", filepath.Base(dir)); r.code != 0 {
			t.Fatalf("fixed %v round 2: exit %d\n%s", fixed, r.code, r.stderr)
		}
		env := readText(t, filepath.Join(dir, "round-2", "envelope.md"))
		for _, want := range []string{"b.go", "const B = 1", "const A = 2 // fixed"} {
			if !strings.Contains(env, want) {
				t.Errorf("fixed %v: round 2's envelope lacks %q:\n%s", fixed, want, env)
			}
		}
	}
}
