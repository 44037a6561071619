package tui

import (
	"strings"
	"testing"

	"github.com/reversa/moot/harness"
)

// TestWizardNeverSplitsAnAddress: the engines' note names a server that
// failed its probe; at any width the address reads whole on one line
// (huh alone breaks a line after a '.', "127.0.0.\n1:11434").
func TestWizardNeverSplitsAnAddress(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  scripted: {kind: command, command: [x], external: false}\n  local: {kind: openai, base_url: http://127.0.0.1:11434/v1, external: false}\ndefaults: {solver: scripted, judge: scripted}\n"))
	if err != nil {
		t.Fatal(err)
	}
	const addr = "127.0.0.1:11434"
	for _, w := range []int{60, 80, 140} {
		for pad := range 5 {
			why := "connection refused" + strings.Repeat(" ab", pad) + " by " + addr + " (start-it first)"
			opts := f.options()
			opts.Config = cfg
			opts.Bug = f.bug(t, "7")
			opts.Status = map[string]EngineStatus{"scripted": {OK: true}, "local": {OK: false, Why: why}}
			m := sized(t, opts, w, 40)
			m = keys(t, m, "enter", "enter", "enter", "enter", "enter") // protocol, mode, N, R, one engine for all
			text := checkFrame(t, m, w, 40, f.proj, []string{"local is not offered"})
			if !strings.Contains(text, addr) || !strings.Contains(text, "start-it") {
				t.Fatalf("at %d columns (pad %d) the address or a word is split:\n%s", w, pad, text)
			}
		}
	}
}

// TestWizardFieldDescriptionsKeepNamesWhole: the descriptions of the
// review's and argue's fields name a dotted key and a path; at any width
// each reads whole on one line (huh alone breaks after a '.' or a '/'-
// and '-'-joined word: "review.\nbuilder").
func TestWizardFieldDescriptionsKeepNamesWhole(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pages := []struct {
		name  string
		keys  []string
		names []string
	}{
		{"review", []string{"down", "down", "enter"}, []string{"review.builder", "fix/CHG-*.diff"}},
		{"argue", []string{"down", "enter"}, []string{".moot/personas/NAME.md", ".moot/debates/"}},
	}
	for _, p := range pages {
		for _, w := range []int{60, 80, 140} {
			var asked, reviewed [][]string
			m := sized(t, fiveProtocolOptions(f, t, &asked, &reviewed), w, 40)
			m = keys(t, m, p.keys...)
			text := screenText(m, f.proj)
			for _, name := range p.names {
				if !strings.Contains(text, name) {
					t.Errorf("%s page at %d columns: %q is not whole on one line:\n%s", p.name, w, name, text)
				}
			}
		}
	}
}
