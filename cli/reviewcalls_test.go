package cli

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// TestListJSONCountsRunningReviewCalls: moot list --json counts a
// review's calls as its view and its browser row do (review.Calls): the
// calls the log started and the record does not hold yet included.
func TestListJSONCountsRunningReviewCalls(t *testing.T) {
	for _, tc := range []struct {
		name     string
		recorded int
		started  []string
		want     int
	}{
		{"two started, none recorded", 0, []string{"defect", "security"}, 2},
		{"the record ahead of its log", 5, []string{"defect"}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			f, err := review.NewFolder(filepath.Join(dir, review.ReviewsDir), time.Date(2026, 7, 2, 10, 0, 0, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.WriteJSON(review.StateFile, review.State{Status: review.StatusRunning, Calls: tc.recorded}); err != nil {
				t.Fatal(err)
			}
			for _, l := range tc.started {
				if err := f.Append(engine.Event{Type: engine.EvCallStarted, Round: 1, SolverID: l, Attempt: 1, Role: review.Role}); err != nil {
					t.Fatal(err)
				}
			}
			ents, errs := reviewEntries(&env{cwd: dir, getenv: func(string) string { return "" }}, nil)
			if len(errs) > 0 || len(ents) != 1 {
				t.Fatalf("entries %+v, errors %v", ents, errs)
			}
			if ents[0].Calls != tc.want {
				t.Errorf("calls %d, want %d", ents[0].Calls, tc.want)
			}
		})
	}
}
