package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/reversa/moot/engine"
)

// A retry chosen at the quorum menu runs the failed calls again; when
// they fail the same way (a recorded debate replays its failure) the same
// menu comes back. So the retry says itself: the footer names the calls
// retried as they start, their panes show them running, and the menu that
// comes back says which attempt failed again.

// retryShown is how long the footer says a retry started.
const retryShown = 6 * time.Second

// noteRetrying notes in the footer that the failed calls of q run again.
func (f *frame) noteRetrying(q engine.QuorumLoss) {
	var ids []string
	for _, c := range q.Failed {
		ids = append(ids, c.SolverID)
	}
	f.toast.text, f.toast.until = fmt.Sprintf("retrying %s in round %d: %s the running %s", strings.Join(ids, ", "), q.Round,
		plural(len(ids), "its pane shows", "their panes show"), plural(len(ids), "call", "calls")), f.clock().Add(retryShown)
}

// retriedLoss is q with each failed call that was a retry saying so
// ("attempt 2 failed again: …"), read from its pane's attempt.
func (d *debateState) retriedLoss(q engine.QuorumLoss) engine.QuorumLoss {
	if d.deb == nil {
		return q
	}
	var rd *round
	for _, r := range d.deb.rounds {
		if r.k == q.Round {
			rd = r
		}
	}
	if rd == nil {
		return q
	}
	failed := append([]engine.FailedCall(nil), q.Failed...)
	for i, f := range failed {
		if p := rd.pane(f.SolverID); p != nil && p.attempt > 1 {
			failed[i].LastError = fmt.Sprintf("attempt %d failed again: %s", p.attempt, f.LastError)
		}
	}
	q.Failed = failed
	return q
}
