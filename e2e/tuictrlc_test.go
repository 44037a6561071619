package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestTUICtrlCAtAHandRunJudgeMenu: ctrl+c while a hand-run debate's
// judge menu waits (moot resume on the sample's M8N2) leaves it as ctrl+c
// leaves any run: exit 3 and the line that says how to continue, not the
// raw `moot: context canceled` and exit 1.
func TestTUICtrlCAtAHandRunJudgeMenu(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	m := startTmux(t, p, 100, 30, "resume", "6")
	m.wait("the judge menu", "Choose the winner myself")
	m.send("C-c")
	if code := m.exitCode(); code != "3" {
		t.Fatalf("exit %s, want 3 (left, resumable); the screen:\n%s", code, m.screen())
	}
	out := m.joined()
	if strings.Contains(out, "context canceled") || !strings.Contains(out, "left while it ran: everything is kept; `moot resume BUG-20260705-M8N2` continues it") {
		t.Errorf("ctrl+c at the judge menu did not say how to continue it:\n%s", out)
	}
}

// TestTUIStopSignalWithNothingRunning: a stop signal to the browser with
// no run in flight closes it quietly with the signal's exit code (3,
// docs/cli.md): it said "stopped by a signal: everything is kept; moot
// resume continues it", as if something had been interrupted.
func TestTUIStopSignalWithNothingRunning(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	m := startTmux(t, p, 100, 30)
	m.wait("the browser", "A7K3", "enter open")
	if err := syscall.Kill(m.mootPID(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := m.exitCode(); code != "3" {
		t.Fatalf("exit %s, want 3 (a signal); the screen:\n%s", code, m.screen())
	}
	if out := m.joined(); strings.Contains(out, "moot:") || strings.Contains(out, "moot resume") {
		t.Errorf("a signal with nothing running printed something:\n%s", out)
	}
}

// joined is the pane with the lines the terminal wrapped joined.
func (m *tmuxMoot) joined() string {
	out, _ := exec.Command("tmux", "-L", m.sock, "capture-pane", "-p", "-J").Output()
	return string(out)
}

// mootPID is the moot process the pane's shell runs.
func (m *tmuxMoot) mootPID() int {
	m.t.Helper()
	out, err := exec.Command("tmux", "-L", m.sock, "list-panes", "-F", "#{pane_pid}").Output()
	if err != nil {
		m.t.Fatal(err)
	}
	shell, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		m.t.Fatal(err)
	}
	for _, pid := range descendants(shell) {
		if exe, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe")); err == nil && exe == mootBin {
			return pid
		}
	}
	m.t.Fatalf("no moot process under the pane's shell %d", shell)
	return 0
}
