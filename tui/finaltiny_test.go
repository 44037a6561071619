package tui

import (
	"fmt"
	"strings"
	"testing"
)

// TestFinalTabSaysWhereTheAnswerIsAtAnySize: a finished debate's Final
// tab keeps, under its figures, the answer's first line and "… enter
// shows it all" at 60×15 (and shorter) as at 80×24: on a short window the figures give
// way, never the way to the answer.
func TestFinalTabSaysWhereTheAnswerIsAtAnySize(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{60, 15}, {60, 12}, {60, 10}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := loadBrowser(t, f, sz[0], sz[1])
			m = keys(t, m, "j", "j", "j", "enter")
			if debateOf(m) != "BUG-20260702-Q2R8" || activeTab(m) != "Final" {
				t.Fatalf("not on Q2R8's Final tab:\n%s", screenText(m, f.proj))
			}
			m = pump(t, m, nil)
			text := checkFrame(t, m, sz[0], sz[1], f.proj, []string{"Winner", "enter shows it all"})
			if strings.Contains(text, "rendering…") {
				t.Errorf("the answer is not rendered yet:\n%s", text)
			}
		})
	}
}

// TestFinalTabOfAPendingDecisionSaysWhereTheAnswerIsAt60x15: a result
// waiting for a human decision adds its line to the Final tab's figures;
// at 60×15 the answer's first line and "… enter shows it all" still show.
func TestFinalTabOfAPendingDecisionSaysWhereTheAnswerIsAt60x15(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	makePending(t, f)
	m := keys(t, loadBrowser(t, f, 60, 15), "enter") // the pending decision is listed first
	if debateOf(m) != "BUG-20260702-Q2R8" || activeTab(m) != "Final" {
		t.Fatalf("not on Q2R8's Final tab:\n%s", screenText(m, f.proj))
	}
	m = pump(t, m, nil)
	checkFrame(t, m, 60, 15, f.proj, []string{"A human decision is pending", "enter shows it all"})
}
