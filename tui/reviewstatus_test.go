package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/internal/testutil"
	"github.com/reversa/moot/protocol/review"
)

// lockHeldBy writes the lock file a review's writer leaves in dir, naming
// pid on this host.
func lockHeldBy(t *testing.T, dir string, pid int) {
	t.Helper()
	host, _ := os.Hostname()
	b, err := json.Marshal(bugfolder.LockInfo{PID: pid, Host: host, Command: "moot review"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, bugfolder.LockFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestReviewRowKilledIsInterrupted: a review whose record says running is
// shown running by the browser's row and the review view while the process
// its lock names runs, and interrupted — as moot list says it — once that
// process was killed with kill -9 (its record still says running).
func TestReviewRowKilledIsInterrupted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		pid  func(t *testing.T) int
		want string
	}{
		{"its writer runs", func(*testing.T) int { return os.Getpid() }, review.StatusRunning},
		{"its writer was killed", func(t *testing.T) int { return testutil.DeadPID(t) }, review.StatusInterrupted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			rf := newReviewFixture(t, filepath.Join(f.proj, review.ReviewsDir), fixedNow, review.State{
				Contract: envelope.Contract{Intent: "killed or not"}, Lenses: lenses("defect"), Status: review.StatusRunning,
				Rounds: []review.RoundRecord{{Round: 1}},
			})
			lockHeldBy(t, rf.f.Dir, tc.pid(t))
			m := sized(t, f.options(), 140, 45)
			var line string
			for _, l := range strings.Split(screenText(m, f.proj), "\n") {
				if strings.Contains(l, rf.f.ID) {
					line = l
				}
			}
			if !strings.Contains(line, tc.want) {
				t.Errorf("the review's row says %q, want %s", line, tc.want)
			}
			m = openReviewRow(t, m, rf.f.ID)
			if text := screenText(m, f.proj); !strings.Contains(text, "review "+rf.f.ID+" · "+tc.want) {
				t.Errorf("the review view does not say %s:\n%s", tc.want, text)
			}
		})
	}
}
