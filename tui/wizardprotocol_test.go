package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/debate"
	"github.com/reversa/moot/protocol/tradeoff"
)

// protocolOptions are a fixture's options with the wizard's protocol
// table, a lens catalog and a bug's repair proposals, as cli passes them.
func protocolOptions(f *fixture, t *testing.T) Options {
	opts := f.options()
	opts.Bug = f.bug(t, "7")
	opts.Protocols = []engine.Protocol{debate.Protocol{}, tradeoff.Protocol{}}
	opts.Lenses = []bugfolder.Lens{{Name: "security", Text: "argue from security"}, {Name: "performance", Text: "argue from performance"}}
	opts.Proposals = func(*bugfolder.Bug) (string, string, bool) {
		return "Proposta A (agente-2): deduplicate the discount", "Proposta B (agente-1): idempotent checkout", true
	}
	return opts
}

// TestWizardProtocolStep: the wizard asks the protocol first; tradeoff
// then asks no N (two reviewers) but its rebuttal cap, speaks of
// reviewers, and its inputs page offers the repair debate's two best
// proposals as options A and B; a debate's inputs page is one lens per
// solver. Goldens at 80×24 and 140×45.
func TestWizardProtocolStep(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"140x45", 140, 45}} {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := sized(t, protocolOptions(f, t), size.w, size.h)
			wizardAsks(t, m, "protocol")
			t.Run("protocol", func(t *testing.T) { goldenScreen(t, m, f.proj) })
			tr := keys(t, m, "down", "enter")
			wizardAsks(t, tr, "basics")
			t.Run("tradeoff-basics", func(t *testing.T) { goldenScreen(t, tr, f.proj) })
			if s := screenText(tr, f.proj); strings.Contains(s, "(N)") || !strings.Contains(s, "Rebuttal rounds") || !strings.Contains(s, "Reviewer engines") {
				t.Errorf("tradeoff's basics ask N, or not its cap in its words:\n%s", s)
			}
			tr = keys(t, tr, "enter", "enter", "enter") // mode, R, strategy
			wizardAsks(t, tr, "inputs")
			if !fieldTitles(tr)["Option A"] {
				t.Fatalf("tradeoff's inputs page asks no options:\n%s", screenText(tr, f.proj))
			}
			t.Run("tradeoff-options", func(t *testing.T) { goldenScreen(t, tr, f.proj) })
			if s := screenText(tr, f.proj); !strings.Contains(s, "deduplicate the discount") || !strings.Contains(s, "runner-up") {
				t.Errorf("the options are not prefilled from the repair debate:\n%s", s)
			}
			db := sized(t, protocolOptions(f, t), size.w, size.h)         // the wizard is shared: start again
			db = keys(t, db, "enter", "enter", "enter", "enter", "enter") // debate; mode, N, R, strategy
			wizardAsks(t, db, "inputs")
			if !fieldTitles(db)["Lenses"] {
				t.Fatalf("debate: the inputs page asks no lenses:\n%s", screenText(db, f.proj))
			}

			t.Run("debate-lenses", func(t *testing.T) { goldenScreen(t, db, f.proj) })
		})
	}
}

