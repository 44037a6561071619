package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/harness"
)

// TestWizardBackKeys: shift+tab and esc go back a field, and from the
// first field of a page to the last field of the page before; esc on the
// very first field cancels; esc on the cost screen goes back to the
// wizard's last page.
func TestWizardBackKeys(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  scripted: {kind: command, command: [x], external: false}\n  other: {kind: command, command: [y], external: false}\ndefaults: {solver: scripted, judge: scripted}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, back := range []string{"shift+tab", "esc"} {
		t.Run(back, func(t *testing.T) {
			opts := f.options()
			opts.Config = cfg
			opts.Bug = f.bug(t, "7")
			m := sized(t, opts, 80, 24)
			m = keys(t, m, "enter", "enter", "enter", "enter") // mode, N, R, strategy
			wizardAsks(t, m, "engines")
			if got := focusedField(m); got != "Engine of the solvers" {
				t.Fatalf("the engines page opens on its first field, the focus is on %q", got)
			}
			m = keys(t, m, back)
			wizardAsks(t, m, "basics")
			if !strings.Contains(screenText(m, f.proj), "Solver engines") {
				t.Errorf("the basics page is not shown:\n%s", screenText(m, f.proj))
			}
			// back through the page's fields to its first
			m = keys(t, m, back, back, back)
			if got := focusedField(m); got != "Mode" {
				t.Fatalf("%s did not reach the first field (Mode), the focus is on %q", back, got)
			}
			if back == "esc" {
				nm, cmd := m.Update(keyMsg("esc"))
				if cmd == nil || cmd() != (tea.QuitMsg{}) {
					t.Errorf("esc on the first field must cancel (the UI was opened on the bug: it quits)")
				}
				if out := nm.(Model).Outcome(); !out.Cancelled || out.Result != nil {
					t.Errorf("a cancelled wizard must say so (exit 3): %+v", out)
				}
				return
			}
			m = keys(t, m, back)
			if back == "shift+tab" && (wizardStage(m) != "basics" || focusedField(m) != "Mode") {
				t.Errorf("shift+tab on the first field stays:\n%s", screenText(m, f.proj))
			}
		})
	}
	// the cost screen: esc is one step back, to the wizard's last page
	opts := f.options()
	opts.Config = cfg
	opts.Bug = f.bug(t, "7")
	m := sized(t, opts, 80, 24)
	m = keys(t, m, "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter")
	if drawnScreen(m) != "cost" {
		t.Fatalf("not the cost screen:\n%s", screenText(m, f.proj))
	}
	nm, _ := m.Update(keyMsg("ctrl+c"))
	if !nm.(Model).Outcome().Cancelled {
		t.Error("ctrl+c on the cost screen, before anything started, is a cancel (exit 3)")
	}
	m = keys(t, m, "esc")
	if wizardStage(m) != "engines" || focusedField(m) != "Timeout per call" {
		t.Errorf("esc on the cost screen goes back to the engines page's last field:\n%s", screenText(m, f.proj))
	}

}
