package bugfolder

import "testing"

// TestOpenCallsAreTheLatestSessionsUnfinishedCalls: a call is in flight
// when the latest session started it and has not finished it; an earlier
// session's (cut by a kill) is not, and an attempt started twice counts
// once.
func TestOpenCallsAreTheLatestSessionsUnfinishedCalls(t *testing.T) {
	t.Parallel()
	start := func(r int, id string, a int) Event {
		return Event{Type: EvCallStarted, Round: r, SolverID: id, Attempt: a}
	}
	end := func(r int, id string, a int) Event {
		return Event{Type: EvCallFinished, Round: r, SolverID: id, Attempt: a}
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want []string
	}{
		{"none started", []Event{{Type: EvSetup}}, nil},
		{"two of three finished", []Event{{Type: EvSetup}, start(0, "agente-1", 1), start(0, "agente-2", 1), start(0, "agente-3", 1),
			end(0, "agente-2", 1), end(0, "agente-1", 1)}, []string{"agente-3"}},
		{"a killed session's calls are not in flight", []Event{{Type: EvSetup}, start(0, "agente-1", 1), start(0, "agente-2", 1),
			{Type: EvResumed}, start(0, "agente-2", 1)}, []string{"agente-2"}},
		{"a retry is the next attempt", []Event{{Type: EvSetup}, start(0, "agente-1", 1), end(0, "agente-1", 1), start(0, "agente-1", 2)}, []string{"agente-1"}},
		{"started twice, counted once", []Event{{Type: EvSetup}, start(1, "agente-1", 1), start(1, "agente-1", 1)}, []string{"agente-1"}},
		{"the judge's call", []Event{{Type: EvSetup}, start(2, "juiz", 1)}, []string{"juiz"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := OpenCalls(tc.evs)
			var ids []string
			for _, ev := range got {
				ids = append(ids, ev.SolverID)
			}
			if len(ids) != len(tc.want) {
				t.Fatalf("open calls %v, want %v", ids, tc.want)
			}
			for i := range ids {
				if ids[i] != tc.want[i] {
					t.Fatalf("open calls %v, want %v", ids, tc.want)
				}
			}
		})
	}
}

// TestPlannedCallsCountsThePlanAfterTheCallsMadeBefore: the calls figure's
// denominator is the latest plan's count plus the calls made before its
// session (a resume plans what is left), and 0 with no plan logged.
func TestPlannedCallsCountsThePlanAfterTheCallsMadeBefore(t *testing.T) {
	t.Parallel()
	start := func(id string) Event { return Event{Type: EvCallStarted, SolverID: id, Attempt: 1} }
	for _, tc := range []struct {
		name     string
		evs      []Event
		want     int
		unpriced bool
	}{
		{"no plan", []Event{{Type: EvSetup}, start("agente-1")}, 0, false},
		{"one session", []Event{{Type: EvSetup}, {Type: EvPlan, Calls: 10}, start("agente-1")}, 10, false},
		{"a resume plans what is left", []Event{{Type: EvSetup}, {Type: EvPlan, Calls: 10}, start("agente-1"), start("agente-2"),
			{Type: EvResumed}, {Type: EvPlan, Calls: 9, CostUnknown: true}}, 11, true},
	} {
		got, unpriced := PlannedCalls(tc.evs)
		if got != tc.want || unpriced != tc.unpriced {
			t.Errorf("%s: %d (unpriced %v), want %d (%v)", tc.name, got, unpriced, tc.want, tc.unpriced)
		}
	}
}
