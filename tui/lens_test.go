package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A debate's frozen lenses label its panes and show in the browser's
// preview.
func TestLensesShown(t *testing.T) {
	f := newFixture(t)
	p := filepath.Join(f.proj, q2r8, "problema.md")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	raw = []byte(strings.Replace(string(raw), "---\n", "---\nlenses:\n  agente-1:\n    name: security\n    text: attacker first\n  agente-2:\n    name: cfo\n    text: unit economics\n", 1))
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	m := loadBrowser(t, f, 140, 40)
	for i, vi := range m.browser.visible {
		if r := m.browser.rows[vi]; r.sum != nil && r.sum.Bug.ID == "BUG-20260702-Q2R8" {
			m.browser.cursor = i
		}
	}
	m = pump(t, m, nil)
	if s := screenText(m, f.proj); !strings.Contains(s, "lenses: agente-1 security · agente-2 cfo") {
		t.Errorf("the browser's preview does not name the lenses:\n%s", s)
	}
	m = keys(t, m, "enter")
	m.tab = 1 // round 0
	s := screenText(m, f.proj)
	if !strings.Contains(s, "agente-1 [security]") || !strings.Contains(s, "agente-2 [cfo]") {
		t.Errorf("the panes are not labelled by lens:\n%s", s)
	}
}
