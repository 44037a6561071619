package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/internal/testutil"
)

// tradeoffArgs runs a tradeoff on bug num headless, with both options.
func tradeoffArgs(num string, extra ...string) []string {
	args := []string{"run", num, "--protocol", "tradeoff", "--mode", "repair", "--yes", "--headless",
		"--option-a", "Deduplicate the discount in applyDiscount", "--option-b", "Make checkout idempotent per order id"}
	return append(args, extra...)
}

// A tradeoff on a bug runs two reviewers (A and B) in round 0 and the
// default single rebuttal round, then the synthesizer: 2×(1+1)+1 calls;
// problema.md names the protocol and freezes both options; the final
// answer has the synthesizer's sections and waits for a human decision,
// which moot decide records. A failed reviewer, with the quorum menu
// answered continue, is recorded missing and named to the synthesizer,
// and the result still waits for the human.
func TestTradeoffOnABug(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, plan string
		extra      []string
		calls      int
		missing    string
	}{
		{name: "happy path", calls: 5},
		{name: "failed reviewer", plan: "agente-2@0=fail", extra: []string{"--on-quorum-loss", "continue"}, calls: 4, missing: "B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			p.Plan = tc.plan
			run := p.moot(tradeoffArgs("7", tc.extra...)...).mustExit(t, 0)
			if !strings.Contains(run.stderr+run.stdout, "2×(1+1) + 1 = 5 calls (rebuttal cap: 1 round(s))") {
				t.Errorf("the formula and rebuttal cap are not stated:\n%s%s", run.stdout, run.stderr)
			}
			prob := readFile(t, filepath.Join(p.debate(), "problema.md"))
			for _, want := range []string{"protocol: tradeoff", "name: A", "text: Deduplicate the discount in applyDiscount", "name: B", "### Opção A", "### Critérios", "Dono da decisão"} {
				if !strings.Contains(prob, want) {
					t.Errorf("problema.md lacks %q", want)
				}
			}
			log := readFile(t, p.log)
			if n := strings.Count(log, "start "); n != tc.calls {
				t.Errorf("%d calls, want %d\n%s", n, tc.calls, log)
			}
			if !strings.Contains(log, "start reviewer agente-1 0") || !strings.Contains(log, "start synthesizer juiz 1") {
				t.Errorf("roles are not reviewer and synthesizer:\n%s", log)
			}
			final := readFile(t, filepath.Join(p.debate(), "resposta-final.md"))
			for _, want := range []string{"decision: pending", "\ndecided_by: synthesizer\n", "## Fatos acordados", "## Saídas ausentes ou falhas", "## Decisão humana pendente", "> Opção A (agente-1)"} {
				if !strings.Contains(final, want) {
					t.Errorf("resposta-final.md lacks %q:\n%s", want, final)
				}
			}
			synth := p.prompt(1, "juiz", 1)
			if strings.Contains(synth, "zeta") {
				t.Error("the synthesizer's prompt names an engine")
			}
			if tc.missing != "" {
				if !strings.Contains(synth, "REVISOR DA OPÇÃO "+tc.missing+": AUSENTE — sem resposta válida (status: error)") {
					t.Errorf("the synthesizer is not told side %s failed:\n%s", tc.missing, synth)
				}
				if !strings.Contains(final, "MISSING") && !strings.Contains(final, "AUSENTE") {
					t.Errorf("the final answer does not record the missing side:\n%s", final)
				}
				if p.starts("agente-2", 1) != 0 {
					t.Error("the failed side was called again in the rebuttal round (a silent retry)")
				}
				// the rebuttal names the failed side with its status, as docs/protocols/tradeoff.md promises
				if reb := p.prompt(1, "agente-1", 1); !strings.Contains(reb, "agente-2 (opção B): sem resposta válida (error; fora do debate depois de falhar)") {
					t.Errorf("the rebuttal prompt does not give the failed side's status:\n%s", reb)
				}
			}
			p.moot("decide", "7", "approve").mustExit(t, 0)
			if _, err := os.Stat(filepath.Join(p.debate(), "decisao.md")); err != nil {
				t.Errorf("moot decide wrote no decisao.md: %v", err)
			}
		})
	}
}