// TestWizardToTradeoffRun walks the wizard in a real program to a tradeoff
// on the sample's scripted engine: the protocol, its basics, the options
// prefilled from the repair debate, the engines; the cost screen states
// tradeoff's formula and rebuttal cap; the run's panes are labelled by
// option, and the Final tab shows the synthesis and the pending decision.
func TestWizardToTradeoffRun(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := protocolOptions(f, t)
	opts.Now = nil
	// the synthesis is rendered off the UI goroutine once the run ends: q
	// before it arrives would show "rendering…"
	p := newProbed(New(opts), func(m Model) bool {
		s := screenText(m, "")
		// justified: a wait on the model: the run over as the model knows it (q before would leave it, not end it)
		return !m.run.on && strings.Contains(s, "Decisão humana pendente") && strings.Contains(s, "no winner, a human decides")
	})
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(140, 45))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	press := func(ks ...string) {
		for _, k := range ks {
			tm.Send(keyMsg(k))
		}
	}
	waitFor("Protocol")
	press("down", "enter")
	waitFor("Rebuttal rounds")
	press("down", "enter", "enter", "enter") // repair, R = 1, one engine
	waitFor("Option B")
	press("enter", "enter", "enter") // A, B as prefilled, no criteria
	waitFor("Synthesizer")
	press("enter", "enter", "enter") // reviewers' engine, synthesizer, timeout
	waitFor("rebuttal cap: 1 round(s)")
	press("enter")
	waitFor("agente-1 [A: Proposta A")
	p.wait(t, "the rendered synthesis", 60*time.Second)
	press("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(probed).Model
	out := final.Outcome()
	if out.Err != nil || out.Result == nil {
		t.Fatalf("outcome %+v", out)
	}
	if s := screenText(final, f.proj); !strings.Contains(s, "no winner, a human decides") || !strings.Contains(s, "2 of 2 reviewers took part") || !strings.Contains(s, "Decisão humana pendente") || strings.Contains(s, "Winner:") {
		t.Errorf("the Final tab does not render the synthesis and the pending decision in tradeoff's words:\n%s", s)
	}
	prob, err := os.ReadFile(out.Dir + "/problema.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"protocol: tradeoff", "text: 'Proposta A (agente-2): deduplicate the discount'", "### Opção B"} {
		if !strings.Contains(string(prob), want) {
			t.Errorf("problema.md lacks %q:\n%s", want, prob)
		}
	}
}

// TestMenusSpeakTheProtocol: the quorum and final-step menus take their
// role words from the protocol (the engine passes them): a tradeoff's
// speak of reviewers and the synthesizer, and its failure menu offers no
// choice of a winner (a synthesis names none); a debate's keep solvers,
// the judge and the human choice.
func TestMenusSpeakTheProtocol(t *testing.T) {
	t.Parallel()
	tr, db := engine.Describe(tradeoff.Protocol{}), engine.Describe(debate.Protocol{})
	m, _ := liveModel(t, newFixture(t), 120, 34)
	for _, tc := range []struct {
		name        string
		words       engine.Inputs
		want, never []string
	}{
		{"tradeoff", tr, []string{"of 3 reviewers answered", "Continue with the 1 valid reviewer", "failed reviewer's engine", "The synthesizer failed", "Retry the synthesizer"},
			[]string{"solver", "judge", "Choose the winner"}},
		{"debate", db, []string{"of 3 solvers answered", "Continue with the 1 valid solver", "The judge failed", "Retry the judge", "Choose the winner myself"},
			[]string{"reviewer", "synthesizer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := quorumLoss()
			q.Member, q.Members = tc.words.Member, tc.words.Members
			j := engine.JudgeFailure{Attempt: 1, Reason: "no sections", Final: tc.words.Final, NoWinner: !tc.words.Winner}
			var all string
			for _, mn := range []*menu{quorumMenu(q, make(chan quorumAnswer, 1), func(...string) bool { return false }, 80),
				judgeMenu(j, make(chan judgeAnswer, 1), false, true, true)} {
				m.dlg.openMenu(&m.frame, mn)
				all += ansi.Strip(m.dlg.menu.form.View()) + "\n"
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("the menus lack %q:\n%s", w, all)
				}
			}
			for _, w := range tc.never {
				if strings.Contains(all, w) {
					t.Errorf("the menus say %q:\n%s", w, all)
				}
			}
		})
	}
}

// TestResumeRunsTheDebatesProtocol: a debate opened from the browser is
// resumed with the protocol its problema.md names, not the default one.
func TestResumeRunsTheDebatesProtocol(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := protocolOptions(f, t)
	for _, tc := range []struct{ named, want string }{{"tradeoff", "tradeoff"}, {"", "debate"}} {
		m := New(opts)
		m.dv.deb = &debateView{protocol: tc.named}
		// justified: the protocol a resume runs shows only once the run starts; these are the options it starts with
		if got := m.dv.engineOptions(&m.frame, newBridge(), "moot resume").Protocol.Name(); got != tc.want {
			t.Errorf("problema.md names %q: resumed as %s, want %s", tc.named, got, tc.want)
		}
	}
}

