package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestEstimateLearnsOverTenDebates: an engine whose answers are about
// three times what moot expects (varying from debate to debate) is first estimated 200 % short; each finished
// debate records its estimate and actuals in the final answer's
// cost_accuracy, and after ten of them the plan's estimate (learned from
// the ten) is within ±20 % of what the next debate spends.
func TestEstimateLearnsOverTenDebates(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	// answers about three times moot's expected sizes (1500 a solver, 2500
	// the judge), varying ±20 % from debate to debate as a model's do
	sizes := []int{4500, 3600, 5400, 4200, 4800, 3900, 5100, 4500, 4050, 4950, 4800}
	args := []string{"7", "--mode", "diagnosis", "-n", "2", "-r", "0"}
	var first, last, firstAll, lastAll float64
	for i := 0; i <= 10; i++ {
		p.Plan = fmt.Sprintf("solver=pad:%d,judge=pad:%d", sizes[i], sizes[i]*5/3)
		r := p.moot(append([]string{"plan", "--json"}, args...)...).mustExit(t, 0)
		var plan struct {
			Engines []engine.EngineEstimate `json:"engines"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil || len(plan.Engines) != 1 {
			t.Fatalf("plan: %v\n%s", err, r.stdout)
		}
		est := plan.Engines[0]
		if want := min(i, engine.LearnWindow); est.LearnedFrom != want {
			t.Errorf("debate %d: the plan learned from %d past debates, want %d", i+1, est.LearnedFrom, want)
		}
		p.moot(append([]string{"run", "--yes", "--headless"}, args...)...).mustExit(t, 0)
		var acc *bugfolder.CostAccuracy
		for _, c := range p.readDebate().Final.CostAccuracy {
			if c.Engine == "zeta-engine" {
				acc = &c
			}
		}
		if acc == nil || acc.EstTokensOut != est.Output || acc.EstTokensIn != est.Input || acc.ActTokensOut == 0 || acc.EstUSD <= 0 || acc.ActUSD <= 0 || acc.BaseOut == 0 {
			t.Fatalf("debate %d: cost_accuracy %+v, plan %+v", i+1, acc, est)
		}
		out := engine.EstimateError(acc.EstTokensOut, acc.ActTokensOut)
		all := engine.EstimateError(acc.EstTokens, acc.ActTokens)
		if i == 0 {
			first, firstAll = out, all
		}
		t.Logf("debate %2d: answers estimated %d, actual %d (%+.1f %%)", i+1, acc.EstTokensOut, acc.ActTokensOut, out*100)
		last, lastAll = out, all
	}
	if r := p.moot(append([]string{"plan"}, args...)...).mustExit(t, 0); !strings.Contains(r.stdout, "zeta-engine: estimate learned from 10 past debate(s)") {
		t.Errorf("the plan does not say what it learned from:\n%s", r.stdout)
	}
	t.Logf("answer-token estimate error: first debate %+.0f %%, after ten recorded debates %+.1f %%", first*100, last*100)
	t.Logf("all-token (in + out) estimate error: first debate %+.0f %%, after ten recorded debates %+.1f %%", firstAll*100, lastAll*100)
	if math.Abs(first-2) > 0.2 {
		t.Errorf("the first estimate's error is %.0f %%, want ≈200 %%", first*100)
	}
	if math.Abs(last) > 0.2 || math.Abs(lastAll) > 0.2 {
		t.Errorf("after ten debates the error is %.1f %% (answers), %.1f %% (all): not within ±20 %%", last*100, lastAll*100)
	}
}
