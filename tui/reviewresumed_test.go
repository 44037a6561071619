package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// TestResumedReviewShowsItsLensesCalledAgain: a review cancelled while
// its defect lens sat (the seat cut: hold, "the review was cancelled"),
// then resumed: the review view shows the lens as the resumed session has
// it (waiting, then running once called), never the old cancelled hold;
// the lens that sat before keeps its verdict.
func TestResumedReviewShowsItsLensesCalledAgain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		called bool
		want   string
	}{{"waiting", false, "waiting"}, {"called", true, "running"}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			rf := newReviewFixture(t, filepath.Join(f.proj, review.ReviewsDir), fixedNow, review.State{
				Contract: envelope.Contract{Intent: "resume"}, Lenses: lenses("tests", "defect"), Status: review.StatusRunning,
			})
			lockHeldBy(t, rf.f.Dir, os.Getpid())
			rf.event(t, engine.Event{Type: engine.EvRoundStarted, Round: 1, Time: fixedNow})
			rf.seat(t, review.Seat{Lens: "tests", Round: 1, Outcome: review.OutcomePass, Engine: "juror-a", Family: "anthropic", Findings: []review.Finding{}})
			rf.event(t, engine.Event{Type: engine.EvVerdict, Round: 1, SolverID: "defect", Engine: "juror-a", Choice: "hold", Reason: "the review was cancelled"})
			rf.seat(t, review.Seat{Lens: "defect", Round: 1, Outcome: review.OutcomeHold, Reason: "the review was cancelled", Cut: true, Engine: "juror-a", Family: "anthropic", Findings: []review.Finding{}})
			rf.event(t, engine.Event{Type: engine.EvResumed, Round: 1, Time: fixedNow.Add(time.Minute)})
			if tc.called {
				rf.event(t, engine.Event{Type: engine.EvCallStarted, Round: 1, SolverID: "defect", Engine: "juror-o"})
			}
			m := NewReview(rf.f.Dir, Options{Now: func() time.Time { return fixedNow.Add(2 * time.Minute) }, Records: []engine.RecordKeeper{review.Keeper{}}})
			m = pump(t, m, tea.WindowSizeMsg{Width: 140, Height: 30})
			for _, msg := range run(m.Init()) {
				m = pump(t, m, msg)
			}
			s := screenText(m, f.proj)
			if strings.Contains(s, "cancelled") || !strings.Contains(lineWith(s, "defect"), tc.want) {
				t.Errorf("the resumed defect lens does not read %s:\n%s", tc.want, s)
			}
			if !strings.Contains(lineWith(s, "tests"), "pass") {
				t.Errorf("the lens that sat lost its verdict:\n%s", s)
			}
		})
	}
}
