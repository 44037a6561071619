package e2e

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBudgetRefusesInfinity: --max-usd Inf (and NaN) sets no cap at all,
// so it is refused like any amount that is not a positive number (exit 2,
// nothing written).
func TestBudgetRefusesInfinity(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"Inf", "+Inf", "NaN"} {
		p := newProject(t)
		r := p.moot("plan", "7", "--mode", "diagnosis", "--max-usd", v).mustExit(t, 2)
		if !strings.Contains(r.stderr, "--max-usd") {
			t.Errorf("--max-usd %s: the refusal does not name the flag:\n%s", v, r.stderr)
		}
	}
}

// waitStarts waits (up to a deadline) until the fake was started n times
// for (id, round).
func (p *project) waitStarts(id string, round, n int) {
	p.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for p.starts(id, round) < n {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s was not started %d times in round %d", id, n, round)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestVerifyJudgeKillDuringSwap: kill -9 while the order-swap check's
// second judge call runs. The first call had finished, so its
// call_finished (tokens, cost) is in the log already; the resume counts
// it, and the final answer's totals are the sum of every finished call.
func TestVerifyJudgeKillDuringSwap(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "solver=mark,judge#1=content:S2,judge#2=hang"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := p.cmd(ctx, "run", "7", "--mode", "diagnosis", "-r", "0", "--verify-judge", "--yes", "--headless")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	p.waitStarts("juiz", 0, 2)
	_ = c.Process.Kill()
	_ = c.Wait()
	first := false
	for _, e := range p.events() {
		if e["type"] == "call_finished" && e["solver_id"] == "juiz" && e["attempt"] == 1.0 {
			in, _ := e["tokens_in"].(float64)
			cost, _ := e["cost_usd"].(float64)
			first = in > 0 && cost > 0
		}
	}
	if !first {
		t.Fatal("the first judge call finished before the kill, but the log has no call_finished with its tokens and cost")
	}
	p.Plan = "solver=mark,judge=content:S2" // the same proposal, whatever its slot and label
	p.moot("resume", "7", "--yes", "--headless").mustExit(t, 0)
	d := p.readDebate()
	if d.Final == nil {
		t.Fatal("no final answer after the resume")
	}
	if d.Final.TotalTokens != p.spent() {
		t.Errorf("total_tokens %d, but the finished calls logged %d tokens", d.Final.TotalTokens, p.spent())
	}
	if got, want := d.Final.TotalCostUSD, p.spentUSD(); math.Abs(got-want) > 1e-9 {
		t.Errorf("total_cost_usd %.6f, but the finished calls logged %.6f", got, want)
	}
}

// TestHumanWinnerCostKnown: a winner chosen by a human makes no model
// call, so the debate's cost is fully known: the final answer records
// total_cost_usd and list does not call the cost partly unknown.
func TestHumanWinnerCostKnown(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "judge=first"
	p.moot("run", "7", "--mode", "diagnosis", "-r", "0", "--verify-judge", "--yes", "--headless", "--on-judge-failure", "cancel").mustExit(t, 3)
	r := p.moot("resume", "7", "--headless", "--winner", "B").mustExit(t, 0)
	if strings.Contains(r.stdout+r.stderr, "unknown") {
		t.Errorf("a human winner's debate has a partly unknown cost:\n%s%s", r.stdout, r.stderr)
	}
	d := p.readDebate()
	if d.Final == nil || !d.Final.TotalCostRecorded || math.Abs(d.Final.TotalCostUSD-p.spentUSD()) > 1e-9 {
		t.Errorf("final total_cost_usd %+v, want the calls' %.6f", d.Final, p.spentUSD())
	}
	if l := p.moot("list", "--json").mustExit(t, 0); strings.Contains(l.stdout, `"cost_partly_unknown": true`) || strings.Contains(l.stdout, `"cost_partly_unknown":true`) {
		t.Errorf("list calls the cost partly unknown:\n%s", l.stdout)
	}
}

// TestBudgetUnpricedEngineWarns: a dollar cap with an engine that has no
// price cannot be enforced for it: the plan names the engine and says
// --max-tokens can; it never calls an unknown estimate "within" the cap,
// and it never writes "≈≈".
func TestBudgetUnpricedEngineWarns(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	r := p.moot("plan", "7", "--mode", "diagnosis", "--judge", "omega", "--max-usd", "5").mustExit(t, 0)
	if !strings.Contains(r.stdout, "CANNOT be enforced for omega") || !strings.Contains(r.stdout, "--max-tokens") {
		t.Errorf("the plan does not warn that the dollar cap cannot hold omega:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "is within it") || strings.Contains(r.stdout, "≈≈") {
		t.Errorf("the plan calls a partly unknown estimate within the cap, or doubles ≈:\n%s", r.stdout)
	}
	priced := p.moot("plan", "7", "--mode", "diagnosis", "--max-usd", "5").mustExit(t, 0)
	if !strings.Contains(priced.stdout, "is within it") || strings.Contains(priced.stdout, "≈≈") || strings.Contains(priced.stdout, "CANNOT") {
		t.Errorf("a priced plan under a dollar cap:\n%s", priced.stdout)
	}
}

// TestBudgetStopIsWaiting: a debate stopped at its budget cap (exit 4)
// waits for a human to raise the cap: list and show say waiting, never
// running, and show says why and what raises it.
func TestBudgetStopIsWaiting(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = padded
	p.moot("run", "7", "--mode", "diagnosis", "--yes", "--headless", "--max-tokens", "20000").mustExit(t, 4)
	l := p.moot("list", "--json").mustExit(t, 0)
	if !regexpMust(`"status":\s*"waiting"`).MatchString(l.stdout) || regexpMust(`"status":\s*"running"`).MatchString(l.stdout) {
		t.Errorf("list does not call a debate stopped at the budget cap waiting:\n%s", l.stdout)
	}
	s := p.moot("show", "7").mustExit(t, 0)
	if !strings.Contains(s.stdout, "waiting") || !strings.Contains(s.stdout, "stopped at the budget cap") || !strings.Contains(s.stdout, "--max-tokens") {
		t.Errorf("show does not say the debate waits at the budget cap:\n%s", s.stdout)
	}
	p.moot("resume", "7", "--yes", "--headless", "--max-tokens", "10000000").mustExit(t, 0)
	if l := p.moot("list", "--json").mustExit(t, 0); !regexpMust(`"status":\s*"done"`).MatchString(l.stdout) {
		t.Errorf("after the raise the debate is not done:\n%s", l.stdout)
	}
}

// TestFamilyRecheckedOnResume: a family: added to the engines file after
// setup puts the judge in a solver's family; moot resume checks the judge
// family rule again and refuses (exit 2, naming the family) unless the
// debate froze --allow-same-family.
func TestFamilyRecheckedOnResume(t *testing.T) {
	t.Parallel()
	for _, allow := range []bool{false, true} {
		p := newProject(t)
		p.Plan = padded
		args := []string{"run", "7", "--mode", "diagnosis", "--yes", "--headless", "--max-tokens", "20000"}
		if allow {
			args = append(args, "--allow-same-family")
		}
		p.moot(args...).mustExit(t, 4)
		raw, err := os.ReadFile(filepath.Join(p.dir, "_reversa_bugs", "moot.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		p.writeConfig(strings.Replace(string(raw), "model: zeta-1\n", "model: zeta-1\n    family: acme\n", 1))
		r := p.moot("resume", "7", "--yes", "--headless", "--max-tokens", "10000000")
		if allow {
			r.mustExit(t, 0)
			continue
		}
		r.mustExit(t, 2)
		if !strings.Contains(r.stderr, "acme") || !strings.Contains(r.stderr, "--allow-same-family") {
			t.Errorf("the refusal does not name the family and the way out:\n%s", r.stderr)
		}
	}
}

// TestEnginesShowFamiliesAndAskOffersNoVerifyJudge: moot engines shows each engine's family (unknown
// when none), and ask's help does not offer --verify-judge, which every
// ask protocol refuses.
func TestEnginesShowFamiliesAndAskOffersNoVerifyJudge(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	raw, err := os.ReadFile(filepath.Join(p.dir, "_reversa_bugs", "moot.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p.writeConfig(strings.Replace(string(raw), "model: zeta-1\n", "model: zeta-1\n    family: acme\n", 1))
	r := p.moot("engines").mustExit(t, 0)
	if !strings.Contains(r.stdout, "FAMILY") || !regexpMust(`zeta-engine\s+command\s+zeta-1\s+acme\s`).MatchString(r.stdout) || !regexpMust(`omega\s+command\s+\S+\s+unknown\s`).MatchString(r.stdout) {
		t.Errorf("moot engines does not show the families:\n%s", r.stdout)
	}
	if h := p.moot("ask", "--help").mustExit(t, 0); strings.Contains(h.stdout, "verify-judge") {
		t.Errorf("ask's help offers --verify-judge:\n%s", h.stdout)
	}
}
