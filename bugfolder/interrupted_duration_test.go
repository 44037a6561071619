package bugfolder_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// TestKilledRunReadsInterrupted: a moot run killed with SIGKILL
// leaves its lock naming a dead pid; the debate reads "interrupted" in the
// full read (show, TUI) and in the index (list, browser), while one held by
// a live process stays "running".
func TestKilledRunReadsInterrupted(t *testing.T) {
	host, _ := os.Hostname()
	for _, tc := range []struct {
		name string
		pid  int
		want bugfolder.State
	}{
		{"killed holder", testutil.DeadPID(t), bugfolder.StateInterrupted},
		{"live holder", os.Getpid(), bugfolder.StateRunning},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := testutil.CopyTree(t, "sample")
			reg, b, err := bugfolder.Resolve(root, "BUG-20260801-X9Z2")
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(b.Dir, bugfolder.DebateDir)
			log := `{"type":"setup","time":"2026-11-30T10:00:00Z"}` + "\n" + `{"type":"call_started","round":0,"solver_id":"agent-1","role":"solver","time":"2026-11-30T10:00:01Z"}` + "\n"
			if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(log), 0o600); err != nil {
				t.Fatal(err)
			}
			lock, _ := json.Marshal(bugfolder.LockInfo{PID: tc.pid, Host: host, StartedAt: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)})
			if err := os.WriteFile(filepath.Join(dir, bugfolder.LockFile), lock, 0o600); err != nil {
				t.Fatal(err)
			}
			d, err := bugfolder.ReadDebate(dir, bugfolder.EN)
			if err != nil {
				t.Fatal(err)
			}
			if d.State != tc.want {
				t.Errorf("ReadDebate: %s, want %s", d.State, tc.want)
			}
			s, err := bugfolder.IndexBug(reg, bugfolder.BugDir{Dir: b.Dir, Context: b.Context})
			if err != nil {
				t.Fatal(err)
			}
			if s.Latest == nil || s.State != tc.want {
				t.Errorf("IndexBug: %s, want %s", s.State, tc.want)
			}
		})
	}
}

// TestCallDurationIsItsDurationMS: a call's duration read back from
// disk is its duration_ms, not the span of second-resolution timestamps
// (1139 ms is 1.139s, not 2s; a 441 ms call keeps its duration).
func TestCallDurationIsItsDurationMS(t *testing.T) {
	for _, tc := range []struct {
		name, front string
		want        time.Duration
	}{
		{"over a second", "started_at: 2026-11-30T10:00:00Z\nfinished_at: 2026-11-30T10:00:02Z\nduration_ms: 1139\n", 1139 * time.Millisecond},
		{"under a second", "started_at: 2026-11-30T10:00:00Z\nfinished_at: 2026-11-30T10:00:00Z\nduration_ms: 441\n", 441 * time.Millisecond},
		{"no duration_ms", "started_at: 2026-11-30T10:00:00Z\nfinished_at: 2026-11-30T10:00:12Z\n", 12 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := "---\nrole: solver\nstatus: ok\n" + tc.front + "---\nbody\n"
			f, err := bugfolder.ParseDebaterFile("agente-1.md", []byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Duration(); got != tc.want {
				t.Errorf("Duration() = %v, want %v", got, tc.want)
			}
		})
	}
}
