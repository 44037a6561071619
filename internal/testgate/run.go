package testgate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// tailMax caps the output kept from one run for a check's detail.
const tailMax = 1500

// outcome is how one run of the test command ended.
type outcome struct {
	passed   bool
	timedOut bool
	code     int    // exit code (-1 when killed or never started)
	tail     string // the end of its output (stdout and stderr), capped
}

// describe says how the run ended, for a check's detail.
func (o outcome) describe(timeout time.Duration) string {
	switch {
	case o.timedOut:
		return fmt.Sprintf("timed out after %s (its process group was killed)", timeout)
	case o.passed:
		return "passed"
	}
	return fmt.Sprintf("failed (exit %d)", o.code)
}

// runCmd runs cmd with sh -c in dir, in its own process group, with the
// timeout: on expiry (or ctx's end) the whole group is killed, and once
// the shell has ended whatever is left of its group (a background child)
// is killed too, and any process that carries the run's marker in its
// environment (one that left the group with setsid). Output goes to a
// file in scratch (no pipe a grandchild could hold open); its tail is
// kept.
func runCmd(ctx context.Context, dir, scratch, cmd string, timeout time.Duration) (outcome, error) {
	out, err := os.CreateTemp(scratch, "output-*")
	if err != nil {
		return outcome{}, fmt.Errorf("test output file in %s: %w", scratch, err)
	}
	defer out.Close()
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := exec.CommandContext(rctx, "sh", "-c", cmd)
	c.Dir = dir
	// a marker every descendant inherits, to find one that left the group
	tag := runTag()
	c.Env = append(os.Environ(), tag)
	c.Stdout, c.Stderr = out, out
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = 5 * time.Second
	err = c.Run()
	if c.Process != nil {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
	killTagged(tag, 5*time.Second)
	// paths in the worktree read as the project's own (the temporary
	// folder is no business of a juror's, and may name the user)
	t := strings.ReplaceAll(tail(out), dir+string(os.PathSeparator), "")
	o := outcome{code: -1, tail: strings.ReplaceAll(t, dir, ".")}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return o, fmt.Errorf("test command %q in %s: %w", cmd, dir, ctx.Err())
	case err == nil:
		o.passed, o.code = true, 0
	case rctx.Err() != nil:
		o.timedOut = true
	case errors.As(err, &exit):
		o.code = exit.ExitCode()
	default:
		return o, fmt.Errorf("test command %q in %s: %w", cmd, dir, err)
	}
	return o, nil
}

// runTag returns a marker unique to one run: MOOT_TESTGATE_RUN=<random>.
func runTag() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "MOOT_TESTGATE_RUN=" + hex.EncodeToString(b[:])
}

// tail reads the last tailMax bytes written to f, cut at a line start.
func tail(f *os.File) string {
	info, err := f.Stat()
	if err != nil {
		return ""
	}
	from := max(0, info.Size()-tailMax)
	b := make([]byte, info.Size()-from)
	if _, err := f.ReadAt(b, from); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	s := string(b)
	if from > 0 {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
		s = "…\n" + s
	}
	return strings.TrimRight(strings.ToValidUTF8(s, "?"), "\n")
}
