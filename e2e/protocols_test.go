package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// protocolCase is one protocol as the per-protocol e2e tests drive it: a
// new protocol (council, argue) joins them by adding a row.
type protocolCase struct {
	name string
	// onBug and onQuestion are the arguments that run it headless on the
	// sample bug 7 (or restricted bug 8) and on a question.
	onBug      func(bug string, extra ...string) []string
	onQuestion func(extra ...string) []string
	// member is a panel id the fake fails in round failAt (a failure
	// that loses the quorum drops it, so it is not called again; one that
	// keeps it leaves it in the panel); missing is what the final step's
	// prompt says of it; final is the final step's role.
	member, missing, final string
	failAt                 int
}

var protocolCases = []protocolCase{
	{name: "tradeoff", onBug: tradeoffArgs, onQuestion: askArgs,
		member: "agente-2", missing: "REVISOR DA OPÇÃO B: AUSENTE", final: "synthesizer"},
	{name: "council", onBug: councilArgs, onQuestion: councilAsk,
		member: "agente-2", missing: "- MEMBRO performance (lente: Performance:", final: "synthesizer", failAt: 1},
}

// councilAsk runs a council of three lenses on a question, headless.
func councilAsk(extra ...string) []string {
	args := []string{"ask", "Should we cache coupon lookups?", "--protocol", "council", "-r", "1", "--yes", "--headless",
		"--lens", "security", "--lens", "performance", "--lens", "data-integrity"}
	return append(args, extra...)
}

// protocolRun is one scenario's run on a bug or a question: the debate's
// folder once it ran.
type protocolRun struct {
	target string
	args   func(pc protocolCase, extra ...string) []string
	dir    func(p *project) string
	id     func(p *project) string
}

var protocolTargets = []protocolRun{
	{target: "bug", args: func(pc protocolCase, extra ...string) []string { return pc.onBug("7", extra...) },
		dir: func(p *project) string { return p.debate() }, id: func(*project) string { return "BUG-20260715-A7K3" }},
	{target: "question", args: func(pc protocolCase, extra ...string) []string { return pc.onQuestion(extra...) },
		dir: questionDir, id: func(p *project) string { return filepath.Base(questionDir(p)) }},
}

// questionDir is the one question folder of a project ("" without one).
func questionDir(p *project) string {
	dirs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*"))
	if len(dirs) != 1 {
		return ""
	}
	return dirs[0]
}

// TestProtocolsEndToEnd drives each protocol on a bug and on a question
// with the fake model: the happy path; a failed panel member, recorded
// missing and named to the final step; a quorum loss (every member
// fails) under each --on-quorum-loss that applies; a final-step failure
// under each --on-judge-failure. list --json names the protocol on every
// row.
func TestProtocolsEndToEnd(t *testing.T) {
	t.Parallel()
	type scenario struct {
		name, plan string
		extra      []string
		code       int
		final      bool
	}
	for _, pc := range protocolCases {
		scenarios := []scenario{
			{name: "happy", code: 0, final: true},
			{name: "failed member", plan: fmt.Sprintf("%s@%d=fail", pc.member, pc.failAt), extra: []string{"--on-quorum-loss", "continue"}, code: 0, final: true},
			{name: "quorum lost, ask headless", plan: "agente-1@0=fail,agente-2@0=fail", code: 4},
			{name: "quorum lost, cancel", plan: "agente-1@0=fail,agente-2@0=fail", extra: []string{"--on-quorum-loss", "cancel"}, code: 3},
			{name: "final step fails, ask headless", plan: pc.final + "=invalid", code: 4},
			{name: "final step fails, cancel", plan: pc.final + "=invalid", extra: []string{"--on-judge-failure", "cancel"}, code: 3},
			{name: "final step fails, retry", plan: pc.final + "#1=invalid", extra: []string{"--on-judge-failure", "retry"}, code: 0, final: true},
		}
		for _, tg := range protocolTargets {
			for _, sc := range scenarios {
				t.Run(pc.name+"/"+tg.target+"/"+sc.name, func(t *testing.T) {
					p := newProject(t)
					p.Plan = sc.plan
					r := p.moot(tg.args(pc, sc.extra...)...).mustExit(t, sc.code)
					dir := tg.dir(p)
					if dir == "" {
						t.Fatalf("no debate folder:\n%s%s", r.stdout, r.stderr)
					}
					final := filepath.Join(dir, "resposta-final.md")
					if got := exists(final); got != sc.final {
						t.Fatalf("final answer written: %v, want %v\n%s%s", got, sc.final, r.stdout, r.stderr)
					}
					if sc.name == "failed member" {
						if prompt := p.prompt(1, "juiz", 1); !strings.Contains(prompt, pc.missing) {
							t.Errorf("the final step is not told %s failed (%q):\n%s", pc.member, pc.missing, prompt)
						}
						if pc.name == "tradeoff" && !strings.Contains(p.prompt(1, "agente-1", 1), "agente-2 (opção B): sem resposta válida") {
							t.Errorf("reviewer A's rebuttal is not told side B is missing:\n%s", p.prompt(1, "agente-1", 1))
						}
						if pc.failAt == 0 && p.starts(pc.member, 1) != 0 {
							t.Errorf("the failed %s was called again in round 1", pc.member)
						}
					}
					if winnerOffer.MatchString(r.stderr+r.stdout) && pc.name != "debate" {
						t.Errorf("moot offers --winner for a protocol with no winner:\n%s%s", r.stdout, r.stderr)
					}
					if got := p.list()[tg.id(p)]; got.Protocol == nil || *got.Protocol != pc.name {
						t.Errorf("list --json protocol: %+v", got.Protocol)
					}
				})
			}
		}
	}
}

