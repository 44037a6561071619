package bugfolder_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// wildK9P2 is the bug of testdata/wild that holds every locator form.
const wildK9P2 = "reversa/bugs/export/bugs/BUG-20260801-K9P2-csv-export-drops-rows"

// TestWildRegisterP: the register of testdata/wild is laid out as Reversa
// 1.2.58 and host agents write it. Every spec locator whose file exists
// lands in P with the rule that found it; the addenda in force (this bug's
// latest, another bug's on a located section) are added, the superseded,
// revoked and unrelated ones are not; P is the reviewed golden.
func TestWildRegisterP(t *testing.T) {
	proj := filepath.Join(testutil.RepoRoot(t), "testdata", "wild")
	reg, b, err := bugfolder.Resolve(filepath.Join(proj, "web"), "8")
	if err != nil {
		t.Fatal(err)
	}
	if reg.Root != filepath.Join(proj, "reversa", "bugs") || reg.Project != proj || reg.OutputFolder != filepath.Join("reversa", "sdd") || reg.Lang != bugfolder.EN {
		t.Fatalf("register from state.json: root %s project %s specs %s lang %s", reg.Root, reg.Project, reg.OutputFolder, reg.Lang)
	}
	p, err := bugfolder.AssembleP(b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, part := range p.Parts {
		if part.Kind == bugfolder.PartSpec || part.Kind == bugfolder.PartAddendum {
			got = append(got, fmt.Sprintf("%s#%s %s", part.Path, part.Anchor, part.Rule))
		}
	}
	want := []string{
		"reversa/sdd/requirements.md#functional-requirements explicit-id",
		"reversa/sdd/requirements.md#RF-06 requirement-id",
		"reversa/sdd/requirements.md#error-handling heading-slug",
		"reversa/sdd/requirements.md#RNF-02 requirement-id",
		"reversa/sdd/tasks.md#T006 requirement-id",
		"reversa/sdd/architecture.md#2 heading-number",
		"reversa/sdd/architecture.md#ADR-3 requirement-id",
		"skills/export/SKILL.md#L120 line-range",
		"web/index.html#L20-L26 line-range",
		"reversa/sdd/glossary.md# whole-file",
		"reversa/sdd/addenda/bug-20260801-k9p2-v002.md# addendum",
		"reversa/sdd/addenda/bug-BUG-20260610-A1B2-v001.md# addendum",
	}
	if !slices.Equal(got, want) {
		t.Errorf("located parts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, s := range []string{
		"The section `#rate-limits` was not found in `reversa/sdd/requirements.md`",
		"The spec `reversa/sdd/export-formats.md` (locator `reversa/sdd/export-formats.md#csv` in traceability.specs) does not exist",
		"Dot-named evidence files were not included in P: `" + wildK9P2 + "/evidence/.DS_Store`, `" + wildK9P2 + "/evidence/.env.local`.",
		"located by: heading's explicit id — heading {#functional-requirements}; comment cut: (RF-01 … RF-08, the table)",
		"located by: requirement ID — table row",
	} {
		if !strings.Contains(p.Text, s) {
			t.Errorf("P lacks %q", s)
		}
	}
	for _, s := range []string{"in any order", "was never the intent", "round half to even", "EXPORT_BUCKET", "Bud1"} {
		if strings.Contains(p.Text, s) {
			t.Errorf("P holds %q (a superseded, revoked or unrelated addendum, or a dot-named file)", s)
		}
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], ".env.local") {
		t.Errorf("warnings %v", p.Warnings)
	}
	golden.RequireEqual(t, []byte(p.Text))
}
