package tui

import (
	"strings"
	"testing"
)

// TestFinding13b_16QuitWhileDecisionWaits: q while a decision menu is
// stepped aside asks to leave (it does not reopen the menu); "keep
// watching" and esc put the decision back where it was; leaving stops the
// run, resumable. The footer of a decision put aside lists q.
func TestFinding13b_16QuitWhileDecisionWaits(t *testing.T) {
	f := newFixture(t)
	for _, size := range [][2]int{{80, 24}, {60, 15}} {
		m, b := liveModel(t, f, size[0], size[1])
		m = pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), make(chan quorumAnswer, 1)}})
		m = keys(t, m, "esc")
		if last := lastLine(screenText(m, f.proj)); !strings.Contains(last, "q quit") || !strings.Contains(last, "? keys") {
			t.Errorf("%v: footer of a decision put aside %q lacks ? and q", size, last)
		}
		m = keys(t, m, "q")
		if m.menu == nil || m.menu.kind != menuQuit || m.menuHidden {
			t.Fatalf("%v: q opened %+v (hidden %v), want the leave question", size, m.menu, m.menuHidden)
		}
		if text := screenText(m, f.proj); !strings.Contains(text, "Leave this debate?") {
			t.Errorf("%v: the leave question is not on screen:\n%s", size, text)
		}
		m = keys(t, m, "esc")
		if m.menu == nil || m.menu.kind != menuQuorum || !m.menuHidden {
			t.Fatalf("%v: esc on the leave question left %+v (hidden %v), want the decision aside", size, m.menu, m.menuHidden)
		}
		m = keys(t, m, "q", "up", "enter") // "Leave it, resumable"
		if !m.out.Left || b.ctx.Err() == nil {
			t.Errorf("%v: leaving did not stop the run (left %v)", size, m.out.Left)
		}
		if m.menu != nil {
			t.Errorf("%v: a menu is still open after leaving: %v", size, m.menu.kind)
		}
	}
}
