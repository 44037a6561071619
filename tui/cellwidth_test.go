package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCellWidthAgreesWithANSI: the fast width is ansi.StringWidth's for
// every rune it counts itself, alone and between neighbours, and for the
// styled and unusual strings a frame draws.
func TestCellWidthAgreesWithANSI(t *testing.T) {
	t.Parallel()
	var cases []string
	for r := rune(0); r < 0x3000; r++ {
		if narrowRune(r) || r < 0x80 {
			cases = append(cases, string(r), "a"+string(r)+"b", string(r)+"\u0301", "\x1b[1m"+string(r)+"\x1b[0m")
		}
	}
	cases = append(cases, "", "hipótese explica o log", "\x1b[38;5;12mcor\x1b[0m ok", "\x1b]8;;http://x\x07link\x1b]8;;\x07",
		"\x1b[", "\x1b[12", "\x1bX", "a\tb", "日本語", "e\u0301", "👍🏽", "a\u200db", "╭─ agente-1 ─╮", "⣾ running", "soft\u00adhyphen")
	for _, s := range cases {
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("cellWidth(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
	}
}

// FuzzCellWidth: for any string, the fast width is ansi.StringWidth's.
func FuzzCellWidth(f *testing.F) {
	for _, s := range []string{"ascii", "ação ─│", "\x1b[1;31mx\x1b[0m", "\x1b[?25l", "e\u0301", "日本", "\x1b[", "⣾ …"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Fatalf("cellWidth(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
	})
}
