package engine_test

import (
	"context"
	"testing"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/debate"
)

// TestResumeRerunsAnInterruptedRetry: a retry call
// (attempt 2) cut off mid-flight — by the quorum menu's retry, a swap, or
// the automatic retry after a transport failure — has no valid answer, so
// `moot resume` runs it again, whatever its attempt number, instead of
// asking the quorum menu again (or going on without it) over the first
// attempt's failed file.
func TestResumeRerunsAnInterruptedRetry(t *testing.T) {
	for _, tc := range []struct {
		name string
		// fail answers the calls of round 0's agente-2 and agente-3 before
		// the interruption; n is the call's number for that solver
		fail func(n int) *harness.Result
		dec  []QuorumDecision
		// left is the failed solver no decision called again: it stays failed
		left string
		// remaining is what the resume's plan counts: the cut-off calls and the judge
		remaining int
		// all: agente-1 fails like the others, so no call of the batch
		// outlives the cut (a finished one would race it)
		all bool
	}{
		{"menu retry", func(n int) *harness.Result { return failed(bugfolder.StatusTimeout) },
			[]QuorumDecision{{Choice: QuorumRetry, By: "human"}}, "", 3, false},
		{"swap", func(n int) *harness.Result { return failed(bugfolder.StatusError) },
			[]QuorumDecision{{Choice: QuorumSwap, SolverID: "agente-2", Engine: "a", By: "human"}}, "agente-3", 2, false},
		{"transport retry", func(n int) *harness.Result {
			return &harness.Result{Failure: harness.FailStart, Err: "connection reset"}
		}, nil, "", 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "7")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
				if req.Round != 0 || req.SolverID == "agente-1" && !tc.all {
					return nil
				}
				if n == 1 {
					return tc.fail(n)
				}
				cancel() // the second attempt is cut off: moot is killed or left
				return &harness.Result{Failure: harness.FailEngine, Err: "interrupted"}
			}
			res, err := Start(ctx, f.setup(3, 0), f.opts(&sup{quorum: tc.dec}))
			if err != nil || res.Outcome != OutcomeCancelled {
				t.Fatalf("start: %v %+v", err, res)
			}
			if n, _ := Remaining(f.debate(t), debate.Protocol{}, false); n != tc.remaining {
				t.Errorf("Remaining = %d calls, want %d", n, tc.remaining)
			}
			f.engines["a"].answer = nil
			s := &sup{} // no decision to give: a menu would stop the resume
			res, err = Resume(context.Background(), f.bug, f.opts(s))
			if err != nil || res.Outcome != OutcomeDone {
				t.Fatalf("resume: %v %+v (quorum asked %d times)", err, res, len(s.asked))
			}
			if len(s.asked) != 0 {
				t.Errorf("the quorum menu was asked again: %+v", s.asked)
			}
			d := f.debate(t)
			for _, fl := range d.Rounds[0].Files {
				if fl.Status != bugfolder.StatusOK && fl.SolverID != tc.left {
					t.Errorf("%s: status %s after resume, want ok (the interrupted retry was not run again)", fl.SolverID, fl.Status)
				}
			}
		})
	}
}

// TestTotalsCountEveryAttemptAcrossSessions: a retried
// call's first attempt was made and paid for, but the retry's file
// replaces it; the debate's tokens and cost — the result's, the final
// answer's, Debate.Totals (the header, list, show) — are the event log's,
// every attempt of every session, and never drop on resume.
func TestTotalsCountEveryAttemptAcrossSessions(t *testing.T) {
	f := newFixture(t, "7")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
		if req.Round != 0 || req.SolverID == "agente-1" {
			return nil
		}
		if n == 1 {
			return &harness.Result{Failure: harness.FailTimeout, Err: "slow", TokensIn: 1000, TokensOut: 7}
		}
		cancel()
		return &harness.Result{Failure: harness.FailEngine, Err: "interrupted"}
	}
	if _, err := Start(ctx, f.setup(3, 0), f.opts(&sup{quorum: []QuorumDecision{{Choice: QuorumRetry, By: "human"}}})); err != nil {
		t.Fatal(err)
	}
	before, _ := f.debate(t).Totals()
	f.engines["a"].answer = nil
	res, err := Resume(context.Background(), f.bug, f.opts(&sup{}))
	if err != nil || res.Outcome != OutcomeDone {
		t.Fatalf("%v %+v", err, res)
	}
	d := f.debate(t)
	logged := 0
	for _, ev := range d.Events {
		if ev.Type == EvCallFinished {
			logged += ev.TokensIn + ev.TokensOut
		}
	}
	after, _ := d.Totals()
	if after != logged || res.Tokens != logged || d.Final.TotalTokens != logged {
		t.Errorf("totals: Debate.Totals %d, result %d, final answer %d; the log records %d", after, res.Tokens, d.Final.TotalTokens, logged)
	}
	if after < before {
		t.Errorf("the total %d after resume is below the %d before it", after, before)
	}
}
