package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// final reads the debate's resposta-final.md as written.
func (p *project) final() string {
	p.t.Helper()
	b, err := os.ReadFile(filepath.Join(p.debate(), "resposta-final.md"))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(b)
}

// TestVerifyJudge is the judge's order-swap check (docs/beyond.md): a judge
// that picks whichever proposal it is shown first gives an unstable
// verdict — both answers kept, the judge menu answered by
// --on-judge-failure — and a judge that keeps its choice a stable one.
func TestVerifyJudge(t *testing.T) {
	t.Parallel()
	t.Run("the plan counts and prices the second judge call", func(t *testing.T) {
		p := newProject(t)
		plain := p.moot("plan", "7", "--mode", "diagnosis", "--json").mustExit(t, 0)
		checked := p.moot("plan", "7", "--mode", "diagnosis", "--verify-judge").mustExit(t, 0)
		if !strings.Contains(plain.stdout, `"judge": 1`) || !strings.Contains(checked.stdout, "3×(2+1) + 0×2 + 1 + 1 order-swap check = 11 calls") ||
			!strings.Contains(checked.stdout, "judge zeta-engine (order-swap check)") || !regexpMust(`zeta-engine\s+command\s+no\s+judge, solver\s+11\s`).MatchString(checked.stdout) {
			t.Errorf("plan:\n%s\n%s", plain.stdout, checked.stdout)
		}
		// priced: the second call costs what the first does
		var a, b struct {
			USD   float64 `json:"usd"`
			Calls struct {
				Judge int `json:"judge"`
			} `json:"calls"`
		}
		withCheck := p.moot("plan", "7", "--mode", "diagnosis", "--verify-judge", "--json").mustExit(t, 0)
		if json.Unmarshal([]byte(plain.stdout), &a) != nil || json.Unmarshal([]byte(withCheck.stdout), &b) != nil || b.Calls.Judge != 2 || b.USD <= a.USD {
			t.Errorf("plan --json: without the check %+v, with it %+v", a, b)
		}
	})
	t.Run("an order-sensitive judge is unstable: both answers kept, the menu's policy answers", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "judge=first"
		r := p.moot("run", "7", "--mode", "diagnosis", "-r", "0", "--verify-judge", "--yes", "--headless", "--on-judge-failure", "cancel").mustExit(t, 3)
		d := p.readDebate()
		if d.Final != nil || len(d.JudgeAttempts) != 2 || p.starts("juiz", 0) != 2 {
			t.Fatalf("final %v, attempts %d, judge calls %d\n%s", d.Final, len(d.JudgeAttempts), p.starts("juiz", 0), r.stderr)
		}
		var reason string
		var orders [][]string
		for _, ev := range d.Events {
			if ev.Type == bugfolder.EvJudgeFailed {
				reason = ev.Reason
			}
			if ev.Type == bugfolder.EvReadingOrder && ev.SolverID == "juiz" {
				orders = append(orders, ev.Order)
			}
		}
		if !strings.Contains(reason, "unstable verdict") || !strings.Contains(reason, "Proposta A") || !strings.Contains(reason, "Proposta C") {
			t.Errorf("judge_failed reason %q", reason)
		}
		if len(orders) != 2 || !slices.Equal(orders[0], []string{"A", "B", "C"}) || !slices.Equal(orders[1], []string{"C", "A", "B"}) {
			t.Errorf("the judge's orders: %v", orders)
		}
		// problema.md froze the check: a resume's retry checks again (two
		// more judge calls), and its unstable verdict stops for a human
		p.moot("resume", "7", "--yes", "--headless", "--on-judge-failure", "retry").mustExit(t, 4)
		if n := p.starts("juiz", 0); n != 4 {
			t.Errorf("judge calls after a resumed retry: %d, want 4", n)
		}
		// the human choice settles it; the final answer says the check was unstable
		p.moot("resume", "7", "--headless", "--winner", "B").mustExit(t, 0)
		fin := p.final()
		if !strings.Contains(fin, "judge_order_check: unstable") || !strings.Contains(fin, "Verificação de ordem do juiz: instável") {
			t.Errorf("final answer:\n%s", fin)
		}
		// a Portuguese answer names the human in Portuguese
		if !strings.Contains(fin, "decidido por um humano") || strings.Contains(fin, "por human.") {
			t.Errorf("the unstable line does not say who decided in Portuguese:\n%s", fin)
		}
	})
	t.Run("retry: the same unstable verdict comes back and moot stops for a human", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "judge=first"
		p.moot("run", "7", "--mode", "diagnosis", "-r", "0", "--verify-judge", "--yes", "--headless", "--on-judge-failure", "retry").mustExit(t, 4)
		if d := p.readDebate(); d.Final != nil || len(d.JudgeAttempts) != 4 {
			t.Errorf("final %v, attempts %d", d.Final, len(d.JudgeAttempts))
		}
	})
	t.Run("a judge that keeps its winner is stable", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "solver=mark,judge=content:S2" // agente-2's proposal, by its text
		p.moot("run", "7", "--mode", "diagnosis", "-r", "0", "--verify-judge", "--yes", "--headless").mustExit(t, 0)
		fin := p.final()
		if !strings.Contains(fin, "judge_order_check: stable") || !strings.Contains(fin, "winner_solver: agente-2") || !strings.Contains(fin, "Verificação de ordem do juiz: estável — o juiz escolheu Proposta ") || p.starts("juiz", 0) != 2 {
			t.Errorf("judge calls %d, final answer:\n%s", p.starts("juiz", 0), fin)
		}
		if len(p.readDebate().JudgeAttempts) != 0 {
			t.Error("a stable verdict kept a failed attempt")
		}
	})
	t.Run("without the flag: one judge call, no check recorded", func(t *testing.T) {
		p := newProject(t)
		p.Plan = "judge=first"
		p.moot("run", "7", "--mode", "diagnosis", "-r", "0", "--yes", "--headless").mustExit(t, 0)
		if fin := p.final(); strings.Contains(fin, "judge_order_check") || p.starts("juiz", 0) != 1 {
			t.Errorf("judge calls %d, final answer:\n%s", p.starts("juiz", 0), fin)
		}
	})
	t.Run("a protocol without a winner refuses the flag", func(t *testing.T) {
		p := newProject(t)
		r := p.moot("plan", "7", "--protocol", "council", "--lens", "security", "--lens", "performance", "--verify-judge").mustExit(t, 2)
		if !strings.Contains(r.stderr, "--verify-judge applies to --protocol debate") {
			t.Errorf("stderr: %s", r.stderr)
		}
	})
}

