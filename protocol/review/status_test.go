package review

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// writeLock writes the lock file a review's writer leaves, naming pid on
// host (no file when pid is 0).
func writeLock(t *testing.T, dir string, pid int, host string) {
	t.Helper()
	if pid == 0 {
		return
	}
	b, err := json.Marshal(bugfolder.LockInfo{PID: pid, Host: host})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, bugfolder.LockFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestListedStatus: a review whose record says running is running while
// the process its lock names runs (or runs on another host, which cannot
// be asked), and interrupted once that process was killed or when no lock
// is left; any other status is the record's. List reports the same.
func TestListedStatus(t *testing.T) {
	host, _ := os.Hostname()
	tests := []struct {
		name   string
		status string
		pid    int
		host   string
		want   string
	}{
		{"running, its writer alive", StatusRunning, os.Getpid(), host, StatusRunning},
		{"running, its writer killed with kill -9", StatusRunning, testutil.DeadPID(t), host, StatusInterrupted},
		{"running, no lock left", StatusRunning, 0, "", StatusInterrupted},
		{"running, written on another host", StatusRunning, testutil.DeadPID(t), "elsewhere.example", StatusRunning},
		{"passed, its writer gone", StatusPassed, testutil.DeadPID(t), host, StatusPassed},
		{"stalled, no lock", StatusStalled, 0, "", StatusStalled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			f, err := NewFolder(parent, fixedTime)
			if err != nil {
				t.Fatal(err)
			}
			st := &State{ID: f.ID, Protocol: Name, Status: tc.status}
			if err := f.WriteJSON(StateFile, st); err != nil {
				t.Fatal(err)
			}
			writeLock(t, f.Dir, tc.pid, tc.host)
			if got := ListedStatus(st, f.Dir); got != tc.want {
				t.Errorf("ListedStatus = %q, want %q", got, tc.want)
			}
			states, _, errs := List([]string{parent})
			if len(errs) > 0 || len(states) != 1 {
				t.Fatalf("List: %d states, errors %v", len(states), errs)
			}
			if states[0].Status != tc.want {
				t.Errorf("List says %q, want %q", states[0].Status, tc.want)
			}
		})
	}
}
