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

// TestResumeFlagOverridesItsOwnLimit (attack 17, finding 2): a resume
// with --max-tokens lifts the token cap only; the frozen dollar cap stays
// in force (the debate is cut at it) and the log says what changed.
func TestResumeFlagOverridesItsOwnLimit(t *testing.T) {
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
	reasons := p.budgetReasons()
	if len(reasons) == 0 || !strings.Contains(reasons[0], "--max-tokens 2000 → 10000000") || !strings.Contains(reasons[0], "dollar cap") || !strings.Contains(reasons[0], "stays") {
		t.Errorf("the resume's budget decision does not say what changed and what stays: %q", reasons)
	}
}
