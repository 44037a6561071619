package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Bad input to a fix review — no fix, a plan over the size cap, a diff
// that is a link, a review/ folder that is a link into the project, a
// closed bug — is exit 2 naming what is wrong, with nothing called and
// nothing written (bug.md and the project as they were).
func TestReviewOfAFixRefusesBadInputWritingNothing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, want string
		spoil      func(tr *tribunal, dir string)
	}{
		{"no fix", "fix/CHG-*.diff", func(tr *tribunal, dir string) { must(t, os.RemoveAll(filepath.Join(dir, "fix"))) }},
		{"huge plan", "plan.html", func(tr *tribunal, dir string) {
			must(t, os.WriteFile(filepath.Join(dir, "fix", "plan.html"), []byte(strings.Repeat("<p>x</p>", 700_000)), 0o644))
		}},
		{"linked diff", "CHG-001.diff", func(tr *tribunal, dir string) {
			p := filepath.Join(dir, "fix", "CHG-001.diff")
			must(t, os.Remove(p))
			must(t, os.Symlink("/etc/passwd", p))
		}},
		{"linked review folder", "review", func(tr *tribunal, dir string) {
			must(t, os.MkdirAll(filepath.Join(tr.repo, "src"), 0o755))
			must(t, os.Symlink(filepath.Join(tr.repo, "src"), filepath.Join(dir, "review")))
		}},
		{"closed bug", "DONE.md", func(tr *tribunal, dir string) {
			must(t, os.WriteFile(filepath.Join(dir, "DONE.md"), []byte("done\n"), 0o644))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := newTribunal(t, juryEngines)
			bug, before := tr.fixedBug()
			dir := filepath.Join(tr.repo, bug)
			c.spoil(tr, dir)
			r := tr.review(bug)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) {
				t.Errorf("exit %d, want 2 naming %s\n%s%s", r.code, c.want, r.stdout, r.stderr)
			}
			if len(tr.calls()) != 0 {
				t.Errorf("jurors were called: %v", tr.calls())
			}
			if es, _ := os.ReadDir(filepath.Join(tr.repo, "src")); len(es) != 0 {
				t.Errorf("the review wrote into the project's src/: %v", es)
			}
			if ms, _ := filepath.Glob(filepath.Join(dir, "review", "*")); len(ms) != 0 {
				t.Errorf("a review folder was written: %v", ms)
			}
			if _, err := os.Stat(filepath.Join(tr.repo, ".moot")); err == nil {
				t.Error("a .moot folder was written in the project")
			}
			if after := readText(t, filepath.Join(dir, "bug.md")); after != before {
				t.Error("bug.md changed")
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A fix review with the builder unknown never reads as a plain approve:
// fix-review.md and .json say the gate was weakened.
func TestReviewOfAFixWithAnUnknownBuilderSaysTheGateWasWeakened(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	bug, _ := tr.fixedBug()
	r := tr.review(bug, "--builder", "unknown")
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*"))
	if len(ms) != 1 {
		t.Fatalf("exit %d, review folders %v\n%s%s", r.code, ms, r.stdout, r.stderr)
	}
	for _, f := range []string{"fix-review.md", "fix-review.json"} {
		if s := readText(t, filepath.Join(ms[0], f)); !strings.Contains(s, "weakened") && !strings.Contains(s, "builder unknown") {
			t.Errorf("%s does not say the gate was weakened (exit %d):\n%s", f, r.code, s)
		}
	}
}