// winnerOffer is an offer to choose a winner (`--winner A`).
var winnerOffer = regexpMust(`--winner [A-Z]`)

// TestProtocolsRestricted: a restricted bug never reaches an external
// engine in any role of any protocol: the run is refused (exit 2) before
// anything is written, and the fake received no prompt.
func TestProtocolsRestricted(t *testing.T) {
	t.Parallel()
	for _, pc := range protocolCases {
		for _, flag := range []string{"--solver", "--synthesizer", "--judge"} {
			t.Run(pc.name+"/"+flag, func(t *testing.T) {
				p := newProject(t)
				r := p.moot(pc.onBug("8", flag, "ext")...).mustExit(t, 2)
				if !strings.Contains(r.stderr, "restricted") {
					t.Errorf("stderr does not say why:\n%s", r.stderr)
				}
				if entries, err := os.ReadDir(filepath.Join(p.dir, "prompts")); err == nil && len(entries) > 0 {
					t.Errorf("the fake received %d prompt(s) of a restricted bug", len(entries))
				}
				if exists(p.log) {
					t.Error("an engine was called on a restricted bug")
				}
			})
		}
	}
}

// TestWinnerRefusedWithoutOne: resume --winner on a protocol whose final
// step names no winner is refused (exit 2) naming what works; show's
// hint offers only that.
func TestWinnerRefusedWithoutOne(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "synthesizer=invalid"
	p.moot(tradeoffArgs("7", "--on-judge-failure", "cancel")...).mustExit(t, 3)
	r := p.moot("resume", "7", "--winner", "A").mustExit(t, 2)
	for _, want := range []string{"names no winner", "--on-judge-failure retry", "moot decide"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, r.stderr)
		}
	}
	show := p.moot("show", "7").mustExit(t, 0).stdout
	if !strings.Contains(show, "the synthesizer failed; to retry the synthesizer") || strings.Contains(show, "--winner A") {
		t.Errorf("show's hint:\n%s", show)
	}
	if !strings.Contains(p.moot("list").mustExit(t, 0).stdout, "PROTOCOL") {
		t.Error("list has no PROTOCOL column")
	}
}

// TestDebateWithLensedSolvers: --lens on a debate freezes each solver's
// lens in problema.md, and show names them per solver.
func TestDebateWithLensedSolvers(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--lens", "security", "--lens", "performance", "--yes", "--headless").mustExit(t, 0)
	d := p.readDebate()
	if d.Problem.Lenses["agente-1"].Name != "security" || d.Problem.Lenses["agente-2"].Name != "performance" {
		t.Errorf("problema.md lenses: %+v", d.Problem.Lenses)
	}
	if show := p.moot("show", "7").mustExit(t, 0).stdout; !strings.Contains(show, "| lenses | agente-1 security, agente-2 performance |") {
		t.Errorf("show does not name the lenses:\n%s", show)
	}
	if got := p.list()["BUG-20260715-A7K3"]; got.Protocol == nil || *got.Protocol != "debate" {
		t.Errorf("list --json protocol of a debate: %+v", got.Protocol)
	}
}

