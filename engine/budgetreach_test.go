package engine

import "testing"

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
