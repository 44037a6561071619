package tui

import (
	"strings"
	"testing"

	"charm.land/glamour/v2/styles"
	"github.com/charmbracelet/x/ansi"
)

// TestWrappedQuoteKeepsItsBar: every line of a block quote that wraps
// keeps its bar and stays within the width, in every style, at 60, 80
// and 140 columns (glamour counted the two-cell bar as one, so the last
// word of a full quoted line spilled onto a line of its own without it).
func TestWrappedQuoteKeepsItsBar(t *testing.T) {
	t.Parallel()
	md := "> Convergência final medida: 100 % (rodada 1; ver convergencia.md).\n" +
		"> Membro performance (agente-2): Performance: you defend latency, throughput and resource use under real load. Ask what this bug or its fix costs on the hot path, at scale, in memory and I/O, and demand measurements over intuition. Hold this lens through every round: say what the others miss from it, concede only to evidence, and do not drift toward the panel's average view.\n\n" +
		"A paragraph after the quote, long enough to wrap at sixty columns and more, as answers are.\n"
	for _, style := range []string{styles.NoTTYStyle, styles.DarkStyle, styles.LightStyle} {
		for _, width := range []int{60, 78, 138} {
			out := ansi.Strip(RenderMarkdown(md, width, style))
			quote := true
			for _, l := range strings.Split(out, "\n") {
				if ansi.StringWidth(l) > width {
					t.Errorf("%s at %d: a line of %d cells: %q", style, width, ansi.StringWidth(l), l)
				}
				text := strings.TrimSpace(l)
				if strings.HasPrefix(text, "A paragraph") {
					quote = false
				}
				if quote && text != "" && !strings.HasPrefix(text, "│ ") && text != "│" {
					t.Errorf("%s at %d: a quoted line lost its bar: %q\n%s", style, width, l, out)
				}
				if strings.Contains(l, quoteCell) {
					t.Errorf("%s at %d: the layout mark is left in: %q", style, width, l)
				}
			}
			if !strings.Contains(out, "│ Convergência final") || !strings.Contains(out, "│ Membro performance") {
				t.Errorf("%s at %d: the quote's lines:\n%s", style, width, out)
			}
		}
	}
}
