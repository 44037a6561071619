package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// plannedReview is a review running now whose plan counts 7 calls: 3
// started, 1 of them finished.
func plannedReview(t *testing.T, f *fixture) *reviewFixture {
	t.Helper()
	rf := newReviewFixture(t, filepath.Join(f.proj, review.ReviewsDir), fixedNow, review.State{
		Contract: envelope.Contract{Intent: "planned"}, Lenses: lenses("defect", "security", "tests"), Status: review.StatusRunning,
	})
	lockHeldBy(t, rf.f.Dir, os.Getpid())
	rf.event(t, engine.Event{Type: engine.EvSetup, Path: rf.f.Dir, Time: fixedNow})
	rf.event(t, engine.Event{Type: engine.EvPlan, Calls: 7, Tokens: 9000, CostUnknown: true, Time: fixedNow})
	rf.event(t, engine.Event{Type: engine.EvRoundStarted, Round: 1, Time: fixedNow})
	for _, l := range []string{"defect", "security", "tests"} {
		rf.event(t, engine.Event{Type: engine.EvCallStarted, Round: 1, SolverID: l, Engine: "juror-a", Attempt: 1, Time: fixedNow})
	}
	rf.event(t, engine.Event{Type: engine.EvCallFinished, Round: 1, SolverID: "defect", Engine: "juror-a", Attempt: 1, Status: "ok", CostUnknown: true, Time: fixedNow})
	return rf
}

// TestReviewHeaderCountsCallsAsEveryProtocol: a review's header says
// the calls figure a debate's says — the calls finished over its plan's
// count (the plan its engine logged), those in flight apart — in the
// same words at 140, 80 and 60 columns, and its money reads "unknown"
// from the start when its plan priced no engine (never "—" then
// "unknown", never $0.00).
func TestReviewHeaderCountsCallsAsEveryProtocol(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{140, 45}, {80, 24}, {60, 15}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			rf := plannedReview(t, f)
			m := sized(t, f.options(), sz[0], sz[1])
			m = openReviewRow(t, m, rf.f.ID)
			text := checkFrame(t, m, sz[0], sz[1], f.proj, nil)
			head, _, _ := strings.Cut(text, "\n")
			want := map[int]string{140: " · calls 1/7 (2 running) · ", 80: " · 1/7 (2 running) · ", 60: " · 1/7 "}[sz[0]]
			if !strings.Contains(head+" ", want) {
				t.Errorf("the header's calls figure, want %q:\n%s", want, head)
			}
			if !strings.Contains(head, " · unknown") {
				t.Errorf("the header's money, want unknown (its plan priced no engine):\n%s", head)
			}
			goldenScreen(t, m, f.proj)
		})
	}
}
