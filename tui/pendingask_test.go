package tui

import (
	"strings"
	"testing"
)

// TestNewDebateOnAPendingResultAsksFirst: n on a bug whose result waits
// for a human decision opens no wizard at once: it asks (decide now,
// archive and set up, cancel). Cancel leaves the list as it was; archive
// goes on to the wizard; deciding opens the result with the decision form.
// Golden at 80×24.
func TestNewDebateOnAPendingResultAsksFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	makePending(t, f)
	m := loadBrowser(t, f, 80, 24) // the pending row is listed first, selected
	asked := keys(t, m, "n")
	if !strings.Contains(screenText(asked, f.proj), "Decide it now") || drawnScreen(asked) != "browser" {
		t.Fatalf("n on a pending result did not ask (screen %d):\n%s", asked.screen, screenText(asked, f.proj))
	}
	t.Run("question", func(t *testing.T) { goldenScreen(t, asked, f.proj) })
	s := screenText(asked, f.proj)
	for _, want := range []string{"waits for a human decision", "spec-gap", "Decide it now", "Archive it", "d on its ◈ row, or moot decide", "BUG-20260702-Q2R8, still records the decision"} {
		if !strings.Contains(s, want) {
			t.Errorf("the question lacks %q:\n%s", want, s)
		}
	}
	if c := keys(t, asked, "esc"); strings.Contains(screenText(c, f.proj), "Decide it now") || drawnScreen(c) != "browser" {
		t.Errorf("esc: ask %v screen %d, want the list", c.dlg.ask != nil, c.screen)
	}
	if a := keys(t, asked, "down", "enter"); strings.Contains(screenText(a, f.proj), "Decide it now") || drawnScreen(a) != "wizard" {
		t.Errorf("archive: screen %d, want the wizard", a.screen)
	}
	d := keys(t, asked, "enter")
	if strings.Contains(screenText(d, f.proj), "Decide it now") || drawnScreen(d) != "debate" || !menuDrawn(d, menuDecide) {
		t.Errorf("decide now: screen %d menu %v, want the debate with the decision form:\n%s", d.screen, d.dlg.menu, screenText(d, f.proj))
	}
}

// TestNewOnAPendingRowReadsTheResultInACommand: n on a row whose result
// waits for a decision reads that result off the UI goroutine: the key
// press itself opens nothing, the command it returns reads the folder, and
// the question opens when that read arrives.
func TestNewOnAPendingRowReadsTheResultInACommand(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	makePending(t, f)
	m := loadBrowser(t, f, 80, 24)
	nm, cmd := m.Update(keyMsg("n"))
	m = nm.(Model)
	if s := screenText(m, f.proj); strings.Contains(s, "Decide it now") {
		t.Fatalf("the key press read the result itself (the question is already open):\n%s", s)
	}
	for _, msg := range run(cmd) {
		m = pump(t, m, msg)
	}
	if s := screenText(m, f.proj); !strings.Contains(s, "Decide it now") {
		t.Errorf("the read's answer did not open the question:\n%s", s)
	}
}
