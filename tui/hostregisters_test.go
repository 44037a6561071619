package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// hostFixture opens a public register of testdata/registers.
func hostFixture(t *testing.T, name string) *fixture {
	t.Helper()
	proj := testutil.CopyTree(t, filepath.Join("registers", name))
	reg, err := bugfolder.FindRoot(proj)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{proj: proj, reg: reg, cfg: newFixture(t).cfg}
}

// TestBrowserShowsHostDebatesAsShowDoes: the browser's preview names a
// bug's fix state, and a host judge's synthesis or its winner label reads
// in the Final tab as `moot show` says it — never "—, decided by judge".
func TestBrowserShowsHostDebatesAsShowDoes(t *testing.T) {
	for _, tc := range []struct{ register, bug, preview, final string }{
		{"whispper", "BUG-20261001-MAC1", "synthesis", "Winner: a synthesis of the proposals, no single winner, decided by judge"},
		{"odcs", "BUG-20261004-ODCS", "bug: fix: 2 changes applied, closed (DONE.md)", "Winner: proposal A, decided by judge"},
	} {
		f := hostFixture(t, tc.register)
		m := loadBrowser(t, f, 160, 40)
		m = selectRow(t, m, tc.bug)
		for _, c := range m.browser.wantPreview(&m.frame) {
			for _, msg := range run(c) {
				m = pump(t, m, msg)
			}
		}
		if s := screenText(m, f.proj); !strings.Contains(s, tc.preview) || !strings.Contains(s, "bug: fix: ") {
			t.Errorf("%s: the row or preview lacks %q or the fix state:\n%s", tc.bug, tc.preview, s)
		}
		m = keys(t, m, "enter")
		for i := 0; i < 10 && !strings.Contains(screenText(m, f.proj), "Winner:"); i++ {
			m = keys(t, m, "tab") // to the Final tab
		}
		s := screenText(m, f.proj)
		if !strings.Contains(s, tc.final) || strings.Contains(s, "—, decided by") {
			t.Errorf("%s: the Final tab lacks %q:\n%s", tc.bug, tc.final, s)
		}
	}
}

// TestFinalTabNamesAHostJudgesVerdictAndItsProposalsFile: the Final tab
// of a host's spec-mode debate says the verdict its judge recommends and
// where the host kept the anonymised proposals, as `moot show` does —
// never an empty "labels:" line and no verdict.
func TestFinalTabNamesAHostJudgesVerdictAndItsProposalsFile(t *testing.T) {
	t.Parallel()
	f := hostFixture(t, "odcs")
	m := loadBrowser(t, f, 160, 40)
	m = selectRow(t, m, "BUG-20261004-ODCS")
	m = keys(t, m, "enter")
	for i := 0; i < 10 && !strings.Contains(screenText(m, f.proj), "Winner:"); i++ {
		m = keys(t, m, "tab") // to the Final tab
	}
	s := screenText(m, f.proj)
	for _, want := range []string{"verdict: spec-correta", "juiz/propostas-anonimas.md"} {
		if !strings.Contains(s, want) {
			t.Errorf("the Final tab lacks %q:\n%s", want, s)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) == "labels:" {
			t.Errorf("the Final tab has an empty labels line:\n%s", s)
		}
	}
}
