package engine

import (
	"fmt"

	"github.com/reversa/moot/bugfolder"
)

// interruptedCalls reads an event log for the calls a session left cut
// off: a call started (a retry's attempt 2 included) with no finished
// record, a failed attempt logged as getting its automatic retry that
// never came, or a quorum decision (retry, swap, new timeout) whose call
// never ran. It maps "round/id" to the attempt that was due: a debater
// file with a lower attempt number is the earlier, failed answer, and the
// call is run again on resume, whatever its attempt number.
func interruptedCalls(records []Event) map[string]int {
	due := map[string]int{}
	last := map[string]int{}   // the last finished attempt per call
	lost := map[int][]string{} // round → the failed ids its last quorum_lost named
	for _, ev := range records {
		key := fmt.Sprintf("%d/%s", ev.Round, ev.SolverID)
		switch ev.Type {
		case EvCallStarted:
			due[key] = ev.Attempt
		case EvCallFinished:
			last[key] = ev.Attempt
			if ev.Retrying {
				due[key] = ev.Attempt + 1
			} else {
				delete(due, key)
			}
		case EvQuorumLost:
			lost[ev.Round] = ev.Failed
		case EvDecision:
			if ev.Point != "" && ev.Point != bugfolder.PointQuorum {
				continue
			}
			var ids []string
			switch QuorumChoice(ev.Choice) {
			case QuorumRetry:
				ids = lost[ev.Round]
			case QuorumSwap, QuorumSetTimeout:
				if ev.SolverID != "" {
					ids = []string{ev.SolverID}
				}
			}
			for _, id := range ids {
				k := fmt.Sprintf("%d/%s", ev.Round, id)
				due[k] = max(due[k], last[k]+1)
			}
		}
	}
	return due
}

// cutOff reports whether round k's file f of id is an earlier attempt
// of a call that a session left cut off (interruptedCalls): it has no
// valid answer and is run again.
func cutOff(due map[string]int, k int, id string, f *bugfolder.DebaterFile) bool {
	return f != nil && f.Status != bugfolder.StatusOK && due[fmt.Sprintf("%d/%s", k, id)] > f.Attempt
}
