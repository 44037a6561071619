package tui

import (
	"strings"
	"testing"

	"github.com/reversa/moot/harness"
)

// TestProbedEngineIsSaidInWordsNotASecondCheckMark: an engine whose probe
// passed reads "(probe passed)" in the wizard's engine lists, so a line
// holds one ✓ at most (huh's mark of the chosen engine) and the two marks
// no longer mean different things side by side.
func TestProbedEngineIsSaidInWordsNotASecondCheckMark(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  scripted: {kind: command, command: [x], external: false}\ndefaults: {solver: scripted, judge: scripted}\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := f.options()
	opts.Config = cfg
	opts.Bug = f.bug(t, "7")
	opts.Status = map[string]EngineStatus{"scripted": {OK: true}}
	m := sized(t, opts, 110, 40)
	for _, o := range m.wiz.engineOptions() {
		if strings.Contains(o.Key, "✓") || !strings.Contains(o.Key, "(probe passed)") {
			t.Errorf("engine choice %q", o.Key)
		}
	}
}
