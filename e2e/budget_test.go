package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// padded answers stay under moot's expected sizes (1500 a solver, 2500
// the judge), so what a call records never exceeds its estimate: the
// budget's guarantee is then that the spend never passes the cap.
const padded = "solver=pad:1400,judge=pad:2400"

// spent sums the tokens the debate's calls recorded (in + out).
func (p *project) spent() int {
	n := 0
	for _, e := range p.events() {
		if e["type"] == "call_finished" {
			in, _ := e["tokens_in"].(float64)
			out, _ := e["tokens_out"].(float64)
			n += int(in + out)
		}
	}
	return n
}

// budgetDecision is the budget decision the log records ("" for none).
func (p *project) budgetDecision() (choice string, round int) {
	for _, e := range p.events() {
		if e["type"] == "decision" && e["point"] == "budget" {
			r, _ := e["round"].(float64)
			return e["choice"].(string), int(r)
		}
	}
	return "", -1
}

// addBudget appends a budget: to the project's engines file.
func (p *project) addBudget(yaml string) {
	p.t.Helper()
	raw, err := os.ReadFile(filepath.Join(p.dir, "_reversa_bugs", "moot.yaml"))
	if err != nil {
		p.t.Fatal(err)
	}
	p.writeConfig(string(raw) + yaml)
}

// cutSaysSo checks a final answer cut by the budget: budget_cut in the
// front matter, a line naming the cap and the spend, the final step on
// a complete round before the last.
func cutSaysSo(t *testing.T, d *bugfolder.Debate, cap int) {
	t.Helper()
	f := d.Final
	if f == nil || !f.BudgetCut {
		t.Fatalf("no final answer cut by the budget: %+v", f)
	}
	if !strings.Contains(f.Body, "Cortado pelo orçamento") && !strings.Contains(f.Body, "Cut by the budget") || !strings.Contains(f.Body, fmt.Sprintf("%d tokens", cap)) {
		t.Errorf("the final answer does not say the budget cut it (cap %d):\n%s", cap, f.Body)
	}
	if f.Round >= d.Problem.R {
		t.Errorf("the final step read round %d of %d", f.Round, d.Problem.R)
	}
	for _, rd := range d.Rounds {
		if rd.K == f.Round {
			ok := 0
			for _, x := range rd.Files {
				if x.Status == bugfolder.StatusOK {
					ok++
				}
			}
			if ok != d.Problem.N {
				t.Errorf("the final step read round %d, which is not complete (%d of %d)", f.Round, ok, d.Problem.N)
			}
		}
	}
}

// TestBudgetCutMidRound: a token cap that runs out inside a round, with
// three calls in flight at once, headless with --on-budget stop: exit 0,
// the remaining rounds skipped, the judge on the last complete round, the
// answer labelled cut by the budget, and the spend never over the cap.
func TestBudgetCutMidRound(t *testing.T) {
	t.Parallel()
	full := newProject(t)
	full.Plan = padded
	full.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless").mustExit(t, 0)
	total := full.spent()
	midRound := 0
	for _, frac := range []float64{0.5, 0.6, 0.7, 0.8} {
		cap := int(float64(total) * frac)
		p := newProject(t)
		p.Plan = padded
		p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--max-tokens", fmt.Sprint(cap), "--on-budget", "stop").mustExit(t, 0)
		d := p.readDebate()
		cutSaysSo(t, d, cap)
		if got := p.spent(); got > cap {
			t.Errorf("cap %d: spent %d", cap, got)
		}
		choice, k := p.budgetDecision()
		if choice != "stop" {
			t.Errorf("cap %d: the log's budget decision is %q", cap, choice)
		}
		for _, rd := range d.Rounds {
			if rd.K == k && len(rd.Files) > 0 && len(rd.Files) < d.Problem.N {
				midRound++ // some of the round's calls ran, the rest were never started
			}
		}
		t.Logf("cap %d of %d tokens: spent %d, cut in round %d, judge on round %d", cap, total, p.spent(), k, d.Final.Round)
	}
	if midRound == 0 {
		t.Error("no cap ran out inside a round")
	}
}

