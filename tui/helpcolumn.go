package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// helpKeyWidth is the width of a help's key column, its space included:
// as wide as its widest key ("tab / shift+tab"), so every description
// starts in one column, but at most a third of the box (a longer key
// then runs into its description).
func helpKeyWidth(rows [][2]string, inner int) int {
	w := 14
	for _, r := range rows {
		w = max(w, ansi.StringWidth(r[0]))
	}
	return min(w, max(14, inner/3)) + 1
}

// padCell pads s with spaces to w cells (a wider s gets one space).
func padCell(s string, w int) string {
	return s + strings.Repeat(" ", max(1, w-ansi.StringWidth(s)))
}
