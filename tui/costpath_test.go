package tui

import (
	"fmt"
	"regexp"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestCostScreenSaysItsCriticalPathWhole: the critical path's line ends
// with its figure ("at most 4m") at every size: at 60 columns it wraps
// under itself instead of being cut to "at most …".
func TestCostScreenSaysItsCriticalPathWhole(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{60, 15}, {80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := costModel(t, f, 3)
			m, _ = update(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			m, cmd := update(m, assemblePCmd(m.subj.bug)())
			for _, p := range plansIn(cmd) {
				m, _ = update(m, p)
			}
			text := checkFrame(t, m, sz[0], sz[1], f.proj, []string{"  path  ", "▸ Start ◂"})
			if !regexp.MustCompile(`at most\s+\d+(m|s|h)`).MatchString(text) {
				t.Errorf("the critical path does not say its figure:\n%s", text)
			}
			goldenScreen(t, m, f.proj)
		})
	}
}
