package tui

import (
	"fmt"
	"strings"
	"testing"
)

// TestConvergenceTableHeadingsAreNeverCut: the Convergence tab shows
// every heading of convergencia.md whole — a table when it fits (140
// columns), a list of rows, each cell after its heading, when it does not
// (80 columns, where glamour cut them to "confian…").
func TestConvergenceTableHeadingsAreNeverCut(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct {
		w, h  int
		table bool
	}{{80, 24, false}, {140, 45, true}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := openBug(t, f, "5", sz.w, sz.h)
			for i := 0; i < 8 && !strings.HasPrefix(lineWith(screenText(m, f.proj), "Convergência"), "   Convergência"); i++ {
				m = keys(t, m, "tab")
			}
			text := checkFrame(t, m, sz.w, sz.h, f.proj, []string{"Convergência", "Notas: agente-3"})
			doc := text[strings.Index(text, "Convergência"):strings.Index(text, "Notas:")]
			if strings.Contains(doc, "…") {
				t.Errorf("a heading is cut:\n%s", text)
			}
			flat := strings.Join(strings.Fields(doc), " ")
			for _, head := range []string{"rodada", "válidos", "confiança (baixa/média/alta)", "concordância da causa raiz", "movimento"} {
				if !strings.Contains(flat, head) {
					t.Errorf("lacks the heading %q:\n%s", head, text)
				}
			}
			if got := strings.Contains(doc, "──┼──"); got != sz.table {
				t.Errorf("drawn as a table: %v, want %v:\n%s", got, sz.table, text)
			}
			if !sz.table && !strings.Contains(flat, "rodada 2 · válidos: 2/3") {
				t.Errorf("a row's cells do not follow their headings:\n%s", text)
			}
		})
	}
}
