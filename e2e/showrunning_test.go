package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// heldRun starts a headless debate of bug 7 (R=1) whose engines answer
// only once release is called (FAKE_HOLD): its calls stay in flight until
// then. The run is released and waited for when the test ends.
func heldRun(t *testing.T, p *project) (run *exec.Cmd, release func()) {
	t.Helper()
	hold := filepath.Join(t.TempDir(), "answer")
	p.env = append(p.env, "FAKE_HOLD="+hold)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	run = p.cmd(ctx, "run", "7", "--mode", "diagnosis", "-r", "1", "--yes", "--headless")
	if err := run.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	release = func() { _ = os.WriteFile(hold, nil, 0o600) }
	t.Cleanup(func() {
		release()
		_ = run.Wait()
		cancel()
	})
	return run, release
}

// TestShowOfARunningDebateCountsItsCallsInFlightApart: moot show on a
// debate another moot runs says the live header's calls figure — finished
// over the plan's count, those in flight apart ("0/7 (3 running)") — and
// says nothing of running once the debate has ended.
func TestShowOfARunningDebateCountsItsCallsInFlightApart(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	run, release := heldRun(t, p)
	var said string
	waitFor(t, "moot show to count round 0's three calls as running", time.Minute, func() bool {
		said = p.moot("show", "7").stdout
		return strings.Contains(said, "0/7 (3 running), as the live header counts them; 3 model calls started")
	})
	release()
	if err := run.Wait(); err != nil {
		t.Fatalf("the run: %v", err)
	}
	if s := p.moot("show", "7").mustExit(t, 0).stdout; strings.Contains(s, "running") || !strings.Contains(s, "7 model calls (retried") {
		t.Errorf("after the run, show still counts calls running or miscounts:\n%s", s)
	}
}
