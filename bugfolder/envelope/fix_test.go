package envelope

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const samplePlan = `<!doctype html><html><head><style>td{color:#eee}</style></head><body>
<h2>Correction Change Set</h2>
<table><tr><th>CHG</th><th>tipo</th><th>artefato</th><th>propósito</th></tr>
<tr><td>CHG-001</td><td>test</td><td><code>calc_test.go</code></td><td>reproduce the double discount</td></tr>
<tr><td><b>CHG-002</b></td><td>code</td><td>calc.go</td><td>apply the discount <em>once</em></td>
<tr><td>CHG-002</td><td>code</td><td>dup.go</td><td>a repeated id is read once</td></tr>
<tr><td>risk</td><td>low</td></tr>
</table></body></html>`

func TestPlanItemsReadTheChangeSetTable(t *testing.T) {
	got := PlanItems(samplePlan)
	want := []ChangeItem{{"CHG-001", "test", "calc_test.go", "reproduce the double discount"}, {"CHG-002", "code", "calc.go", "apply the discount once"}}
	if !slices.Equal(got, want) {
		t.Errorf("items %+v, want %+v", got, want)
	}
}

func TestDiffPathsReadsTouchedAndDeletedFiles(t *testing.T) {
	diff := "diff --git a/calc.go b/calc.go\n--- a/calc.go\n+++ b/calc.go\n@@ -1 +1 @@\n-x\n+y\n" +
		"--- a/old.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-z\n" +
		"--- /dev/null\n+++ b/pkg/new.go\t2026-01-01 00:00:00\n" +
		"--- a/../../etc/passwd\n+++ b/../../etc/passwd\n+++ /abs\n"
	touched, deleted, outside := DiffPaths(diff)
	if !slices.Equal(touched, []string{"calc.go", "pkg/new.go"}) || !slices.Equal(deleted, []string{"old.go"}) {
		t.Errorf("touched %q deleted %q", touched, deleted)
	}
	if !slices.Equal(outside, []string{"../../etc/passwd", "/abs"}) {
		t.Errorf("outside %q: a path that leaves the repository must be named, not dropped", outside)
	}
}

func TestTestPathsKeepsTheFiles(t *testing.T) {
	got := TestPaths([]string{"tests/calc_test.go::TestTotal", "tests/test_calc.py#test_total", "go test ./calc -run TestTotal", "`calc_test.go`", "../x_test.go", "tests/calc_test.go"})
	if want := []string{"tests/calc_test.go", "tests/test_calc.py", "calc_test.go"}; !slices.Equal(got, want) {
		t.Errorf("paths %q, want %q", got, want)
	}
}

// ReadFix: no fix/ or no CHG diff is no fix; the plan's items checked
// against the diffs.
func TestReadFixAndItsChecks(t *testing.T) {
	dir := t.TempDir()
	if f, err := ReadFix(dir); f != nil || err != nil {
		t.Fatalf("no fix/: %+v %v", f, err)
	}
	write := func(name, body string) {
		if err := os.MkdirAll(filepath.Join(dir, FixDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, FixDir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("notes.md", "x")
	if f, err := ReadFix(dir); f != nil || err != nil {
		t.Fatalf("no CHG diff: %+v %v", f, err)
	}
	write("CHG-002.diff", "--- a/calc.go\n+++ b/calc.go\n")
	write("CHG-003.diff", "--- a/extra.go\n+++ b/extra.go\n")
	write(PlanFile, samplePlan)
	f, err := ReadFix(dir)
	if err != nil || f == nil || !slices.Equal(f.Touched, []string{"calc.go", "extra.go"}) || len(f.Items) != 2 {
		t.Fatalf("fix %+v, %v", f, err)
	}
	c := f.Checks()
	if len(c) != 1 || c[0].OK || !strings.Contains(c[0].Detail, "CHG-001") || !strings.Contains(c[0].Detail, "CHG-003.diff") {
		t.Errorf("checks %+v, want CHG-001 without a diff and CHG-003.diff without an item", c)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, FixDir, "CHG-009.diff")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFix(dir); err == nil || !strings.Contains(err.Error(), "CHG-009.diff") {
		t.Errorf("a linked diff: %v, want an error naming it", err)
	}
}

// FuzzPlanItems: any page gives items whose id is a CHG id, once each,
// their cells on one line.
func FuzzPlanItems(f *testing.F) {
	f.Add(samplePlan)
	f.Add("<tr><td>CHG-1<tr><td>CHG-1</td></tr>")
	f.Add("<table><td>CHG-9</td>")
	f.Fuzz(func(t *testing.T, page string) {
		seen := map[string]bool{}
		for _, it := range PlanItems(page) {
			if !chgID.MatchString(it.ID) || seen[it.ID] || strings.ContainsAny(it.Kind+it.Artifact+it.Purpose, "\n\t") {
				t.Fatalf("item %+v of %q", it, page)
			}
			seen[it.ID] = true
		}
	})
}

// FuzzDiffPaths: any diff gives clean relative paths inside the repository.
func FuzzDiffPaths(f *testing.F) {
	f.Add("--- a/x.go\n+++ b/x.go\n--- a/y\n+++ /dev/null\n")
	f.Add("+++ b/../../etc/passwd\n+++ \"b/a b.go\"\t2026\n")
	f.Fuzz(func(t *testing.T, diff string) {
		touched, deleted, outside := DiffPaths(diff)
		if slices.Contains(outside, "") {
			t.Fatalf("an empty outside path of %q", diff)
		}
		for _, p := range append(touched, deleted...) {
			if p == "" || p == "." || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") || path.Clean(p) != p || inGit(p) {
				t.Fatalf("path %q of %q", p, diff)
			}
		}
	})
}

// FuzzTestPaths: any traceability entries give clean relative file paths.
func FuzzTestPaths(f *testing.F) {
	f.Add("tests/calc_test.go::TestTotal")
	f.Add("../../x.go")
	f.Fuzz(func(t *testing.T, entry string) {
		for _, p := range TestPaths([]string{entry}) {
			if path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") || path.Clean(p) != p || path.Ext(p) == "" || inGit(p) {
				t.Fatalf("path %q of %q", p, entry)
			}
		}
	})
}

// inGit reports a path with a .git component (any case).
func inGit(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}

// A diff or a traceability entry naming a file inside .git names no file
// a juror may read.
func TestFixPathsLeaveTheGitFolderOut(t *testing.T) {
	touched, _, _ := DiffPaths("+++ b/.git/config\n+++ b/sub/.GIT/hooks/pre-commit.sample\n+++ b/calc.go\n")
	if len(touched) != 1 || touched[0] != "calc.go" {
		t.Errorf("DiffPaths: %v, want only calc.go", touched)
	}
	if got := TestPaths([]string{".git/hooks/x.sample", "calc_test.go::TestTotal"}); len(got) != 1 || got[0] != "calc_test.go" {
		t.Errorf("TestPaths: %v, want only calc_test.go", got)
	}
}
