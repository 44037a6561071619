package review

import (
	"testing"

	"github.com/reversa/moot/engine"
)

// TestRecordCountsItsCallsAgainstItsPlan: a review's record carries the
// calls figure's denominator from its event log — the calls made before
// its latest session plus what that session's plan counts, never fewer
// than made — and the calls in flight while it runs; once it ended the
// count is the calls it made; a plan that priced no engine says so.
func TestRecordCountsItsCallsAgainstItsPlan(t *testing.T) {
	t.Parallel()
	call := func(typ engine.EventType, lens string) engine.Event {
		return engine.Event{Type: typ, Round: 1, SolverID: lens, Attempt: 1}
	}
	first := []engine.Event{{Type: engine.EvSetup}, {Type: engine.EvPlan, Calls: 7, CostUnknown: true}, {Type: engine.EvRoundStarted, Round: 1},
		call(engine.EvCallStarted, "defect"), call(engine.EvCallStarted, "security"), call(engine.EvCallStarted, "tests"), call(engine.EvCallFinished, "defect")}
	resumed := append(append([]engine.Event{}, first...), engine.Event{Type: engine.EvResumed}, engine.Event{Type: engine.EvPlan, Calls: 2},
		call(engine.EvCallStarted, "security"))
	for _, tc := range []struct {
		name              string
		evs               []engine.Event
		status            string
		calls             int
		planned, inFlight int
		unpriced          bool
	}{
		{"running", first, StatusRunning, 3, 7, 2, true},
		{"interrupted", first, StatusInterrupted, 3, 7, 0, true},
		{"resumed", resumed, StatusRunning, 4, 5, 1, false},
		{"ended", first, StatusPassed, 3, 3, 0, true},
		{"no plan logged", first[2:], StatusRunning, 3, 0, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := engine.Record{Status: tc.status, Running: tc.status == StatusRunning, Calls: tc.calls}
			planned(&r, tc.evs)
			if r.Planned != tc.planned || r.InFlight != tc.inFlight || r.PlanUnpriced != tc.unpriced {
				t.Errorf("planned %d, in flight %d, unpriced %v; want %d, %d, %v", r.Planned, r.InFlight, r.PlanUnpriced, tc.planned, tc.inFlight, tc.unpriced)
			}
		})
	}
}
