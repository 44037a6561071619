package bugfolder

import "testing"

// TestDecisionWordSaysAnArchivedPendingDecision: a listing's decision
// word names a decision still pending on an archived result beside the
// latest result's own, and the closure's "not taken" over both.
func TestDecisionWordSaysAnArchivedPendingDecision(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		decision         string
		closed, archived bool
		want             string
	}{
		{"", false, false, ""},
		{"", false, true, "pending (archived)"},
		{"approve", false, true, "approve, pending (archived)"},
		{DecisionPending, false, true, "pending (and archived)"},
		{DecisionPending, true, false, DecisionNotTaken},
	} {
		if got := DecisionWord(tc.decision, tc.closed, tc.archived); got != tc.want {
			t.Errorf("DecisionWord(%q, %v, %v) = %q, want %q", tc.decision, tc.closed, tc.archived, got, tc.want)
		}
	}
}
