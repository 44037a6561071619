package tui

import (
	"strings"
	"testing"
)

// TestFinding13b_1TranslatedNamesRead: a hand-run debate written with the
// translated names (problem.md, round-0/agent-1.md) shows its problem and
// its round's answers, not "not written yet" and empty panes.
func TestFinding13b_1TranslatedNamesRead(t *testing.T) {
	f := newFixture(t)
	bug := f.bug(t, "9")
	m := loadBrowser(t, f, 100, 30)
	for i := 0; i < 40 && (m.browser.selected() == nil || m.browser.selected().dir.Dir != bug.Dir); i++ {
		m = keys(t, m, "j")
	}
	m = keys(t, m, "enter")
	if m.deb == nil || m.deb.bugID != bug.ID {
		t.Fatalf("opened %+v", m.deb)
	}
	m = keys(t, m, "shift+tab") // round 0
	text := screenText(m, f.proj)
	if !strings.Contains(text, "agent-1 · ok") || strings.Contains(text, "waiting") {
		t.Errorf("round 0 of a translated debate shows no answer:\n%s", text)
	}
	m = keys(t, m, "shift+tab") // problem
	text = screenText(m, f.proj)
	if strings.Contains(text, "not written yet") || !strings.Contains(text, "Explanatory power") {
		t.Errorf("problem tab of a translated debate:\n%s", text)
	}
}
