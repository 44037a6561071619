package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// budgetReasons are the reasons of the log's budget decisions, in order.
func (p *project) budgetReasons() []string {
	var out []string
	for _, e := range p.eventsOf("decision") {
		if e["point"] == "budget" {
			r, _ := e["reason"].(string)
			out = append(out, r)
		}
	}
	return out
}

// TestResumeFlagOverridesItsOwnLimit: a resume
// with --max-tokens lifts the token cap only; the frozen dollar cap stays
// in force (the debate is cut at it) and the log says what changed.
func TestResumeFlagOverridesItsOwnLimit(t *testing.T) {
	t.Parallel()
	full := newProject(t)
	full.Plan = padded
	full.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless").mustExit(t, 0)
	usd := full.spentUSD() * 0.6
	p := newProject(t)
	p.Plan = padded
	p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--max-usd", fmt.Sprintf("%.6f", usd), "--max-tokens", "2000").mustExit(t, 4)
	p.moot("resume", "7", "--yes", "--headless", "--max-tokens", "10000000", "--on-budget", "stop").mustExit(t, 0)
	d := p.readDebate()
	if d.Final == nil || !d.Final.BudgetCut {
		t.Fatalf("the frozen dollar cap $%.6f was not enforced after resume --max-tokens: no cut answer, spent $%.6f", usd, p.spentUSD())
	}
	if got := p.spentUSD(); got > usd {
		t.Errorf("spent $%.6f over the frozen dollar cap $%.6f", got, usd)
	}
	// a cut answer is a labelled degraded result, in the answer's language
	fin := p.final()
	head := fin[strings.Index(fin, "Cortado pelo orçamento"):]
	head = head[:strings.Index(head, "\n")]
	if !strings.Contains(fin, "degraded: true") || !strings.Contains(head, "resultado degradado") {
		t.Errorf("the cut answer is not labelled degraded:\n%s", fin)
	}
	if strings.Contains(head, " and ") || !strings.Contains(head, " e ") {
		t.Errorf("English in the Portuguese cut line: %s", head)
	}
	reasons := p.budgetReasons()
	if len(reasons) == 0 || !strings.Contains(reasons[0], "--max-tokens 2000 → 10000000") || !strings.Contains(reasons[0], "dollar cap") || !strings.Contains(reasons[0], "stays") {
		t.Errorf("the resume's budget decision does not say what changed and what stays: %q", reasons)
	}
}

// judgeStarts counts the judge's calls in any round (the fake's log).
func (p *project) judgeStarts() int {
	n := 0
	for k := 0; k <= 2; k++ {
		n += p.starts("juiz", k)
	}
	return n
}

// steady is padded with a judge that names agente-1's proposal (by its
// text, the trace token ending S1) in any order and under any label: a
// stable verdict under --verify-judge.
const steady = "solver=pad:1400,judge=content:S1"

// spentBy sums the tokens id's calls recorded, and the input tokens of
// its last call.
func (p *project) spentBy(id string) (all, lastIn int) {
	for _, e := range p.eventsOf("call_finished") {
		if e["solver_id"] == id {
			in, _ := e["tokens_in"].(float64)
			out, _ := e["tokens_out"].(float64)
			all, lastIn = all+int(in+out), int(in)
		}
	}
	return all, lastIn
}

// TestVerifyJudgeBudgetKeepsBothCalls: under
// --verify-judge the room kept for the final step pays both judge calls,
// so a cap that cuts the debate still ends in a checked answer (exit 0),
// and no judge call is paid for and thrown away.
func TestVerifyJudgeBudgetKeepsBothCalls(t *testing.T) {
	t.Parallel()
	full := newProject(t)
	full.Plan = steady
	full.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--verify-judge").mustExit(t, 0)
	total := full.spent()
	for _, frac := range []float64{0.55, 0.7, 0.85} {
		cap := int(float64(total) * frac)
		p := newProject(t)
		p.Plan = steady
		r := p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--verify-judge", "--max-tokens", fmt.Sprint(cap), "--on-budget", "stop")
		if r.code != 0 {
			t.Errorf("cap %d of %d: exit %d, after %d judge call(s):\n%s", cap, total, r.code, p.judgeStarts(), r.stderr)
			continue
		}
		d := p.readDebate()
		cutSaysSo(t, d, cap)
		if n := p.judgeStarts(); n != 2 || !strings.Contains(p.final(), "judge_order_check:") {
			t.Errorf("cap %d: %d judge calls, or no order check recorded; want the two calls of one checked attempt", cap, n)
		}
		if got := p.spent(); got > cap {
			t.Errorf("cap %d: spent %d", cap, got)
		}
	}
}