// TestQuestionWithRestrictedEvidence: a question asked with a restricted
// bug's files as --evidence is restricted too: an external engine in any
// role is refused (exit 2, no prompt sent), and with local engines it
// runs, its problema.md freezing visibility: restricted for a resume.
func TestQuestionWithRestrictedEvidence(t *testing.T) {
	t.Parallel()
	const evidence = "_reversa_bugs/auth/bugs/BUG-20260720-R5T6-sessao-nao-expira/bug.md"
	for _, pc := range protocolCases {
		for _, flag := range []string{"--solver", "--synthesizer"} {
			t.Run(pc.name+"/"+flag, func(t *testing.T) {
				p := newProject(t)
				r := p.moot(pc.onQuestion("--evidence", evidence, flag, "ext")...).mustExit(t, 2)
				if !strings.Contains(r.stderr, "restricted") {
					t.Errorf("stderr does not say why:\n%s", r.stderr)
				}
				if entries, err := os.ReadDir(filepath.Join(p.dir, "prompts")); err == nil && len(entries) > 0 {
					t.Errorf("the fake received %d prompt(s) of a restricted bug's files", len(entries))
				}
			})
		}
	}
	p := newProject(t)
	p.moot(protocolCases[0].onQuestion("--evidence", evidence)...).mustExit(t, 0)
	if prob := readFile(t, filepath.Join(questionDir(p), "problema.md")); !strings.Contains(prob, "\nvisibility: restricted\n") {
		t.Errorf("problema.md does not freeze the question as restricted:\n%.600s", prob)
	}
}

// TestRestrictedCannotBeLaundered: a restricted bug's file reaches no
// external engine by another path than its own — a symlink elsewhere in
// the project given as --evidence, a restricted question's own files
// given as evidence to a new question, a symlink among a normal bug's
// evidence, or a normal bug's spec locator naming the file.
func TestRestrictedCannotBeLaundered(t *testing.T) {
	t.Parallel()
	const restricted = "_reversa_bugs/auth/bugs/BUG-20260720-R5T6-sessao-nao-expira"
	const a7k3 = "_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto-aplicado-duas-vezes"
	council := protocolCases[0]
	cases := []struct {
		name  string
		setup func(p *project) []string // the command to run with ext
	}{
		{"symlink given as evidence", func(p *project) []string {
			link := filepath.Join(p.dir, "src", "innocent.md")
			os.MkdirAll(filepath.Dir(link), 0o755)
			if err := os.Symlink(filepath.Join("..", restricted, "evidence", "reproduction.md"), link); err != nil {
				t.Fatal(err)
			}
			return council.onQuestion("--evidence", "src/innocent.md", "--synthesizer", "ext")
		}},
		{"a restricted question's files given as evidence", func(p *project) []string {
			p.moot(council.onQuestion("--evidence", restricted+"/evidence/reproduction.md")...).mustExit(t, 0)
			prob, err := filepath.Rel(p.dir, filepath.Join(questionDir(p), "problema.md"))
			if err != nil {
				t.Fatal(err)
			}
			return []string{"ask", "Launder it", "--protocol", "tradeoff", "--option-a", "a", "--option-b", "b", "-r", "0", "--yes", "--synthesizer", "ext", "--evidence", prob}
		}},
		{"symlink among a normal bug's evidence", func(p *project) []string {
			link := filepath.Join(p.dir, a7k3, "evidence", "zz-link.md")
			if err := os.Symlink(filepath.Join("..", "..", "..", "..", "auth", "bugs", filepath.Base(restricted), "evidence", "reproduction.md"), link); err != nil {
				t.Fatal(err)
			}
			return []string{"run", "7", "--mode", "diagnosis", "-r", "0", "--yes", "--headless", "--solver", "ext"}
		}},
		{"a normal bug's spec locator naming the file", func(p *project) []string {
			bug := filepath.Join(p.dir, a7k3, "bug.md")
			raw := readFile(t, bug)
			raw = strings.Replace(raw, "  specs:\n", "  specs:\n    - "+restricted+"/evidence/reproduction.md\n", 1)
			if err := os.WriteFile(bug, []byte(raw), 0o600); err != nil {
				t.Fatal(err)
			}
			return []string{"run", "7", "--mode", "diagnosis", "-r", "0", "--yes", "--headless", "--judge", "ext"}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newProject(t)
			args := c.setup(p)
			before := promptCount(p)
			r := p.moot(args...).mustExit(t, 2)
			if !strings.Contains(r.stderr, "restricted") {
				t.Errorf("stderr does not say why:\n%s", r.stderr)
			}
			if n := promptCount(p); n != before {
				t.Errorf("the fake received %d prompt(s) after the refusal", n-before)
			}
		})
	}
}

