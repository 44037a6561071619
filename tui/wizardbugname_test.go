package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWizardNamesTheBugOnASmallTerminal: at 60×15 the protocol page's
// heading (the bug's ID and title) scrolls away under the choices: the
// wizard's title line names the bug instead, shortened with … to fit.
func TestWizardNamesTheBugOnASmallTerminal(t *testing.T) {
	f := newFixture(t)
	m := sized(t, f.options(), 60, 15)
	m = keys(t, m, "n")
	screen := ansi.Strip(m.Render())
	first := strings.SplitN(screen, "\n", 2)[0]
	if !strings.Contains(first, " · BUG-2026") || !strings.HasSuffix(strings.TrimRight(first, " "), "…") {
		t.Errorf("the wizard's first line does not name the bug, shortened:\n%s", screen)
	}
}