// Refused before anything is written (exit 2): a missing option (named),
// -n other than 2, and a restricted bug with an external engine in any
// of tradeoff's roles (reviewers, synthesizer).
func TestTradeoffRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no option B", []string{"run", "7", "--protocol", "tradeoff", "--mode", "repair", "--yes", "--headless", "--option-a", "x"}, "--option-b is required"},
		{"no option A", []string{"run", "7", "--protocol", "tradeoff", "--mode", "repair", "--yes", "--headless", "--option-b", "x"}, "--option-a is required"},
		{"three reviewers", tradeoffArgs("7", "-n", "3"), "exactly 2 reviewers"},
		{"external reviewers on a restricted bug", tradeoffArgs("8", "--solver", "ext"), "restricted"},
		{"external synthesizer on a restricted bug", tradeoffArgs("8", "--synthesizer", "ext"), "restricted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			before := testutil.Fingerprint(t, filepath.Join(p.dir, "_reversa_bugs"))
			r := p.moot(tc.args...).mustExit(t, 2)
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, r.stderr)
			}
			if testutil.Fingerprint(t, filepath.Join(p.dir, "_reversa_bugs")) != before {
				t.Error("a refused tradeoff wrote something")
			}
			if _, err := os.Stat(p.log); err == nil {
				t.Error("a refused tradeoff called an engine")
			}
		})
	}
}

