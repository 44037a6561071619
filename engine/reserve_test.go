package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/debate"
)

// sized makes every engine of f answer with about tokens tokens (the judge
// its expected answer) and report exactly what it read and wrote.
func sized(f *fixture, tokens int) {
	for _, e := range f.engines {
		e.answer = func(req harness.Request, n int) *harness.Result {
			body := validBody(req)
			if req.Role != string(bugfolder.RoleJudge) {
				body += "\n" + strings.Repeat("palavra ", tokens*4/8)
			}
			out := bugfolder.EstimateTokens(len(body))
			if req.Role == string(bugfolder.RoleJudge) {
				out = debate.ExpectedJudgeTokens
			}
			return &harness.Result{Body: body, TokensIn: bugfolder.EstimateTokens(len(req.Prompt)), TokensOut: out}
		}
	}
}

// TestFinalReserveFromRealAnswers: the room kept for the final step is
// estimated from the answers the judge would read, not the plan's
// expected sizes: with answers four times bigger than planned, stopping
// at the cap still pays the judge (a labelled answer, never a stop for
// want of room); with answers far smaller, a cap the whole debate fits
// in is not refused for the plan's bigger guess.
func TestFinalReserveFromRealAnswers(t *testing.T) {
	planned := debate.ExpectedSolverTokens
	var capped func(t *testing.T, tokens, cap int) (Outcome, int, bool)
	keepAt := func(t *testing.T, tokens int, frac float64) (Outcome, int, bool) {
		full := newFixture(t, "7")
		sized(full, tokens)
		if res, err := Start(context.Background(), full.setup(3, 2), full.opts(&sup{})); err != nil || res.Outcome != OutcomeDone {
			t.Fatalf("uncapped: %v %+v", err, res)
		}
		total, _ := full.spent()
		return capped(t, tokens, int(float64(total)*frac))
	}
	capped = func(t *testing.T, tokens, cap int) (Outcome, int, bool) {
		f := newFixture(t, "7")
		sized(f, tokens)
		s := f.setup(3, 2)
		s.Budget = Budget{MaxTokens: cap}
		bs := &budgetSup{answers: []BudgetDecision{{Choice: BudgetStop}}}
		res, err := Start(context.Background(), s, f.opts(bs))
		if err != nil {
			t.Fatal(err)
		}
		if len(bs.asked) == 0 {
			return res.Outcome, 0, false
		}
		got, _ := f.spent()
		if got > s.Budget.MaxTokens {
			t.Errorf("spent %d over a cap of %d", got, s.Budget.MaxTokens)
		}
		cut := res.Outcome == OutcomeDone && f.debate(t).Final != nil && f.debate(t).Final.BudgetCut
		if !cut {
			t.Logf("outcome %s: %s; asked %+v", res.Outcome, res.Reason, bs.asked)
		}
		return res.Outcome, bs.asked[0].KeepTokens, cut
	}
	fracs := []float64{0.8, 0.9, 0.95}
	t.Run("answers much bigger than planned", func(t *testing.T) {
		for _, frac := range fracs {
			out, keep, cut := keepAt(t, 4*planned, frac)
			if !cut {
				t.Errorf("cap %.0f%% of the debate: stop could not pay the judge (outcome %s, kept ≈%d tokens)", frac*100, out, keep)
			}
		}
	})
	t.Run("answers much smaller than planned", func(t *testing.T) {
		// room for round 0's three calls as estimated, not for a judge
		// guessed from three answers of the planned size on top
		f := newFixture(t, "7")
		sized(f, planned/20)
		s := f.setup(3, 2)
		s.Budget = Budget{MaxTokens: 1}
		bs := &budgetSup{}
		if _, err := Start(context.Background(), s, f.opts(bs)); err != nil || len(bs.asked) == 0 {
			t.Fatalf("probe: %v, asked %d", err, len(bs.asked))
		}
		cap := 3*bs.asked[0].NextTokens + 2000
		out, keep, _ := capped(t, planned/20, cap)
		if out != OutcomeDone {
			t.Errorf("cap %d (round 0 as estimated and 2000 tokens): stopped %s, kept ≈%d tokens for the judge", cap, out, keep)
		}
	})
}
