package cli

import (
	"strings"
	"testing"
)

// TestShowNamesWhatEscalatedACouncil: `moot show` says what escalated a
// council as the council recorded it (a value at risk over the threshold
// escalates a council that converged), and a final without recorded
// reasons points at the final answer rather than guess a low convergence.
func TestShowNamesWhatEscalatedACouncil(t *testing.T) {
	for _, tc := range []struct {
		flag    string
		reasons []string
		want    string
	}{
		{"escalate", []string{"value at risk of 200000 (> 100000)"}, "escalate: value at risk of 200000 (> 100000) (see resposta-final.md)"},
		{"escalate", nil, "escalate: the reasons are in resposta-final.md"},
		{"human", []string{"synthesis confidence of 40 % (< 70 %)"}, "human: synthesis confidence of 40 % (< 70 %) (see resposta-final.md)"},
		{"none", nil, "none: convergence and synthesis confidence at 70 % or more, no critical divergence"},
	} {
		got := councilEscalation(tc.flag, tc.reasons)
		if got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.flag, tc.reasons, got, tc.want)
		}
		if len(tc.reasons) > 0 && strings.Contains(got, "convergence or") {
			t.Errorf("%s: names a cause the council did not record: %q", tc.flag, got)
		}
	}
}
