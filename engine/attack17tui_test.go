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

// TestBudgetReachReadsNow: a reached budget's figures move as the calls
// in flight finish while the question waits; Current reads them.
func TestBudgetReachReadsNow(t *testing.T) {
	b := &budget{cap: Budget{MaxTokens: 1000}}
	res, _, ok := b.admit(600, 0, 0, 0)
	if !ok {
		t.Fatal("the first call was not admitted")
	}
	_, reach, ok := b.admit(600, 0, 0, 0)
	if ok || reach.SpentTokens != 0 || reach.FlightTokens != 600 {
		t.Fatalf("reach %+v, admitted %v", reach, ok)
	}
	res.done(700, 0.01)
	if cur := reach.Current(); cur.SpentTokens != 700 || cur.FlightTokens != 0 || cur.SpentUSD != 0.01 || cur.NextTokens != 600 {
		t.Errorf("current %+v: want 700 spent, none in flight, the next call as asked", cur)
	}
}
