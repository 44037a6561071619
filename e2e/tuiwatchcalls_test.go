package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTUIWatcherCountsCallsAsTheRunnerDoes: at 80×24 and 140×45, a debate
// another moot runs (headless, N=2, R=1: 5 calls planned), watched from
// the browser, shows at every moment the plan's count as its calls
// figure's denominator and never more finished than planned, and ends at
// 5/5, the figure the running moot's own view shows.
func TestTUIWatcherCountsCallsAsTheRunnerDoes(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			p := newProject(t)
			p.env = []string{"FAKE_DELAY_MS=700"}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			run := p.cmd(ctx, "run", "7", "--mode", "diagnosis", "-n", "2", "-r", "1", "--yes", "--headless")
			if err := run.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- run.Wait() }()
			m := startTmux(t, p, sz.w, sz.h)
			m.wait("the browser", "A7K3")
			m.send("/", "A7K3", "Enter")
			m.wait("the run listed, running", "1 of 6 match", "running")
			m.send("Enter")
			m.wait("the watched debate's view", "┃")
			figure := regexp.MustCompile(`\b(\d+)/(\d+)\b`)
			seen := map[string]bool{}
			for end := time.Now().Add(90 * time.Second); ; time.Sleep(100 * time.Millisecond) {
				s := m.screen()
				head, _, _ := strings.Cut(s, "\n")
				if f := figure.FindStringSubmatch(head); f != nil {
					if k, _ := strconv.Atoi(f[1]); f[2] != "5" || k > 5 {
						t.Fatalf("the watcher's calls figure is not k/5 (the plan's count, the calls finished): %q", head)
					}
					seen[f[0]] = true
				}
				if strings.Contains(head, "5/5") && strings.Contains(s, "done") {
					break
				}
				if time.Now().After(end) {
					t.Fatalf("the watched debate did not end at 5/5; the screen:\n%s", s)
				}
			}
			if err := <-done; err != nil {
				t.Fatalf("the running moot: %v", err)
			}
			if len(seen) < 2 {
				t.Errorf("the figure was seen only at %v: the test watched no run in progress", seen)
			}
		})
	}
}
