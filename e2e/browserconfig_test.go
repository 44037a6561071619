package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBrowserResumesARunStartedWithItsEnginesFile: a debate started with
// --config naming an engine only that file has, killed mid-run: r in the
// browser opened without --config says to pass the file (and how); the
// browser opened with --config (as run takes it) resumes it to the end.
func TestBrowserResumesARunStartedWithItsEnginesFile(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=400"}
	other := filepath.Join(t.TempDir(), "slow.yaml")
	if err := os.WriteFile(other, []byte("engines:\n  slow:\n    kind: command\n    command: [\""+fakeBin+"\", \"--role\", \"{role}\"]\n    env_passthrough: [\"FAKE_*\"]\n    external: false\n    timeout: 20s\ndefaults:\n  solver: slow\n  judge: slow\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := p.cmd(ctx, "run", "7", "--mode", "spec", "-n", "2", "-r", "0", "--yes", "--headless", "--config", other)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a call to start", 30*time.Second, func() bool {
		b, _ := os.ReadFile(filepath.Join(p.debate(), "eventos.jsonl"))
		return strings.Contains(string(b), `"call_started"`)
	})
	_ = c.Process.Kill()
	_ = c.Wait()

	resume := func(m *tmuxMoot) {
		m.wait("the browser", "A7K3")
		m.send("/")
		m.send("-l", "A7K3")
		m.send("Enter")
		m.send("r")
		time.Sleep(300 * time.Millisecond)
		if s := m.settled(); strings.Contains(s, "Resume") && strings.Contains(s, "Cancel") {
			m.send("Enter") // the resume's cost: accepted
		}
	}
	without := startTmux(t, p, 140, 45)
	resume(without)
	without.wait("advice to pass the engines file", `no engine named "slow"`, "--config FILE")

	with := startTmux(t, p, 140, 45, "--config", other)
	resume(with)
	with.waitAny("the debate resumed to its end", "· done", "waits for a human decision", "spec-")
	if s := with.screen(); strings.Contains(s, `no engine named "slow"`) {
		t.Errorf("the browser given --config did not resume with it:\n%s", s)
	}
}
