package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/debate"
)

// TestUnstableVerdictOpensTheJudgeMenu runs real programs: the sample's
// scripted judge names whichever proposal it is shown first, so the
// order-swap check (--verify-judge) finds its verdict unstable; the judge
// menu opens saying so, its retry counts two calls, the human choice
// settles it, and both judge answers stay on disk.
func TestUnstableVerdictOpensTheJudgeMenu(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "7")
	opts := f.options()
	opts.Now = nil
	opts.Bug = bug
	opts.Setup = engine.Setup{Protocol: debate.Protocol{}, Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 2, R: 0,
		Solvers: []string{"scripted", "scripted"}, Judge: "scripted", Parallel: 2, VerifyJudge: true}
	tm := teatest.NewTestModel(t, New(opts), teatest.WithInitialTermSize(120, 40))
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(bug.Dir, bugfolder.DebateDir, "eventos.jsonl"))
			t.Logf("log:\n%s", b)
		}
	})
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	waitFor("order-swap check = 4 calls")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter}) // Start
	waitFor("Choose the winner myself")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown}) // past the retry on another engine
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	// the picker names the winner of each order the check logged (typed
	// fields, not read back from the reason's prose)
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("proposal B")) && bytes.Contains(b, []byte("(labels in order)")) && bytes.Contains(b, []byte("(moved)"))
	}, teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor("Winner:")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	out := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(Model).Outcome()
	if out.Err != nil || out.Result == nil || out.Result.Outcome != engine.OutcomeDone {
		t.Fatalf("outcome %+v", out)
	}
	dir := filepath.Join(bug.Dir, bugfolder.DebateDir)
	d, err := bugfolder.ReadDebate(dir, bugfolder.PT)
	if err != nil || d.Final == nil {
		t.Fatalf("debate %v %v", d, err)
	}
	if d.Final.DecidedBy != "human" || d.Final.Winner != "B" || len(d.JudgeAttempts) != 2 {
		t.Errorf("final by %s, winner %s, judge attempts kept %d", d.Final.DecidedBy, d.Final.Winner, len(d.JudgeAttempts))
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "resposta-final.md"))
	if !strings.Contains(string(raw), "judge_order_check: unstable") {
		t.Errorf("the final answer does not record the unstable check:\n%s", raw)
	}
}

// TestJudgeMenuSaysUnstable: the judge menu after an unstable verdict says
// why, and that a retry makes two calls (the check runs again).
func TestJudgeMenuSaysUnstable(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 120, 34)
	j := engine.JudgeFailure{Attempt: 2, Reason: "unstable verdict: the judge chose Proposta A with the proposals in label order and Proposta B (shown as Proposta C) with every proposal moved and relabelled (both answers kept in juiz/)",
		RetryUSD: 0.008, RetryCalls: 2, Labels: []engine.LabelPreview{{Label: "A", Preview: "H1"}, {Label: "B", Preview: "H2"}}}
	m = pump(t, m, engineMsg{then: askJudgeMsg{j, make(chan judgeAnswer, 1)}})
	text := strings.Join(strings.Fields(screenText(m, f.proj)), " ")
	for _, want := range []string{"The judge failed (attempt 2)", "unstable verdict: the judge chose Proposta A", "Retry the judge (+2 calls, ≈$0.0080", "Choose the winner myself"} {
		if !strings.Contains(text, want) {
			t.Errorf("judge menu lacks %q:\n%s", want, screenText(m, f.proj))
		}
	}
}

// TestCostScreenRefusesASameFamilyJudge: the cost screen shows the judge
// family rule's refusal (naming the family and both engines) and will not
// start; --allow-same-family, carried in the setup, lifts it.
func TestCostScreenRefusesASameFamilyJudge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  sol: {kind: command, command: [x], external: false, model: gpt-5}\n  jud: {kind: command, command: [x], external: false, family: openai}\n"))
	if err != nil {
		t.Fatal(err)
	}
	bug := f.bug(t, "7")
	for _, allow := range []bool{false, true} {
		opts := f.options()
		opts.Config, opts.Bug = cfg, bug
		opts.Setup = engine.Setup{Protocol: debate.Protocol{}, Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 2, R: 1,
			Solvers: []string{"sol", "sol"}, Judge: "jud", AllowSameFamily: allow}
		m := sized(t, opts, 120, 40)
		if !costPriced(m) {
			t.Fatalf("no priced plan on the cost screen:\n%s", screenText(m, ""))
		}

		text := strings.Join(strings.Fields(screenText(m, f.proj)), " ")
		refused := strings.Contains(text, "Refused") && strings.Contains(text, "openai family") && strings.Contains(text, "jud") && strings.Contains(text, "sol")
		if refused == allow {
			t.Errorf("allow %v: refused %v:\n%s", allow, refused, screenText(m, f.proj))
		}
		if allow && !strings.Contains(text, "(same family allowed)") {
			t.Errorf("the setup line does not say the rule is lifted:\n%s", screenText(m, f.proj))
		}
	}
}