// A synthesizer that fails goes through the judge-failure menu: headless
// --on-judge-failure cancel stops with exit 3, the failed attempt kept,
// and a resume with retry finishes with the decision still pending.
func TestTradeoffSynthesizerFailure(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "synthesizer#1=invalid"
	p.moot(tradeoffArgs("7", "--on-judge-failure", "cancel")...).mustExit(t, 3)
	if _, err := os.Stat(filepath.Join(p.debate(), "resposta-final.md")); err == nil {
		t.Fatal("a failed synthesizer wrote a final answer")
	}
	p.moot("resume", "7", "--yes", "--headless", "--on-judge-failure", "retry").mustExit(t, 0)
	final := readFile(t, filepath.Join(p.debate(), "resposta-final.md"))
	if !strings.Contains(final, "decision: pending") || !strings.Contains(final, "attempt: 2") {
		t.Errorf("after the retry:\n%s", final)
	}
	if p.starts("agente-1", 0) != 1 || p.starts("agente-1", 1) != 1 {
		t.Error("resume repeated a finished reviewer call")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// askArgs asks the sample question with tradeoff, headless.
func askArgs(extra ...string) []string {
	args := []string{"ask", "Should we cache coupon lookups?", "--protocol", "tradeoff", "--yes", "--headless",
		"--option-a", "Cache coupon lookups for 60 s", "--option-b", "Keep reading coupons from the database"}
	return append(args, extra...)
}

// moot ask runs a tradeoff over a question into .moot/debates/<date>-<slug>/
// (problema.md freezing the question, both options and the evidence
// file), which list, show, transcript and decide then find by its ID; a
// synthesizer failure cancelled headless is resumed by the question's ID
// without repeating a finished call.
func TestAskTradeoff(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	if err := os.WriteFile(filepath.Join(p.dir, "latency.txt"), []byte("coupon lookups take 40 ms at p99\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.Plan = "synthesizer#1=invalid"
	p.moot(askArgs("--evidence", "latency.txt", "--on-judge-failure", "cancel")...).mustExit(t, 3)
	dirs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*-should-we-cache-coupon-lookups"))
	if len(dirs) != 1 {
		t.Fatalf("question folders: %v", dirs)
	}
	id := filepath.Base(dirs[0])
	prob := readFile(t, filepath.Join(dirs[0], "problema.md"))
	for _, want := range []string{"protocol: tradeoff", "question_id: " + id, "question: Should we cache coupon lookups?", "text: Cache coupon lookups for 60 s", "coupon lookups take 40 ms at p99", "`latency.txt`"} {
		if !strings.Contains(prob, want) {
			t.Errorf("problema.md lacks %q:\n%s", want, prob)
		}
	}
	p.moot("resume", id, "--yes", "--headless", "--on-judge-failure", "retry").mustExit(t, 0)
	if p.starts("agente-1", 0) != 1 || p.starts("agente-2", 1) != 1 {
		t.Error("resume repeated a finished reviewer call")
	}
	final := readFile(t, filepath.Join(dirs[0], "resposta-final.md"))
	if !strings.Contains(final, "decision: pending") || !strings.Contains(final, "## Recomendação") {
		t.Errorf("final answer:\n%s", final)
	}
	if got := p.list()[id]; got.Kind != "question" || got.Decision == nil || *got.Decision != "pending" || got.Protocol == nil || *got.Protocol != "tradeoff" {
		t.Errorf("list --json: %+v", got)
	}
	if out := p.moot("show", id).mustExit(t, 0).stdout; !strings.Contains(out, "Should we cache coupon lookups?") || !strings.Contains(out, "none: a tradeoff recommends and the human decides · 2 of 2 reviewers took part") {
		t.Errorf("show:\n%s", out)
	}
	if out := p.moot("transcript", id).mustExit(t, 0).stdout; !strings.Contains(out, "Cache coupon lookups for 60 s") {
		t.Errorf("transcript lacks option A:\n%s", out)
	}
	p.moot("decide", id, "decline", "--note", "measure first").mustExit(t, 0)
}

// ask refuses, writing nothing (exit 2): tradeoff's flags on argue (the
// default), a mode that does not fit the personas, an unknown protocol, a
// missing option, an evidence file outside the project.
func TestAskRefusals(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"tradeoff's flags on argue, the default", []string{"ask", "Cache?", "--yes", "--option-a", "a", "--option-b", "b"}, "apply to --protocol tradeoff, not argue"},
		{"argue's panel of two", []string{"ask", "Cache?", "--yes", "--style", "panel"}, "--style panel is three or more personas; 2 given"},
		{"unknown protocol", []string{"ask", "Cache?", "--protocol", "review", "--yes"}, `--protocol "review": ask runs argue, council, tradeoff`},
		{"no option A", []string{"ask", "Cache?", "--protocol", "tradeoff", "--yes", "--option-b", "b"}, "--option-a is required"},
		{"evidence outside", askArgs("--evidence", outside), "outside the project"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			r := p.moot(tc.args...).mustExit(t, 2)
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(p.dir, ".moot", "debates")); err == nil {
				t.Error("a refused ask wrote a question folder")
			}
		})
	}
}

// On a bug with a finished repair debate, a tradeoff without options takes
// its two best proposals: the judge's winner as A, the proposal the judge
// grafted most from as B; the plan states both before launch.
func TestTradeoffOptionsFromARepairDebate(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.moot("run", "7", "--mode", "repair", "-n", "3", "-r", "0", "--yes", "--headless").mustExit(t, 0)
	old := p.readDebate().Final
	plan := p.moot("plan", "7", "--protocol", "tradeoff", "--mode", "repair").mustExit(t, 0).stdout
	winner := "option A  agente-1: Proposta " + old.Winner + " (" + old.WinnerSolver + "): "
	if !strings.Contains(plan, winner) || !strings.Contains(plan, "option B  agente-2: Proposta ") || !strings.Contains(plan, "rebuttal cap 1 round(s)") {
		t.Errorf("the plan does not state the options taken from the repair debate (want %q):\n%s", winner, plan)
	}
	p.moot("run", "7", "--protocol", "tradeoff", "--mode", "repair", "--yes", "--headless").mustExit(t, 0)
	if prob := readFile(t, filepath.Join(p.debate(), "problema.md")); !strings.Contains(prob, "### Opção A\n\nProposta "+old.Winner+" (") {
		t.Errorf("problema.md does not freeze the winner as option A:\n%s", prob)
	}
}

