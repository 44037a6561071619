package engine_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/debate"
)

// TestSwapIntoJudgeFamilyIsRefused: the quorum menu's swap may not put a
// failed solver on an engine of the judge's family (the judge family
// rule, as the plan applies it): the refusal is said and the menu asked
// again; with --allow-same-family the swap is made.
func TestSwapIntoJudgeFamilyIsRefused(t *testing.T) {
	for _, allow := range []bool{false, true} {
		f := newFixture(t, "7")
		f.cfg.Engines["b"].FamilyDecl = "acme"
		f.cfg.Engines["ext"].FamilyDecl = "acme"
		f.engines["a"].answer = func(req harness.Request, n int) *harness.Result {
			if req.Round == 0 && req.SolverID != "agente-1" {
				return failed(bugfolder.StatusTimeout)
			}
			return nil
		}
		s := &sup{quorum: []QuorumDecision{{Choice: QuorumSwap, SolverID: "agente-2", Engine: "b"}, {Choice: QuorumCancel}}}
		setup := f.setup(3, 1)
		setup.Judge, setup.AllowSameFamily = "ext", allow
		res, err := Start(context.Background(), setup, f.opts(s))
		if err != nil {
			t.Fatal(err)
		}
		warned := false
		for _, e := range f.events {
			warned = warned || (e.Type == EvWarning && strings.Contains(e.Text, "acme family"))
		}
		if allow {
			if f.engines["b"].count("agente-2", 0) != 1 || warned {
				t.Errorf("--allow-same-family: the swap was not made (b called %d times, warned %v)", f.engines["b"].count("agente-2", 0), warned)
			}
			continue
		}
		if res.Outcome != OutcomeCancelled || f.engines["b"].count("agente-2", 0) != 0 {
			t.Fatalf("a solver was swapped into the judge's family: %+v, b called %d times", res, f.engines["b"].count("agente-2", 0))
		}
		for _, e := range s.asked[0].Engines {
			if e == "b" || e == "ext" {
				t.Errorf("the quorum menu offers %s, of the judge's family: %v", e, s.asked[0].Engines)
			}
		}
		if !warned || len(s.asked) != 2 {
			t.Errorf("the refusal is not said, or the menu not asked again (asked %d)", len(s.asked))
		}
	}
}

// TestBudgetHeldJudgeNeverStarted: when the budget holds back the judge's
// call, nothing says it began: no judge_started, no judge reading_order.
func TestBudgetHeldJudgeNeverStarted(t *testing.T) {
	// round 0's calls fit the cap as estimated, then answer four times
	// bigger than planned: the judge's call no longer fits
	f := newFixture(t, "7")
	sized(f, 4*debate.ExpectedSolverTokens)
	// the three solvers answer only once all three have begun, so each
	// was let through on the estimates (what the cap is sized for), never
	// on the spend of a sibling that finished first
	var started sync.WaitGroup
	started.Add(3)
	for _, e := range f.engines {
		sizedAnswer := e.answer
		e.answer = func(req harness.Request, n int) *harness.Result {
			if req.Role != string(bugfolder.RoleJudge) && req.Round == 0 && n == 1 {
				started.Done()
				waitGroupOrDeadline(t, &started, 10*time.Second)
			}
			return sizedAnswer(req, n)
		}
	}
	s := f.setup(3, 0)
	s.Budget = Budget{MaxTokens: 3*3600 + 10}
	bs := &budgetSup{}
	res, err := Start(context.Background(), s, f.opts(bs))
	if err != nil || res.Outcome != OutcomeWaiting || len(bs.asked) == 0 || !bs.asked[len(bs.asked)-1].Final {
		t.Fatalf("the judge was not held back by the budget: %v %+v (asked %+v)", err, res, bs.asked)
	}
	for _, e := range f.events {
		if e.Type == EvJudgeStarted || e.Type == EvReadingOrder && e.SolverID == "juiz" {
			t.Errorf("a judge call the budget held back is logged as begun: %+v", e)
		}
	}
}

// waitGroupOrDeadline waits for wg, failing the test (and going on) when
// it is not done by the deadline, so a broken gate fails instead of hanging.
func waitGroupOrDeadline(t *testing.T, wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Errorf("round 0's solvers did not all begin within %s", d)
	}
}
