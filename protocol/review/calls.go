package review

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Calls is a review's call count, those running included: its record's
// (State.Calls, counted as calls end) or, when more, its event log's
// (bugfolder.LoggedCalls, the debate header's rule). The review view's
// header, its browser row and moot list --json all say this one count.
func Calls(st *State, evs []engine.Event) int {
	return max(st.Calls, bugfolder.LoggedCalls(evs))
}

// ReadEvents reads the event log of the review in dir (none when it is
// not written yet); a torn last line (a write under way) is skipped.
func ReadEvents(dir string) ([]engine.Event, error) {
	p := filepath.Join(dir, EventsFile)
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	defer f.Close()
	var out []engine.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var e engine.Event
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			out = append(out, e)
		}
	}
	return out, nil
}

// planned fills a record's plan figures from its event log: the plan's
// count of calls (the calls made before the latest plan's session, plus
// what that plan counts; the calls made once the review has ended, not
// interrupted), the calls in flight while it runs, and whether the plan
// priced every engine.
func planned(r *engine.Record, evs []engine.Event) {
	r.Planned, r.PlanUnpriced = bugfolder.PlannedCalls(evs)
	if r.Running {
		r.InFlight = min(len(bugfolder.OpenCalls(evs)), r.Calls)
	}
	switch {
	case r.Planned == 0: // no plan logged: nothing to count against
	case r.Running:
		r.Planned = max(r.Planned, r.Calls)
	case r.Status == StatusInterrupted: // what is left is still planned: a resume makes it
		r.Planned = max(r.Planned, r.Calls)
	default:
		r.Planned = r.Calls // ended: the calls it made
	}
}
