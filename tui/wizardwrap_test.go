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
