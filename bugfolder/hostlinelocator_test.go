package bugfolder_test

import (
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestLocatorWithAColonLineNumberNamesThoseLines: a spec locator written
// as editors and compilers write a place ("domain.md:3", "domain.md:3-5")
// names those lines of the file, as "#L3" and "#L3-L5" do; it is not read
// as a file called "domain.md:3" that does not exist.
func TestLocatorWithAColonLineNumberNamesThoseLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ raw, path, anchor, comment string }{
		{"_reversa_sdd/domain.md:3", "_reversa_sdd/domain.md", "L3", ""},
		{"_reversa_sdd/domain.md:3-5", "_reversa_sdd/domain.md", "L3-L5", ""},
		{"_reversa_sdd/domain.md:12 (regra de acesso)", "_reversa_sdd/domain.md", "L12", "(regra de acesso)"},
		{"_reversa_sdd/domain.md", "_reversa_sdd/domain.md", "", ""},
		{"docs/a:b.md", "docs/a:b.md", "", ""},
	} {
		l := bugfolder.ParseLocator(tc.raw)
		if l.Path != tc.path || l.Anchor != tc.anchor || l.Comment != tc.comment {
			t.Errorf("%q: path %q anchor %q comment %q; want %q %q %q", tc.raw, l.Path, l.Anchor, l.Comment, tc.path, tc.anchor, tc.comment)
		}
	}
	b := publicBug(t, "genealogico", "BUG-20260929-BJJH")
	b.Specs = []string{"_reversa_sdd/domain.md:3"}
	p, err := bugfolder.AssembleP(b)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, part := range p.Parts {
		if part.Kind == bugfolder.PartSpec && part.Text == "## 2. Regras\n" {
			found = true
		}
	}
	if !found {
		t.Errorf("P lacks line 3 of domain.md:\n%s", p.Text)
	}
}
