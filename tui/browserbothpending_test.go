package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pendingIn marks the result in debate folder dir as waiting for a human
// decision.
func pendingIn(t *testing.T, dir string) {
	t.Helper()
	final := filepath.Join(dir, "resposta-final.md")
	raw, err := os.ReadFile(final)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(final, []byte(strings.Replace(string(raw), "decided_by: judge\n", "decided_by: judge\ndecision: pending\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
}

// archivedPending copies Q2R8's finished debate to an archived folder
// whose result waits for a human decision (a newer debate archived it
// undecided), and returns the bug's folder and the archived one.
func archivedPending(t *testing.T, f *fixture) (bug, archived string) {
	t.Helper()
	bug = filepath.Join(f.proj, "_reversa_bugs", "checkout", "bugs", "BUG-20260702-Q2R8-frete-arredondado")
	archived = filepath.Join(bug, "debate-20260601T000000Z")
	if err := os.CopyFS(archived, os.DirFS(filepath.Join(bug, "debate"))); err != nil {
		t.Fatal(err)
	}
	pendingIn(t, archived)
	return bug, archived
}

// TestBrowserRowAndDecideFormSayTwoResultsWait: a bug whose current
// result and an archived one both wait for a human decision says both on
// its one row (◆ and "+◈", in the words each width has room for), and d
// opens the form on the current result saying which it decides (the
// current debate, with its date, as moot decide says it) and that the
// archived one, named by its folder, waits too; on a bug whose archived
// result alone waits, the form says it decides the archived debate, in
// its folder. Goldens at 60×15, 80×24 and 140×45.
func TestBrowserRowAndDecideFormSayTwoResultsWait(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{60, 15}, {80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			bug, _ := archivedPending(t, f)
			pendingIn(t, filepath.Join(bug, "debate"))
			m := loadBrowser(t, f, sz.w, sz.h)
			row := lineWith(screenText(m, f.proj), "Q2R8")
			if !strings.Contains(row, "◆") || !strings.Contains(row, "+◈") || strings.Count(screenText(m, f.proj), "Q2R8") != 1 {
				t.Errorf("the row does not say both results wait, on one line:\n%s", screenText(m, f.proj))
			}
			goldenScreenNamed(t, "list", m, f.proj)
			d := keys(t, m, "d")
			if sz.h < 20 { // the form opens scrolled to its fields: its words are above
				return
			}
			flat := strings.Join(strings.Fields(screenText(d, f.proj)), " ")
			for _, want := range []string{"Record the human decision on BUG-20260702-Q2R8", "On the current debate of 20", "Waiting too: the archived debate of 20", "debate-20260601T000000Z/"} {
				if !strings.Contains(flat, want) {
					t.Errorf("the decision form lacks %q:\n%s", want, screenText(d, f.proj))
				}
			}
			goldenScreenNamed(t, "decide-current", d, f.proj)
		})
	}
}

// TestDecideFormOnAnArchivedResultSaysWhichItDecides: d on a ◈ row opens
// the form saying it decides the archived debate, with its date and
// folder, and no other result waiting.
func TestDecideFormOnAnArchivedResultSaysWhichItDecides(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	archivedPending(t, f)
	m := loadBrowser(t, f, 100, 30)
	d := keys(t, m, "d")
	flat := strings.Join(strings.Fields(screenText(d, f.proj)), " ")
	if !strings.Contains(flat, "On the archived debate of 20") || !strings.Contains(flat, "debate-20260601T000000Z/") || strings.Contains(flat, "Waiting too") {
		t.Errorf("the form on the archived result:\n%s", screenText(d, f.proj))
	}
}