// TestVerifyJudgeFirstAnswerIsHeldToItsEstimate: the judge's first call
// answers far beyond its estimate (6000 tokens where 2500 were admitted,
// on an engine stating no max answer). Under the cap that answer is held
// to the size its call was admitted on (engine.HeldTo), so the check's
// second call still fits: both judge calls run, the verdict is checked
// and the spend stays under the cap — where it once ran past the cap and
// stopped the debate for a resume to reuse the paid answer (that path is
// now reached only by an engine that reports its own tokens).
func TestVerifyJudgeFirstAnswerIsHeldToItsEstimate(t *testing.T) {
	t.Parallel()
	full := newProject(t)
	full.Plan = steady
	full.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--verify-judge").mustExit(t, 0)
	judge, judgeIn := full.spentBy("juiz")
	cap := full.spent() - judge + 2*(judgeIn+2500) + 500
	p := newProject(t)
	p.Plan = "solver=pad:1400,judge#1=pad:6000,judge=content:S1"
	r := p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--verify-judge", "--max-tokens", fmt.Sprint(cap), "--on-budget", "stop")
	if r.code != 0 && r.code != 4 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "its answer is held to its expected size") {
		t.Errorf("the judge's long answer is not said held:\n%s", r.stderr)
	}
	if n := p.judgeStarts(); n != 2 {
		t.Errorf("%d judge call(s), want the check's two", n)
	}
	if got := p.spent(); got > cap {
		t.Errorf("cap %d: spent %d", cap, got)
	}
}

// TestRunNamesUnpricedEnginesUnderADollarCap: a
// headless run with --max-usd names the engines without a price on
// stderr, in the plan's words.
func TestRunNamesUnpricedEnginesUnderADollarCap(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	r := p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--solver", "omega", "--judge", "zeta-engine", "--yes", "--headless", "--max-usd", "5").mustExit(t, 0)
	if !strings.Contains(r.stderr, "the dollar cap CANNOT be enforced for omega") {
		t.Errorf("the run does not name the unpriced engine:\n%s", r.stderr)
	}
	plan := p.moot("plan", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--solver", "omega", "--judge", "zeta-engine", "--max-usd", "5").mustExit(t, 0)
	if !strings.Contains(plan.stdout, "the dollar cap CANNOT be enforced for omega") {
		t.Errorf("the plan does not name the unpriced engine:\n%s", plan.stdout)
	}
}

// TestCutDebateTeachesNoEstimate: a debate cut by
// the budget spent part of its plan, so the next plan learns nothing from
// it; a full debate after it does teach the plan.
func TestCutDebateTeachesNoEstimate(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = padded
	p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--max-tokens", "30000", "--on-budget", "stop").mustExit(t, 0)
	if d := p.readDebate(); d.Final == nil || !d.Final.BudgetCut {
		t.Fatal("the first debate was not cut by the budget")
	}
	if r := p.moot("plan", "7", "--mode", "diagnosis").mustExit(t, 0); strings.Contains(r.stdout, "learned from") {
		t.Errorf("the plan learned from a cut debate:\n%s", r.stdout)
	}
	p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless").mustExit(t, 0)
	if r := p.moot("plan", "7", "--mode", "diagnosis").mustExit(t, 0); !strings.Contains(r.stdout, "learned from 1 past debate") {
		t.Errorf("the plan did not learn from the full debate:\n%s", r.stdout)
	}
}