// TestTradeoffQuorumMenuInARun: in a real tradeoff run whose reviewer B
// fails, the quorum menu the engine opens speaks of reviewers, and after
// continue the synthesis still waits for the human.
func TestTradeoffQuorumMenuInARun(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg, err := harness.ParseConfig(filepath.Join(f.reg.Root, "moot.yaml"), []byte("engines:\n  scripted: {kind: command, command: [\"../tools/scripted-llm.sh\"], external: false, timeout: 1m}\n  broken: {kind: command, command: [\"/bin/false\"], external: false, timeout: 10s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := protocolOptions(f, t)
	opts.Config, opts.Now = cfg, nil
	s := engine.Setup{Protocol: tradeoff.Protocol{}, Bug: opts.Bug, Lang: bugfolder.PT, Mode: bugfolder.Repair, N: 2, R: 1,
		Solvers: []string{"scripted", "broken"}, Judge: "scripted", Parallel: 2,
		Lenses: []bugfolder.Lens{{Name: "A", Text: "deduplicate the discount"}, {Name: "B", Text: "idempotent checkout"}}}
	s.Problem = tradeoff.Protocol{}.Pack(s, &bugfolder.Problem{Text: "P"}, nil)
	opts.Setup = s
	// the end is waited on the model (the run over, the pending decision
	// drawn), not on the output's bytes, which a diffing renderer may
	// write in pieces
	p := newProbed(New(opts), func(m Model) bool {
		// justified: a wait on the model: the run over as the model knows it (q before would leave it, not end it)
		return !m.run.on && strings.Contains(screenText(m, ""), "no winner, a human decides")
	})
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(140, 45))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	waitFor("Start")
	tm.Send(keyMsg("enter"))
	waitFor("1 of 2 reviewers answered validly")
	tm.Send(keyMsg("enter")) // continue with the 1 valid reviewer
	p.wait(t, "the synthesis waiting for a human", 60*time.Second)
	tm.Send(keyMsg("q"))
	out := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(probed).Outcome()
	if out.Err != nil || out.Result == nil {
		t.Fatalf("outcome %+v", out)
	}
}

// TestWizardToCouncilRun: council in the wizard asks a lens for every
// member with no "none" (each prefilled, distinct while the catalog lasts)
// and the criteria; the run goes through the cost screen to the synthesis.
func TestWizardToCouncilRun(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := protocolOptions(f, t)
	opts.Protocols = []engine.Protocol{debate.Protocol{}, council.Protocol{}, tradeoff.Protocol{}}
	opts.Lenses = append(opts.Lenses, bugfolder.Lens{Name: "cost", Text: "argue from cost"})
	opts.Now = nil
	opts.Setup.Stakes = engine.Stakes{ValueAtRisk: 250000, Valued: true, Irreversible: true} // --value-at-risk 250000 --irreversible
	// q while the synthesizer still runs would leave the debate, not end
	// it: the test waits until the model has seen the run end
	// justified: a wait on the model: the run over as the model knows it (q before would leave it, not end it)
	p := newProbed(New(opts), func(m Model) bool { return !m.run.on && m.Outcome().Result != nil })
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(140, 45))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	press := func(ks ...string) {
		for _, k := range ks {
			tm.Send(keyMsg(k))
		}
	}
	waitFor("council — a member per lens")
	press("down", "enter")
	waitFor("Members (N)")
	press("down", "enter", "enter", "enter", "enter") // repair, N = 3, R = 1, one engine
	waitFor("argues from its own lens")
	press("enter", "enter", "enter", "enter", "enter", "enter") // as prefilled: security, performance, cost; no criteria; the stakes the flags gave
	waitFor("Synthesizer")
	press("enter", "enter", "enter") // members' engine, synthesizer, timeout
	waitFor("3×(1+1) + 1 = 7 calls")
	press("enter")
	waitFor("agente-2 [performance]")
	waitFor("Pontos de consenso")
	p.wait(t, "the council finished", 60*time.Second)
	press("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(probed).Model
	out := final.Outcome()
	if out.Err != nil || out.Result == nil {
		t.Fatalf("outcome %+v", out)
	}
	prob, err := os.ReadFile(out.Dir + "/problema.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"protocol: council", "name: security", "name: performance", "name: cost", "Valor em risco: 250000", "Decisão irreversível: sim"} {
		if !strings.Contains(string(prob), want) {
			t.Errorf("problema.md lacks %q:\n%s", want, prob)
		}
	}
}