// TestBudgetPolicies: cancel is exit 3 and ask (the default) exit 4,
// both resumable; a resume with a higher --max-tokens continues to the
// end, without the label; the cap is frozen in problema.md.
func TestBudgetPolicies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		policy string
		code   int
	}{{"cancel", 3}, {"ask", 4}}
	for _, tc := range tests {
		t.Run(tc.policy, func(t *testing.T) {
			p := newProject(t)
			p.Plan = padded
			r := p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--max-tokens", "20000", "--on-budget", tc.policy).mustExit(t, tc.code)
			if !strings.Contains(r.stderr, "budget") {
				t.Errorf("the stop does not say the budget:\n%s", r.stderr)
			}
			if raw, _ := os.ReadFile(filepath.Join(p.debate(), "problema.md")); !strings.Contains(string(raw), "max_tokens: 20000") {
				t.Error("problema.md does not freeze the cap")
			}
			p.moot("resume", "7", "--yes", "--headless").mustExit(t, 4) // the frozen cap holds
			p.moot("resume", "7", "--yes", "--headless", "--max-tokens", "10000000").mustExit(t, 0)
			d := p.readDebate()
			if d.Final == nil || d.Final.BudgetCut || d.Final.Round != 2 {
				t.Errorf("after the raise: %+v", d.Final)
			}
		})
	}
}

// TestBudgetFromEnginesFile: budget: in the engines file caps a debate
// run without flags (the plan says the estimate exceeds it); --max-tokens
// overrides it.
func TestBudgetFromEnginesFile(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = padded
	p.addBudget("budget:\n  max_tokens: 25000\n")
	r := p.moot("plan", "7", "--mode", "diagnosis").mustExit(t, 0)
	if !strings.Contains(r.stdout, "cap 25,000 tokens") || !strings.Contains(r.stdout, "EXCEEDS") {
		t.Errorf("the plan does not show the cap:\n%s", r.stdout)
	}
	r = p.moot("plan", "7", "--mode", "diagnosis", "--json", "--max-tokens", "9000000").mustExit(t, 0)
	var plan struct {
		Budget struct {
			MaxTokens int  `json:"max_tokens"`
			Exceeded  bool `json:"exceeded"`
		} `json:"budget"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil || plan.Budget.MaxTokens != 9000000 || plan.Budget.Exceeded {
		t.Errorf("plan --json budget %+v (%v)", plan.Budget, err)
	}
	p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--on-budget", "stop").mustExit(t, 0)
	cutSaysSo(t, p.readDebate(), 25000)
	if got := p.spent(); got > 25000 {
		t.Errorf("spent %d over the file's cap", got)
	}
	p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--on-budget", "stop", "--max-tokens", "9000000").mustExit(t, 0)
	if d := p.readDebate(); d.Final.BudgetCut {
		t.Error("--max-tokens does not override the file's budget")
	}
	r = p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--max-tokens", "-3")
	if r.code != 2 || !strings.Contains(r.stderr, "--max-tokens") {
		t.Errorf("a negative cap: exit %d\n%s", r.code, r.stderr)
	}
}

// spentUSD sums the money the debate's calls recorded.
func (p *project) spentUSD() float64 {
	usd := 0.0
	for _, e := range p.events() {
		if e["type"] == "call_finished" {
			c, _ := e["cost_usd"].(float64)
			usd += c
		}
	}
	return usd
}

// TestBudgetDollars: a --max-usd cap on a priced engine cuts the debate
// the same way, and the money its calls recorded stays under it.
func TestBudgetDollars(t *testing.T) {
	t.Parallel()
	full := newProject(t)
	full.Plan = padded
	full.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless").mustExit(t, 0)
	total := full.spentUSD()
	cap := total * 0.6
	p := newProject(t)
	p.Plan = padded
	p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--max-usd", fmt.Sprintf("%.6f", cap), "--on-budget", "stop").mustExit(t, 0)
	d := p.readDebate()
	if d.Final == nil || !d.Final.BudgetCut || d.Final.Round >= d.Problem.R {
		t.Fatalf("not cut by a dollar cap of %.4f (the debate costs %.4f): %+v", cap, total, d.Final)
	}
	if got := p.spentUSD(); got > cap {
		t.Errorf("spent $%.6f over a cap of $%.6f", got, cap)
	}
	if !strings.Contains(d.Final.Body, "$") {
		t.Errorf("the cut line names no dollar cap:\n%s", d.Final.Body)
	}
}
