package tui

import (
	"charm.land/glamour/v2/styles"
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
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

// TestNarrowKeyValueTableReadsAsPairs: moot show's summary (a table of two
// columns, its heading "status | done" a pair itself) rendered at 60 and
// 80 columns, where it does not fit, reads one "• key: value" a row, the
// heading once, never "• status bug · done: …"; the rounds' table that
// fits stays a table.
func TestNarrowKeyValueTableReadsAsPairs(t *testing.T) {
	t.Parallel()
	md := "# BUG-20260702-Q2R8 — Frete arredondado\n\n| status | done |\n|---|---|\n" +
		"| bug | status active · phase diagnosing |\n| setup | diagnosis · N=3 · R=2 · 0 critic(s) · language pt |\n" +
		"| engines | agente-1 local, agente-2 local, agente-3 codex, judge local |\n| elapsed | 76ms |\n" +
		"| winner | proposal B (agente-1), decided by judge · 2 of 3 solvers took part |\n\n## Rounds\n\n" +
		"| round | agente-1 | agente-2 |\n|---|---|---|\n| 0 | ok · 1m40s | ok · 1m40s |\n"
	for _, w := range []int{60, 80} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			out := ansi.Strip(RenderMarkdown(md, w-2, styles.DarkStyle))
			for _, want := range []string{"• status: done", "• bug: status active · phase diagnosing", "• elapsed: 76ms", "──┼──"} {
				if !strings.Contains(out, want) {
					t.Errorf("lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "status bug") || strings.Contains(out, "done: ") {
				t.Errorf("a row repeats the heading:\n%s", out)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

// TestRenderedMarkdownNeverBreaksAnIDOrAPathAtItsHyphen: moot show and
// the TUI's documents keep a bug ID and a flag whole on a line and cut a
// path wider than the line only after a '/', at every width from 40 to
// 100 columns (glamour breaks after any '-'); a list's "- " and a rule
// stay Markdown.
func TestRenderedMarkdownNeverBreaksAnIDOrAPathAtItsHyphen(t *testing.T) {
	t.Parallel()
	const path = "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/debate"
	md := "Run moot resume BUG-20260702-Q2R8 --config walk/moot.yaml to go on; the debate is in " + path + " now.\n\n---\n\n- a list item with a cross-rebuttal round\n"
	for w := 40; w <= 100; w++ {
		out := ansi.Strip(RenderMarkdown(md, w, styles.DarkStyle))
		for _, l := range strings.Split(out, "\n") {
			if l = strings.TrimSpace(l); strings.HasSuffix(l, "-") && strings.Trim(l, "-") != "" { // a rule is all hyphens
				t.Errorf("at %d a line broken at a hyphen: %q\n%s", w, l, out)
			}
		}
		flat := strings.Join(strings.Fields(out), "")
		for _, whole := range []string{"BUG-20260702-Q2R8", "--config", path, "•alistitem"} {
			if !strings.Contains(flat, whole) {
				t.Errorf("at %d %q is not whole:\n%s", w, whole, out)
			}
		}
		if !strings.Contains(out, "BUG-20260702-Q2R8 ") || strings.Contains(out, nbHyphen) || strings.Contains(out, pathBreak) {
			t.Errorf("at %d the ID is broken or a stand-in is left:\n%s", w, out)
		}
	}
}