// promptCount is how many prompts the fake engine has received.
func promptCount(p *project) int {
	entries, _ := os.ReadDir(filepath.Join(p.dir, "prompts"))
	return len(entries)
}

// TestRestrictedResumeRefusesAnAcceptedExternalEngine: an engine that
// became external since a restricted debate began is refused on resume,
// even when the engine change is accepted (--accept-engine-change accepts
// a different engine, never a way out of the restricted rule): exit 2, no
// call made, on a bug and on a question restricted by its evidence.
func TestRestrictedResumeRefusesAnAcceptedExternalEngine(t *testing.T) {
	t.Parallel()
	const restricted = "_reversa_bugs/auth/bugs/BUG-20260720-R5T6-sessao-nao-expira/evidence/reproduction.md"
	for _, tc := range []struct {
		name  string
		start []string
	}{
		{"bug", []string{"run", "8", "--protocol", "council", "--mode", "repair", "-r", "1", "--lens", "security", "--lens", "cost", "--yes", "--headless"}},
		{"question", []string{"ask", "Is session expiry safe?", "--protocol", "tradeoff", "--option-a", "a", "--option-b", "b", "-r", "0", "--yes", "--evidence", restricted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			p.env = []string{"FAKE_DELAY_MS=3000"}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			first := p.cmd(ctx, tc.start...)
			if err := first.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the first calls", 30*time.Second, func() bool {
				ms, _ := filepath.Glob(filepath.Join(p.dir, "_reversa_bugs", "*", "bugs", "*", "debate", "eventos.jsonl"))
				qs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*", "eventos.jsonl"))
				for _, f := range append(ms, qs...) {
					if b, _ := os.ReadFile(f); strings.Contains(string(b), `"call_started"`) {
						return true
					}
				}
				return false
			})
			first.Process.Signal(syscall.SIGTERM)
			first.Wait()
			p.env = nil
			cfg := strings.Replace(readFile(t, filepath.Join(p.dir, "_reversa_bugs", "moot.yaml")), "    external: false\n", "    external: true\n", 1) // zeta-engine, every role's
			target := "8"
			if tc.name == "question" {
				dirs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*"))
				target = filepath.Base(dirs[0])
			}
			// the engines file changed in place, or another one given
			other := filepath.Join(t.TempDir(), "engines.yaml")
			if err := os.WriteFile(other, []byte(cfg), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{}, {"--config", other}} {
				if len(args) == 0 {
					p.writeConfig(cfg)
				}
				before := promptCount(p)
				r := p.moot(append([]string{"resume", target, "--yes", "--headless", "--accept-engine-change"}, args...)...).mustExit(t, 2)
				if !strings.Contains(r.stderr, "restricted") {
					t.Errorf("%v: stderr does not say why:\n%s", args, r.stderr)
				}
				if n := promptCount(p); n != before {
					t.Errorf("%v: %d call(s) reached the now-external engine", args, n-before)
				}
			}
		})
	}
}

// TestRestrictedAddendumStaysOut: an addendum in force of a restricted bug
// that targets a section a normal bug locates is left out of that bug's P
// (named in a note, its text never copied), so even an external engine
// debating the normal bug never reads it.
func TestRestrictedAddendumStaysOut(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	add := filepath.Join(p.dir, "_reversa_sdd", "addenda", "bug-BUG-20260720-R5T6-v001.md")
	if err := os.WriteFile(add, []byte("# Adendo v001 — BUG-20260720-R5T6\n\n- Seção alvo: `sdd/checkout.md#regra-desconto-cumulativo`\n- Vigência: a partir de 2026-07-01\n\nSECRET-ADDENDUM-MARKER: the vault's session key rotation.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.moot("run", "7", "--mode", "diagnosis", "-n", "2", "-r", "0", "--yes", "--headless", "--solver", "ext", "--judge", "ext").mustExit(t, 0)
	prompts, _ := filepath.Glob(filepath.Join(p.dir, "prompts", "*"))
	if len(prompts) == 0 {
		t.Fatal("no prompt recorded")
	}
	for _, f := range prompts {
		if strings.Contains(readFile(t, f), "SECRET-ADDENDUM-MARKER") {
			t.Errorf("%s carries the restricted bug's addendum", filepath.Base(f))
		}
	}
	prob := readFile(t, filepath.Join(p.debate(), "problema.md"))
	if strings.Contains(prob, "SECRET-ADDENDUM-MARKER") || !strings.Contains(prob, "bug restrito") {
		t.Errorf("problema.md does not leave the addendum out with a note:\n%.3000s", prob)
	}
}
