package bugfolder

import (
	"os"
	"path/filepath"
	"testing"
)

// A file is judged a record of the register by where it leads: a spec
// file, or a folder on its path, that links into the register (or into
// .moot/) is a record; a real spec, or a link to one, is not.
func TestIsRecordFollowsLinksIntoTheRegister(t *testing.T) {
	project := t.TempDir()
	reg := &Register{Root: filepath.Join(project, "bugs-here"), Project: project}
	for _, d := range []string{"bugs-here/ctx/bugs/B1", "_reversa_bugs/x", ".moot/r", "_reversa_sdd/sdd"} {
		if err := os.MkdirAll(filepath.Join(project, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"bugs-here/ctx/bugs/B1/bug.md", "_reversa_bugs/x/bug.md", ".moot/r/answer.md", "_reversa_sdd/sdd/real.md"} {
		if err := os.WriteFile(filepath.Join(project, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"_reversa_sdd/sdd/to-root.md":  "../../bugs-here/ctx/bugs/B1/bug.md",
		"_reversa_sdd/sdd/to-named.md": "../../_reversa_bugs/x/bug.md",
		"_reversa_sdd/sdd/to-moot.md":  "../../.moot/r/answer.md",
		"_reversa_sdd/sdd/to-real.md":  "real.md",
		"_reversa_sdd/folder":          "../bugs-here/ctx/bugs/B1",
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(project, l)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		path   string
		record bool
	}{
		{"_reversa_sdd/sdd/real.md", false},
		{"_reversa_sdd/sdd/to-real.md", false},
		{"_reversa_sdd/sdd/missing.md", false},
		{"bugs-here/ctx/bugs/B1/bug.md", true},
		{"_reversa_sdd/sdd/to-root.md", true},
		{"_reversa_sdd/sdd/to-named.md", true},
		{"_reversa_sdd/sdd/to-moot.md", true},
		{"_reversa_sdd/folder/bug.md", true},
	} {
		if got := reg.IsRecord(filepath.Join(project, tc.path)); got != tc.record {
			t.Errorf("IsRecord(%s) = %v, want %v", tc.path, got, tc.record)
		}
	}
}
