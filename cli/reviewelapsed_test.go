package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// TestListShowsAReviewsElapsedTime: moot list gives a review moot ran the
// time its event log spans (ELAPSED, and elapsed_seconds in --json), as
// it gives a debate's; a review without a log says — (null).
func TestListShowsAReviewsElapsedTime(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 7, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		events []time.Duration
		want   string
	}{
		{"a review that ran 42s", []time.Duration{0, 40 * time.Second, 42 * time.Second}, "42s"},
		{"a review without a log", nil, "—"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			f, err := review.NewFolder(filepath.Join(dir, review.ReviewsDir), start)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.WriteJSON(review.StateFile, review.State{Status: review.StatusPassed, Calls: 2, StartedAt: start}); err != nil {
				t.Fatal(err)
			}
			for i, at := range tc.events {
				typ := engine.EvCallFinished
				if i == 0 {
					typ = engine.EvSetup
				}
				if err := f.Append(engine.Event{Type: typ, Time: start.Add(at), Round: 1, SolverID: "defect", Role: review.Role}); err != nil {
					t.Fatal(err)
				}
			}
			ents, errs := reviewEntries(&env{cwd: dir, getenv: func(string) string { return "" }}, nil)
			if len(errs) > 0 || len(ents) != 1 {
				t.Fatalf("entries %+v, errors %v", ents, errs)
			}
			var out bytes.Buffer
			printList(&env{stdout: &out}, ents)
			lines := strings.Split(out.String(), "\n")
			head, row := lines[0], lines[1]
			at := strings.Index(head, "ELAPSED")
			if at < 0 || len(row) < at || !strings.HasPrefix(strings.TrimLeft(string([]rune(row)[len([]rune(head[:at])):]), " "), tc.want) {
				t.Errorf("ELAPSED should read %q:\n%s", tc.want, out.String())
			}
		})
	}
}
