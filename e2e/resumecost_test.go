package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestResumeOnATerminalAsksBeforeSpending: moot resume of a debate killed
// mid-run, on a terminal, first says how many calls are left and calls
// nothing until Resume is chosen; Cancel leaves with exit 3 and nothing
// called; Resume runs it to the end.
func TestResumeOnATerminalAsksBeforeSpending(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=400"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := p.cmd(ctx, "run", "7", "--mode", "diagnosis", "-n", "2", "-r", "1", "--yes", "--headless")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(p.debate(), "eventos.jsonl")
	waitFor(t, "a call to start", 30*time.Second, func() bool {
		b, _ := os.ReadFile(log)
		return strings.Contains(string(b), `"call_started"`)
	})
	_ = c.Process.Kill()
	_ = c.Wait()
	p.env = nil
	before, _ := os.ReadFile(log)

	m := startTmux(t, p, 80, 24, "resume", "7")
	s := m.wait("the resume question", "Resume BUG-20260715-A7K3?", "more call(s)")
	if !strings.Contains(s, "Cancel: nothing is called") {
		t.Errorf("no way out named:\n%s", s)
	}
	m.send("Down", "Enter")
	if code := m.exitCode(); code != "3" {
		t.Errorf("cancel: exit %s, want 3:\n%s", code, m.screen())
	}
	if after, _ := os.ReadFile(log); string(after) != string(before) {
		t.Errorf("cancel wrote to the event log:\n%s", after[len(before):])
	}

	r := startTmux(t, p, 80, 24, "resume", "7")
	r.wait("the resume question", "Resume BUG-20260715-A7K3?")
	r.send("Enter")
	r.wait("the resumed debate, ended", "done", "Final")
}