// volatile are problema.md's lines that differ per machine and run.
var volatile = regexpMust(`(?m)^(\s*(?:program|program_sha256|argv_sha256|created_at|setup_sha256|moot_version)): .*$`)

// TestTradeoffProblemGolden: problema.md of a tradeoff as moot writes it
// (the protocol named, both options frozen as lenses A and B, the packet
// as P), machine-specific lines masked.
func TestTradeoffProblemGolden(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.moot(tradeoffArgs("7", "--criteria", "smallest change; reversible")...).mustExit(t, 0)
	got := volatile.ReplaceAllString(readFile(t, filepath.Join(p.debate(), "problema.md")), "$1: …")
	golden.RequireEqual(t, []byte(got))
}

// A question's tradeoff killed with SIGKILL once round 0 is written is
// resumed by the question's ID: the finished calls are not run again and
// the result waits for the human.
func TestAskResumeAfterKill(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=400"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := p.cmd(ctx, askArgs()...)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	var dir string
	waitFor(t, "round 0 written", 30*time.Second, func() bool {
		ms, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*", "rodada-0", "agente-2.md"))
		m1, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*", "rodada-0", "agente-1.md"))
		if len(ms) == 1 && len(m1) == 1 {
			dir = filepath.Dir(filepath.Dir(ms[0]))
			return true
		}
		return false
	})
	_ = c.Process.Kill()
	_ = c.Wait()
	if exists(filepath.Join(dir, "resposta-final.md")) {
		t.Skip("the run finished before the kill")
	}
	p.env = nil
	p.moot("resume", filepath.Base(dir), "--yes", "--headless").mustExit(t, 0)
	if p.starts("agente-1", 0) != 1 || p.starts("agente-2", 0) != 1 {
		t.Error("resume ran a finished round-0 call again")
	}
	if final := readFile(t, filepath.Join(dir, "resposta-final.md")); !strings.Contains(final, "decision: pending") {
		t.Errorf("final answer:\n%s", final)
	}
}

// moot ask without --yes prints the plan and writes nothing (exit 4); a
// question has no mode, so the plan prints none, whatever the protocol.
func TestAskPlanHasNoMode(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--protocol", "council", "--lens", "security", "--lens", "cost"},
		{"--protocol", "tradeoff", "--option-a", "Cache for 60 s", "--option-b", "Read the database"},
		{"--protocol", "argue"},
	} {
		t.Run(args[1], func(t *testing.T) {
			p := newProject(t)
			r := p.moot(append([]string{"ask", "Should we cache coupon lookups?"}, args...)...).mustExit(t, 4)
			if !strings.Contains(r.stdout, "calls") || regexpMust(`(?m)^\s*mode\s`).MatchString(r.stdout) || strings.Contains(r.stdout, "mode not given") {
				t.Errorf("the plan of a question:\n%s", r.stdout)
			}
		})
	}
}

// TestPlanShowsTheCriteria: the criteria given to council and tradeoff are
// stated in the plan (and so on the cost screen, which prints the same
// lines) before anything runs.
func TestPlanShowsTheCriteria(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--protocol", "council", "--lens", "security", "--lens", "cost"},
		{"--protocol", "tradeoff", "--option-a", "Cache for 60 s", "--option-b", "Read the database"},
	} {
		t.Run(args[1], func(t *testing.T) {
			p := newProject(t)
			r := p.moot(append([]string{"ask", "Should we cache coupon lookups?", "--criteria", "latency; cost of a stale read"}, args...)...).mustExit(t, 4)
			if !regexpMust(`(?m)^\s*criteria\s+latency; cost of a stale read\s*$`).MatchString(r.stdout) {
				t.Errorf("the plan does not state the criteria:\n%s", r.stdout)
			}
		})
	}
}
