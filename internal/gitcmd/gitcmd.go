// Package gitcmd runs git for moot's review (the envelope and the test
// gate): one place that bounds a call, keeps git's own words for the
// error and never runs the repository's hooks.
package gitcmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// Timeout bounds each git call: a wedged git must not hang a review.
const Timeout = 2 * time.Minute

// Output runs git with args in dir and returns its stdout. Hooks are off
// (core.hooksPath=/dev/null): a worktree moot adds must not run the
// project's post-checkout. The error names the command and dir and
// carries git's last line on stderr.
func Output(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return Input(ctx, dir, nil, args...)
}

// Input is Output with stdin.
func Input(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.hooksPath=/dev/null"}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		if msg == "" {
			msg = err.Error()
		}
		return out, fmt.Errorf("git %s in %s: %s", args[0], dir, msg)
	}
	return out, nil
}
