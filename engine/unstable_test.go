package engine

import (
	"fmt"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestUnstableWinnersReadsTheReason: the labels each order gave are read
// back from the reason the check writes, in either language; any other
// judge failure has none.
func TestUnstableWinnersReadsTheReason(t *testing.T) {
	tests := []struct {
		name, reason string
		in, rev      string
		ok           bool
	}{
		{"pt", fmt.Sprintf(unstableReason, bugfolder.PT.LabelName("A"), bugfolder.PT.LabelName("C"), "juiz"), "A", "C", true},
		{"en", fmt.Sprintf(unstableReason, bugfolder.EN.LabelName("B"), bugfolder.EN.LabelName("A"), "judge"), "B", "A", true},
		{"other failure", "order-swap check failed: the judge chose Proposta A, and its second call ended timeout", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, rev, ok := UnstableWinners(tc.reason)
			if in != tc.in || rev != tc.rev || ok != tc.ok {
				t.Errorf("UnstableWinners(%q) = %q, %q, %v; want %q, %q, %v", tc.reason, in, rev, ok, tc.in, tc.rev, tc.ok)
			}
		})
	}
}
