package bugfolder

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCallsCutInFlightCountTheSameWay (g13, 3): a call cut in flight counts
// as made whichever way the run stopped — q's "leave it" (its raw output
// kept, no call_finished) and kill -9 (no raw output, no call_finished)
// — and an attempt a kill cut is counted again when the resumed session
// makes it under the same number.
func TestCallsCutInFlightCountTheSameWay(t *testing.T) {
	ids := []string{"agente-1", "agente-2", "agente-3"}
	// round 0: 3 solvers; round 1: 3 solvers and a critic, of which the
	// last `cut` calls are in flight when the run stops
	type call struct {
		k  int
		id string
	}
	var calls []call
	for _, id := range ids {
		calls = append(calls, call{0, id})
	}
	for _, id := range append(append([]string{}, ids...), "critic-1") {
		calls = append(calls, call{1, id})
	}
	build := func(t *testing.T, cut int, rawForCut bool) *Debate {
		dir := t.TempDir()
		evs := []Event{{Type: EvSetup}}
		for i, c := range calls {
			evs = append(evs, Event{Type: EvCallStarted, Round: c.k, SolverID: c.id, Attempt: 1})
			inFlight := i >= len(calls)-cut
			if !inFlight {
				evs = append(evs, Event{Type: EvCallFinished, Round: c.k, SolverID: c.id, Attempt: 1})
			}
			if !inFlight || rawForCut {
				raw := filepath.Join(dir, PT.RoundDir(c.k), "raw")
				if err := os.MkdirAll(raw, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(raw, fmt.Sprintf("%s.attempt-1.stdout", c.id)), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		return &Debate{Dir: dir, Lang: PT, Events: evs}
	}
	left := build(t, 2, true)    // q → "Leave it, resumable": the cut calls' raw output is kept
	killed := build(t, 2, false) // kill -9: it is not
	if l, k := CountModelCalls(left), CountModelCalls(killed); l != 7 || k != 7 {
		t.Errorf("7 calls started, 5 finished, 2 cut: left %d, killed %d; want 7 both ways", l, k)
	}
	// the killed run resumed: the two cut calls are made again as attempt 1
	killed.Events = append(killed.Events, Event{Type: EvResumed},
		Event{Type: EvCallStarted, Round: 1, SolverID: "agente-3", Attempt: 1},
		Event{Type: EvCallStarted, Round: 1, SolverID: "critic-1", Attempt: 1})
	if n := CountModelCalls(killed); n != 9 {
		t.Errorf("after resume: %d calls, want 9 (the 2 cut and their 2 new attempts)", n)
	}
}
