package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/tui"
)

// TestLeftDebateAdviceRepeatsTheEnginesFile: the `moot resume` advice
// printed when the user leaves a running debate names the engines file the
// command was given (absolute), so pasting it resumes with the same
// engines; without --config it names the bug alone.
func TestLeftDebateAdviceRepeatsTheEnginesFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ config, want string }{
		{"slow/moot.yaml", "`moot resume BUG-1 --config /home/u/proj/slow/moot.yaml` continues it"},
		{"", "`moot resume BUG-1` continues it"},
	} {
		var out bytes.Buffer
		e := &env{stdout: &out, stderr: &bytes.Buffer{}, cwd: "/home/u/proj", resumeConfig: tc.config}
		_ = exitForOutcome(e, nil, tui.Outcome{Left: true, BugID: "BUG-1", Result: &engine.Result{}})
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("--config %q: said %q, want %q", tc.config, out.String(), tc.want)
		}
	}
}
