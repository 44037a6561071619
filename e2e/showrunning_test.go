package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestShowOfARunningDebateCountsItsCallsInFlightApart: moot show on a
// debate another moot runs says the live header's calls figure — finished
// over the plan's count, those in flight apart ("0/7 (3 running)") — and
// says nothing of running once the debate has ended.
func TestShowOfARunningDebateCountsItsCallsInFlightApart(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	hold := filepath.Join(t.TempDir(), "answer")
	p.env = append(p.env, "FAKE_HOLD="+hold)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	run := p.cmd(ctx, "run", "7", "--mode", "diagnosis", "-r", "1", "--yes", "--headless")
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = run.Wait() }()
	released := false
	defer func() {
		if !released {
			_ = os.WriteFile(hold, nil, 0o600)
		}
	}()
	var said string
	waitFor(t, "moot show to count round 0's three calls as running", time.Minute, func() bool {
		said = p.moot("show", "7").stdout
		return strings.Contains(said, "0/7 (3 running), as the live header counts them; 3 model calls started")
	})
	_ = os.WriteFile(hold, nil, 0o600)
	released = true
	if err := run.Wait(); err != nil {
		t.Fatalf("the run: %v", err)
	}
	if s := p.moot("show", "7").mustExit(t, 0).stdout; strings.Contains(s, "running") || !strings.Contains(s, "7 model calls (retried") {
		t.Errorf("after the run, show still counts calls running or miscounts:\n%s", s)
	}
}
