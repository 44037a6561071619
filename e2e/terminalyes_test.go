package e2e

import (
	"testing"
)

// TestYesOnATerminalSkipsTheCostScreen: moot run with every setup flag
// and --yes on a terminal starts at once, as headless does: the live view
// runs to the end with no key pressed (the cost screen waited for Start).
func TestYesOnATerminalSkipsTheCostScreen(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	m := startTmux(t, p, 80, 24, "run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes")
	m.wait("the live view, ended, with no key pressed", "done", "Final")
	m.send("q")
	if code := m.exitCode(); code != "0" {
		t.Fatalf("exit %s, want 0:\n%s", code, m.screen())
	}
}
