package tui

import (
	"fmt"
	"strings"
	"testing"
)

// TestFinalTabWrappedFigureKeepsItsIndent: on the Final tab a figure's
// line that wraps ("  in its first of 2 debates here: …", under its
// engine's line) goes on under its own indent at 60×15, 80×24 and
// 140×45: its continuation never starts at the margin as if it were a
// figure of its own.
func TestFinalTabWrappedFigureKeepsItsIndent(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{60, 15}, {80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := loadBrowser(t, f, sz[0], sz[1])
			m = keys(t, m, "j", "j", "j", "enter")
			m = pump(t, m, nil)
			if debateOf(m) != "BUG-20260702-Q2R8" || activeTab(m) != "Final" {
				t.Fatalf("not on Q2R8's Final tab:\n%s", screenText(m, f.proj))
			}
			m = pump(t, m, trendMsg{dir: m.dv.deb.dir, rows: []costTrend{{engine: "scripted-engine-with-a-long-name", now: -0.29, first: -0.61, debates: 2, est: 6600, act: 4700}}})
			text := checkFrame(t, m, sz[0], sz[1], f.proj, []string{"in its first of 2 debates here", "enter shows it all"})
			lines := strings.Split(text, "\n")
			for i, l := range lines {
				if !strings.HasPrefix(l, "  in its first of") {
					continue
				}
				if next := lines[i+1]; !strings.Contains(l, "learns from the last") && !strings.HasPrefix(next, "  ") {
					t.Errorf("the wrapped line lost its indent:\n%s\n%s", l, next)
				}
			}
			goldenScreen(t, m, f.proj)
		})
	}
}
