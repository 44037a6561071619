package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestFrameCutsAWideLineWithAnEllipsis: a line wider than the window is
// cut to it and ends with …, so a cut line never reads as a whole one;
// a line that fits is left as it is.
func TestFrameCutsAWideLineWithAnEllipsis(t *testing.T) {
	f := frame{w: 20, h: 2}
	out := strings.Split(f.fit("calls at most 10 calls (round cap: 2)\nshort"), "\n")
	if ansi.StringWidth(out[0]) != 20 || !strings.HasSuffix(out[0], "…") {
		t.Errorf("the wide line reads %q: want 20 cells ending with …", out[0])
	}
	if out[1] != "short" {
		t.Errorf("the short line reads %q", out[1])
	}
}
