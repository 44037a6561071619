package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// The cap holds against verbose answers: every call is admitted on its
// worst case (the engine's max answer, max_output_tokens), the calls in
// flight counted at theirs, and an answer that runs past the max is held
// to it. Solvers that answer ≈3000 tokens where the max is 700 never take
// the spend past the cap, in round 0's parallel calls or after; the plan
// states the worst case.
func TestBudgetCapHoldsAgainstVerboseAnswers(t *testing.T) {
	t.Parallel()
	for _, cap := range []int{9000, 15000, 24000} {
		t.Run(fmt.Sprint(cap), func(t *testing.T) {
			p := newProject(t)
			cfg := readFile(t, filepath.Join(p.dir, "_reversa_bugs", "moot.yaml"))
			p.writeConfig(strings.Replace(cfg, "    model: zeta-1\n", "    model: zeta-1\n    max_output_tokens: 700\n", 1))
			p.Plan = "solver=pad:3000"
			plan := p.moot("plan", "7", "--mode", "diagnosis", "--max-tokens", fmt.Sprint(cap)).mustExit(t, 0)
			if !strings.Contains(plan.stdout, "if every answer runs to its engine's max answer") {
				t.Errorf("the plan does not state the worst case:\n%s", plan.stdout)
			}
			r := p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--max-tokens", fmt.Sprint(cap), "--on-budget", "stop")
			if r.code != 0 && r.code != 4 {
				t.Fatalf("exit %d:\n%s", r.code, r.stderr)
			}
			if got := p.spent(); got > cap {
				t.Errorf("cap %d: spent %d tokens\n%s", cap, got, r.stderr)
			}
			if !strings.Contains(r.stderr, "ran past engine zeta-engine's max answer of 700 tokens") {
				t.Errorf("the cut answers are not said:\n%s", r.stderr)
			}
		})
	}
}

// An engine without a max answer size cannot be bounded: the plan says so
// under a cap, naming it.
func TestBudgetNamesEnginesWithoutAMaxAnswer(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	r := p.moot("plan", "7", "--mode", "diagnosis", "--max-tokens", "50000").mustExit(t, 0)
	if !strings.Contains(r.stdout, "engine(s) zeta-engine state no max answer size") {
		t.Errorf("no warning:\n%s", r.stdout)
	}
}

// An engine that states no max answer size is held, under a cap, to the
// answer its call was admitted on (its expected answer): solvers of such
// an engine answering ≈60,000 words never take the spend past the cap,
// the plan warns and each cut answer is said.
func TestBudgetCapHoldsForAnEngineWithoutAMaxAnswer(t *testing.T) {
	t.Parallel()
	const cap = 40000
	p := newProject(t)
	p.Plan = "solver=pad:60000"
	r := p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--max-tokens", fmt.Sprint(cap), "--on-budget", "stop")
	if r.code != 0 && r.code != 4 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if got := p.spent(); got > cap {
		t.Errorf("cap %d: spent %d tokens\n%s", cap, got, r.stderr)
	}
	if !strings.Contains(r.stderr, "states no max answer (max_output_tokens), so under the budget cap its answer is held to its expected size") {
		t.Errorf("the cut answers are not said:\n%s", r.stderr)
	}
}
