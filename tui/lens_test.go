package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// A debate's frozen lenses label its panes and show in the browser's
// preview.
func TestLensesShown(t *testing.T) {
	t.Parallel()
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
	m = selectRow(t, m, "BUG-20260702-Q2R8")
	m = pump(t, m, nil)
	if s := screenText(m, f.proj); !strings.Contains(s, "lenses: agente-1 security · agente-2 cfo") {
		t.Errorf("the browser's preview does not name the lenses:\n%s", s)
	}
	m = keys(t, m, "enter")
	m.dv.tab = 1 // round 0
	s := screenText(m, f.proj)
	if !strings.Contains(s, "agente-1 [security]") || !strings.Contains(s, "agente-2 [cfo]") {
		t.Errorf("the panes are not labelled by lens:\n%s", s)
	}
}

// --lens survives the wizard: one lens for all follows N; lenses given one
// each stay on their solvers.
func TestCarryLenses(t *testing.T) {
	t.Parallel()
	sec, cfo := bugfolder.Lens{Name: "security", Text: "s"}, bugfolder.Lens{Name: "cfo", Text: "c"}
	for _, tc := range []struct {
		given []bugfolder.Lens
		n     int
		want  []string
	}{
		{nil, 3, nil},
		{[]bugfolder.Lens{sec}, 3, []string{"security", "security", "security"}},
		{[]bugfolder.Lens{sec, cfo}, 2, []string{"security", "cfo"}},
		{[]bugfolder.Lens{sec, cfo}, 3, []string{"security", "cfo", ""}},
		{[]bugfolder.Lens{sec, cfo, sec}, 2, []string{"security", "cfo"}},
	} {
		var got []string
		for _, l := range carryLenses(tc.given, tc.n) {
			got = append(got, l.Name)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("carry %v to %d: %v", tc.given, tc.n, got)
		}
	}
	f := newFixture(t)
	bug := f.bug(t, "7")
	w := newWizard(bug, f.cfg, nil, engine.Setup{Lenses: []bugfolder.Lens{sec}}, wizardChoices{})
	if s := w.setup(bug); len(s.Lenses) != s.N || s.N != 3 || s.Lenses[2] != sec {
		t.Errorf("the wizard's setup drops the preset lenses: %+v", s.Lenses)
	}
}
