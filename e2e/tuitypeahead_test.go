package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestTUIWizardTypedAheadLandsInTheNextField: at 80×24 and 60×15, enter
// and the text after it sent in one go (as a fast typist or a paste sends
// them) move to the next field and fill it: the field just left keeps
// what it had.
func TestTUIWizardTypedAheadLandsInTheNextField(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {60, 15}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			p := newProject(t)
			m := startTmux(t, p, sz.w, sz.h, "run", "7", "--protocol", "debate")
			m.wait("the wizard's mode", "┃ Mode")
			m.send("Enter")
			m.wait("the panel's size", "┃ Solvers (N)")
			m.send("Enter", "BSpace", "4")
			// the frame that first focuses R shows where the text went
			s := m.wait("the rounds, focused", "┃ Rounds after round 0 (R)")
			if !strings.Contains(s, "┃ > 4") || !strings.Contains(s, "Solvers (N)\n  > 3") {
				t.Errorf("the text typed after enter did not land in R (N kept 3):\n%s", s)
			}
		})
	}
}
