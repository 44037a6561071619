package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestResumeWithoutTheEnginesFileSaysToPassIt: a debate started with
// --config naming an engine only that file has, killed mid-run, resumed
// without --config: exit 2 naming the missing engine and how to resume
// (the same --config again), nothing called; with it, the debate finishes.
func TestResumeWithoutTheEnginesFileSaysToPassIt(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=400"}
	other := killedRunOnItsOwnEngines(t, p, "1")
	r := p.moot("resume", "7", "--headless", "--yes").mustExit(t, 2)
	if !strings.Contains(r.stderr, `no engine named "slow"`) || !strings.Contains(r.stderr, "--config FILE") {
		t.Errorf("resume without the engines file does not say to pass it:\n%s", r.stderr)
	}
	p.moot("resume", "7", "--headless", "--yes", "--config", other).mustExit(t, 0)
}

// killedRunOnItsOwnEngines starts a spec debate of bug 7 (-n 2, -r rounds)
// with --config naming an engine only that file has ("slow"), kills it once
// a call started and returns the file.
func killedRunOnItsOwnEngines(t *testing.T, p *project, rounds string) string {
	t.Helper()
	other := filepath.Join(t.TempDir(), "slow.yaml")
	if err := os.WriteFile(other, []byte("engines:\n  slow:\n    kind: command\n    command: [\""+fakeBin+"\", \"--role\", \"{role}\"]\n    env_passthrough: [\"FAKE_*\"]\n    external: false\n    timeout: 20s\ndefaults:\n  solver: slow\n  judge: slow\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := p.cmd(ctx, "run", "7", "--mode", "spec", "-n", "2", "-r", rounds, "--yes", "--headless", "--config", other)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a call to start", 30*time.Second, func() bool {
		b, _ := os.ReadFile(filepath.Join(p.debate(), "eventos.jsonl"))
		return strings.Contains(string(b), `"call_started"`)
	})
	_ = c.Process.Kill()
	_ = c.Wait()
	// the killed moot's engines may still hold its folder a moment (a
	// browser then shows the debate as run by another process, and r
	// watches it): wait until the list no longer says it runs
	waitFor(t, "the killed run's folder to be let go", 30*time.Second, func() bool {
		var rows []struct {
			BugID  string `json:"bug_id"`
			Status string `json:"status"`
		}
		r := p.moot("list", "--json")
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rows) != nil {
			return false
		}
		for _, row := range rows {
			if strings.Contains(row.BugID, "A7K3") {
				return row.Status != "running"
			}
		}
		return false
	})
	return other
}
