package tui

import (
	"errors"
	"os/exec"
	"testing"
	"time"
)

// TestHandoverHoldsTheTerminalPastTheRenderersStop: a program that exits
// at once still holds the terminal minHandover, so Bubble Tea's renderer
// has stopped before it restarts (else a blank screen after an instant
// editor); its exit status comes back unchanged.
func TestHandoverHoldsTheTerminalPastTheRenderersStop(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		prog   string
		failed bool
	}{{"true", false}, {"false", true}} {
		start := time.Now()
		err := handover{cmd: exec.Command(c.prog)}.Run()
		if took := time.Since(start); took < minHandover {
			t.Errorf("%s gave the terminal back after %s, before the renderer's stop (%s)", c.prog, took, minHandover)
		}
		var exit *exec.ExitError
		if failed := errors.As(err, &exit); failed != c.failed {
			t.Errorf("%s: error %v, want failed=%v", c.prog, err, c.failed)
		}
	}
}