// familyConfig is an engines file whose solver and judge are both of the
// anthropic family (by their models), beside one of another family.
func familyConfig() string {
	return `engines:
  sol-claude:
    kind: command
    command: ["` + fakeBin + `"]
    env_passthrough: ["FAKE_*"]
    model: claude-sonnet-4
    external: false
  judge-claude:
    kind: command
    command: ["` + fakeBin + `"]
    env_passthrough: ["FAKE_*"]
    model: claude-opus-4
    external: false
  judge-gpt:
    kind: command
    command: ["` + fakeBin + `"]
    env_passthrough: ["FAKE_*"]
    model: gpt-5
    external: false
defaults:
  solver: sol-claude
  judge: judge-claude
`
}

// TestJudgeFamily is the judge family rule (docs/beyond.md): a judge of a
// solver's vendor family is refused (exit 2 naming the family and both
// engines, nothing written) unless --allow-same-family, which the final
// answer records.
func TestJudgeFamily(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.writeConfig(familyConfig())
	for _, cmd := range [][]string{{"plan", "7", "--mode", "diagnosis"}, {"run", "7", "--mode", "diagnosis", "--yes", "--headless"}} {
		r := p.moot(cmd...).mustExit(t, 2)
		for _, want := range []string{"anthropic", "judge-claude", "sol-claude", "--allow-same-family"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("moot %s: the refusal does not name %s:\n%s", cmd[0], want, r.stderr)
			}
		}
	}
	if _, err := os.Stat(p.debate()); !os.IsNotExist(err) {
		t.Fatalf("a refused debate wrote %s (%v)", p.debate(), err)
	}
	// another family judges: no refusal
	p.moot("plan", "7", "--mode", "diagnosis", "--judge", "judge-gpt").mustExit(t, 0)
	p.moot("run", "7", "--mode", "diagnosis", "-r", "0", "--allow-same-family", "--yes", "--headless").mustExit(t, 0)
	fin := p.final()
	if !strings.Contains(fin, "allow_same_family: true") || !strings.Contains(fin, "--allow-same-family") {
		t.Errorf("final answer does not record the override:\n%s", fin)
	}
}

// TestReadingOrders: every reader reads the snapshot in its own recorded
// order, readers of a round differ, and every proposal is read first by
// someone.
func TestReadingOrders(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.moot("run", "7", "--mode", "diagnosis", "-n", "3", "-r", "2", "--critic", "omega", "--yes", "--headless").mustExit(t, 0)
	d := p.readDebate()
	first := map[string]bool{}
	byRound := map[int]map[string][]string{}
	for _, ev := range d.Events {
		if ev.Type != bugfolder.EvReadingOrder {
			continue
		}
		if byRound[ev.Round] == nil {
			byRound[ev.Round] = map[string][]string{}
		}
		byRound[ev.Round][ev.SolverID] = ev.Order
		first[ev.Order[0]] = true
	}
	for k := 1; k <= 2; k++ {
		orders := byRound[k]
		if len(orders) != 4 { // three solvers and the critic
			t.Fatalf("round %d: orders %v", k, orders)
		}
		if slices.Equal(orders["agente-1"], orders["agente-2"]) || slices.Equal(orders["agente-2"], orders["agente-3"]) || slices.Equal(orders["agente-1"], orders["agente-3"]) {
			t.Errorf("round %d: two solvers read in the same order: %v", k, orders)
		}
		for id, o := range orders {
			if got := slices.Sorted(slices.Values(o)); !slices.Equal(got, []string{"agente-1", "agente-2", "agente-3"}) {
				t.Errorf("round %d: %s read %v", k, id, o)
			}
		}
	}
	if len(first) != 3 {
		t.Errorf("not every proposal is read first somewhere: %v", first)
	}
	// the prompt follows the recorded order
	prompt := p.prompt(1, "agente-1", 1)
	o := byRound[1]["agente-1"]
	if i, j := strings.Index(prompt, "<<<INÍCIO "+o[0]), strings.Index(prompt, "<<<INÍCIO "+o[1]); i < 0 || j < 0 || i > j {
		t.Errorf("agente-1's prompt does not follow its order %v", o)
	}
}

// TestReadingOrderOnJSON: the --json stream carries each reader's order as
// the log does.
func TestReadingOrderOnJSON(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	r := p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "1", "--yes", "--json").mustExit(t, 0)
	n := 0
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.Contains(line, `"type":"reading_order"`) {
			n++
			if !strings.Contains(line, `"order":["agente-`) || !strings.Contains(line, `"solver_id":"agente-`) {
				t.Errorf("reading_order line: %s", line)
			}
		}
	}
	if n != 2 { // round 1's two solvers
		t.Errorf("%d reading_order lines on --json, want 2:\n%s", n, r.stdout)
	}
}
