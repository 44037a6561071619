package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
)

// q2r8Bug and a7k3Bug are two sample bug folders: Q2R8's debate is done,
// A7K3 has none.
const (
	q2r8Bug = "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado"
	a7k3Bug = "_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto-aplicado-duas-vezes"
)

// withPending writes decision: pending into the final answer of the debate
// folder dir.
func withPending(t *testing.T, dir string) {
	t.Helper()
	p := filepath.Join(dir, "resposta-final.md")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(raw), "---\n", "---\nrecommended_verdict: spec-gap\ndecision: pending\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
}

// bothPending makes the sample hold a ◈ row (Q2R8: its debate done, an
// archived result waiting for a decision) and a ◆ row (A7K3: its latest
// result waits), with unrelated rows between them in the register's
// order; it returns the archived folder.
func bothPending(t *testing.T, f *fixture) string {
	t.Helper()
	cur := filepath.Join(f.proj, q2r8Bug, "debate")
	archived := filepath.Join(f.proj, q2r8Bug, "debate-20260601T000000Z")
	a7k3 := filepath.Join(f.proj, a7k3Bug, "debate")
	for _, to := range []string{archived, a7k3} {
		if err := os.CopyFS(to, os.DirFS(cur)); err != nil {
			t.Fatal(err)
		}
		withPending(t, to)
	}
	return archived
}

// TestBrowserListsArchivedPendingDecisionsFirstToo: a row whose archived
// result waits for a human decision (◈) is listed first with the rows
// whose latest result waits (◆), never below unrelated rows, in the
// register's order as in every other order of the list.
func TestBrowserListsArchivedPendingDecisionsFirstToo(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bothPending(t, f)
	m := loadBrowser(t, f, 140, 45)
	for _, sort := range []string{"register order", "newest first", "by status", "costliest first", "worst health first"} {
		rows := drawnRows(m)
		if len(rows) < 3 || !strings.HasPrefix(rows[0], "◈") && !strings.HasPrefix(rows[0], "◆") ||
			!strings.HasPrefix(rows[1], "◈") && !strings.HasPrefix(rows[1], "◆") || rows[0][:3] == rows[1][:3] {
			t.Errorf("%s: the ◆ and ◈ rows are not the first two:\n%s", sort, strings.Join(rows, "\n"))
		}
		m = keys(t, m, "s")
	}
}

// TestPendingStatusesReadApartAtEveryWidth: where a status's words are cut,
// a row whose result waits for a decision (◆) and one whose archived
// result does (◈) still read apart in the STATUS column, and a closed
// bug's state is never cut (golden rows at 60, 80 and 140 columns).
func TestPendingStatusesReadApartAtEveryWidth(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bothPending(t, f)
	for _, w := range []int{60, 80, 140} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := loadBrowser(t, f, w, 24)
			rows := ansi.Strip(m.browser.renderRows(m.st, m.lay.listW, len(m.browser.visible)))
			on := columnsFor(m.lay.listW)
			widths := m.browser.colWidths(on, m.lay.listW)
			cells := map[string]string{}
			for _, r := range m.browser.rows {
				if r.sum != nil && (r.pendingDecision() || r.archivedPending()) {
					cells[r.marks()[:len("◆")]] = r.statusCell(widths[statusCol])
				}
			}
			if len(cells) != 2 || cells["◆"] == cells["◈"] || !strings.Contains(cells["◆"], "decision pending") && !strings.Contains(cells["◆"], "◆ decide") || !strings.Contains(cells["◈"], "◈ decide") && !strings.Contains(cells["◈"], "◈ archived") ||
				strings.HasSuffix(cells["◆"], "…") || strings.HasSuffix(cells["◈"], "…") {
				t.Errorf("at %d columns the two pending statuses read %q", w, cells)
			}
			for _, r := range m.browser.rows {
				if c := r.statusCell(widths[statusCol]); r.sum != nil && r.sum.Bug.Done && ansi.StringWidth(c) > widths[statusCol] {
					t.Errorf("at %d columns a bug closed by DONE.md reads %q: its state is cut where its ⊘ mark says closed", w, c)
				}
			}
			golden.RequireEqual(t, []byte(rows+"\n"))
		})
	}
}

// TestBrowserKeepsTheSelectedRowOnATinyWindow: on a window under 8 lines
// the title and the count give way, so the selected row is always drawn,
// down to the last row, at 20×5 and 40×6 (golden of 20×5 at the last row).
func TestBrowserKeepsTheSelectedRowOnATinyWindow(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{20, 5}, {40, 6}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := loadBrowser(t, f, sz[0], sz[1])
			for i := range m.browser.visible {
				if i > 0 {
					m = keys(t, m, "j")
				}
				text := checkFrame(t, m, sz[0], sz[1], f.proj, nil)
				if !strings.Contains(text, "▸") {
					t.Fatalf("row %d selected, not on screen:\n%s", i+1, text)
				}
			}
			if sz[1] == 5 {
				goldenScreen(t, m, f.proj)
			}
			m = keys(t, m, "/")
			if text := screenText(m, f.proj); !strings.Contains(text, "/ ") {
				t.Errorf("the filter's prompt is not on screen while it is typed:\n%s", text)
			}
		})
	}
}

// TestDOnAnArchivedPendingRowDecidesThere: d on a ◈ row opens the archived
// result with the same decision form as a ◆ row's; the decision is written
// in the archived folder (not the current debate's), and back on the list
// the row has lost its mark.
func TestDOnAnArchivedPendingRowDecidesThere(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	archived := bothPending(t, f)
	fakeWho(f)
	m := loadBrowser(t, f, 80, 24)
	for lineWith(screenText(m, f.proj), "▸ ◈") == "" {
		m = keys(t, m, "j")
		if m.browser.cursor == len(m.browser.visible)-1 {
			t.Fatalf("no ◈ row:\n%s", screenText(m, f.proj))
		}
	}
	m = keys(t, m, "d")
	if !menuDrawn(m, menuDecide) || !strings.Contains(screenText(m, f.proj), "20260601T000000Z/") {
		t.Fatalf("d on the ◈ row opens no decision form on the archived result:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "enter", "enter") // approve, no note
	raw, err := os.ReadFile(filepath.Join(archived, bugfolder.DecisionFile))
	if err != nil {
		t.Fatalf("no decisao.md in the archived folder: %v (status %q)", err, m.toast.text)
	}
	if dec, err := bugfolder.ParseDecision("decisao.md", raw); err != nil || dec.Choice != bugfolder.ChoiceApprove {
		t.Errorf("decisao.md: %+v %v", dec, err)
	}
	if _, err := os.Stat(filepath.Join(f.proj, q2r8Bug, "debate", bugfolder.DecisionFile)); err == nil {
		t.Error("the decision went to the current debate, which waits for none")
	}
	m = keys(t, m, "q")
	if row := lineWith(screenText(m, f.proj), "BUG-20260702-Q2R8"); row == "" || strings.Contains(row, "◈") {
		t.Errorf("back on the list, the decided row still reads:\n%s", screenText(m, f.proj))
	}
}
