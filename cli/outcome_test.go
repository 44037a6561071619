package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/tui"
)

// TestExitForOutcome: a wizard or cost screen cancelled before anything
// started exits 3 (docs/cli.md) with a one-line message and no debate path; a
// finished debate names its winner as the TUI does ("proposal A").
func TestExitForOutcome(t *testing.T) {
	for _, c := range []struct {
		name     string
		out      tui.Outcome
		code     int
		msg, say string
	}{
		{"wizard cancelled", tui.Outcome{Cancelled: true}, ExitCancelled, "cancelled before anything started: nothing was written", ""},
		{"done", tui.Outcome{Result: &engine.Result{Outcome: engine.OutcomeDone, Winner: "Proposta A", Calls: 9, Tokens: 1234}}, 0, "", "done: proposal A won · 9 calls"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			e := &env{stdout: &out, stderr: &bytes.Buffer{}}
			err := exitForOutcome(e, nil, c.out)
			var xe *exitError
			code := 0
			if errors.As(err, &xe) {
				code = xe.code
			} else if err != nil {
				t.Fatalf("err %v", err)
			}
			if code != c.code || (c.msg != "" && (err == nil || err.Error() != c.msg)) {
				t.Errorf("code %d err %v, want %d %q", code, err, c.code, c.msg)
			}
			if !strings.Contains(out.String(), c.say) || strings.Contains(out.String(), "Proposta") {
				t.Errorf("said %q, want %q", out.String(), c.say)
			}
		})
	}
}
