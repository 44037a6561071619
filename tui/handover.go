package tui

import (
	"io"
	"os/exec"
	"time"

	tea "charm.land/bubbletea/v2"
)

// minHandover is the least time a program given the terminal holds it
// (see handover).
const minHandover = 250 * time.Millisecond

// handover is a program given the terminal (an editor, a pager): it runs
// and returns no sooner than minHandover after it started.
//
// Bubble Tea v2.1.1 stops its renderer by telling the renderer's goroutine
// to end, and that goroutine stops the frame ticker itself, a moment
// later; taking the terminal back restarts the same ticker. A program that
// exits before that goroutine ran (an editor script that returns at once,
// on a loaded machine) lets the old goroutine stop the restarted ticker,
// and moot never draws again: a blank screen until it is killed. Holding
// the terminal a quarter of a second lets the old goroutine end first; a
// person in an editor or a pager never notices it.
type handover struct{ cmd *exec.Cmd }

// Run runs the program and waits out the rest of minHandover.
func (h handover) Run() error {
	start := time.Now()
	err := h.cmd.Run()
	if rest := minHandover - time.Since(start); rest > 0 {
		time.Sleep(rest)
	}
	return err
}

// SetStdin gives the program the terminal's input unless it has its own.
func (h handover) SetStdin(r io.Reader) {
	if h.cmd.Stdin == nil {
		h.cmd.Stdin = r
	}
}

// SetStdout gives the program the terminal's output unless it has its own.
func (h handover) SetStdout(w io.Writer) {
	if h.cmd.Stdout == nil {
		h.cmd.Stdout = w
	}
}

// SetStderr gives the program the terminal's error output unless it has
// its own.
func (h handover) SetStderr(w io.Writer) {
	if h.cmd.Stderr == nil {
		h.cmd.Stderr = w
	}
}

// handOver gives c the terminal until it exits; done turns its error into
// the message moot gets back.
func handOver(c *exec.Cmd, done tea.ExecCallback) tea.Cmd {
	return tea.Exec(handover{cmd: c}, done)
}
