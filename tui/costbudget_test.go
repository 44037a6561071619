package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/debate"
)

// TestCostScreenRefusalFirst: a refusal that keeps the debate from
// starting (a judge of the solvers' family) stands at the top of the cost
// screen, above the warnings, with no scrolling at 80×24; Start is not
// the focus, and Enter on it says why and shows the refusal.
func TestCostScreenRefusalFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  sol: {kind: command, command: [x], external: false, model: gpt-5}\n  jud: {kind: command, command: [x], external: false, family: openai}\n"))
	if err != nil {
		t.Fatal(err)
	}
	bug := f.bug(t, "7")
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			opts := f.options()
			opts.Config, opts.Bug = cfg, bug
			opts.Setup = engine.Setup{Protocol: debate.Protocol{}, Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2,
				Solvers: []string{"sol", "sol", "sol"}, Judge: "jud"}
			m := sized(t, opts, size[0], size[1])
			if drawnScreen(m) != "cost" || !strings.Contains(screenText(m, f.proj), "Refused") {
				t.Fatalf("the cost screen draws no refusal:\n%s", screenText(m, f.proj))
			}
			text := screenText(m, f.proj)
			flat := strings.Join(strings.Fields(text), " ")
			refused := strings.Index(flat, "Refused — this debate cannot start ✗")
			if refused < 0 || !strings.Contains(flat, "openai family") {
				t.Fatalf("the refusal is not on screen without scrolling:\n%s", text)
			}
			if w := strings.Index(flat, "Warnings"); w >= 0 && w < refused {
				t.Errorf("the warnings stand above the refusal:\n%s", text)
			}
			if strings.Contains(text, "▸ Start ◂") {
				t.Errorf("Start has the focus of a debate that cannot start")
			}
			goldenScreen(t, m, f.proj)
			m.cost.button, m.cost.scroll = 0, m.cost.clampScroll(&m.frame, 99)
			m = pump(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
			// justified: the scroll offset; the refusal may fit the window at any offset
			if drawnScreen(m) != "cost" || m.cost.scroll != 0 || !strings.Contains(screenText(m, f.proj), "Refused") {
				t.Errorf("Enter on Start did not show the refusal (scroll %d):\n%s", m.cost.scroll, screenText(m, f.proj))
			}
		})
	}
}

// unstableFailure is the judge failure an unstable order-swap check
// reports: A with the labels in order, C reversed.
func unstableFailure() engine.JudgeFailure {
	return engine.JudgeFailure{Attempt: 2, Reason: "unstable verdict: the judge chose Proposta A with the proposals in label order and Proposta C (shown as Proposta A) with every proposal moved and relabelled (both answers kept in juiz/)",
		Winner: "A", ReversedWinner: "C", RetryUSD: 0.008, RetryCalls: 2, Labels: []engine.LabelPreview{{Label: "A", Preview: "H1: o recálculo"}, {Label: "B", Preview: "H2: a corrida"}, {Label: "C", Preview: "H3: o cupom"}}}
}

// menuParagraph is the open menu's text from the line holding from to the
// line before the one holding to, each line trimmed, blank ones left out.
func menuParagraph(t *testing.T, m Model, from, to string) []string {
	t.Helper()
	var out []string
	in := false
	for _, l := range strings.Split(ansi.Strip(m.dlg.menu.form.WithWidth(m.lay.menuFormW).View()), "\n") {
		l = strings.Trim(l, " ┃")
		switch {
		case strings.Contains(l, from):
			in = true
			continue
		case strings.Contains(l, to):
			in = false
		}
		if in && l != "" {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no text between %q and %q in the menu", from, to)
	}
	return out
}

// wrappedOnce reports the first line break that is not a greedy word wrap
// at the paragraph's width: the next line's first word would have fitted
// (a text wrapped twice, at two widths, breaks like that).
func wrappedOnce(lines []string) string {
	width := 0
	for _, l := range lines {
		width = max(width, ansi.StringWidth(l))
	}
	for i := 0; i+1 < len(lines); i++ {
		next := strings.Fields(lines[i+1])[0]
		if ansi.StringWidth(lines[i])+1+ansi.StringWidth(next) <= width {
			return lines[i] + " / " + lines[i+1]
		}
	}
	return ""
}

// TestUnstablePickerSaysEachOrder: after an unstable verdict the judge
// menu's text wraps once, at word boundaries, and the picker says which
// winner each order gave.
func TestUnstablePickerSaysEachOrder(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m, _ := liveModel(t, f, size[0], size[1])
			m = pump(t, m, engineMsg{then: askJudgeMsg{unstableFailure(), make(chan judgeAnswer, 1)}})
			if bad := wrappedOnce(menuParagraph(t, m, "The judge failed", "Nothing is invented")); bad != "" {
				t.Errorf("the failure text breaks mid-line: %q\n%s", bad, screenText(m, f.proj))
			}
			m = keys(t, m, "down", "enter")
			if !menuDrawn(m, menuJudgeHuman) {
				t.Fatalf("the picker is not open: %+v", m.dlg.menu)
			}
			text := screenText(m, f.proj)
			for _, want := range []string{"chose A (labels in order) · C (proposals moved)", "proposal A (labels in order) —", "proposal C (moved) —", "proposal B —", "Back to the judge menu"} {
				if !strings.Contains(text, want) {
					t.Errorf("the picker lacks %q:\n%s", want, text)
				}
			}
			goldenScreen(t, m, f.proj)
		})
	}
}

// TestBudgetMenuFiguresAreCurrent: the budget menu says the spend and the
// calls in flight as they are when it is shown, again as a call in flight
// finishes while it waits, and a refused cap is judged and said on them
// (the menu said "spent 3255 tokens" while the header had 6.8k).
func TestBudgetMenuFiguresAreCurrent(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			spent, flight := 5000, 1500 // the calls in flight moved since the engine asked
			reach := engine.BudgetReach{Cap: engine.Budget{MaxTokens: 9000}, SpentTokens: 3255, FlightTokens: 3000, NextTokens: 2500, Round: 1, Who: "agente-2", FinalWord: "judge",
				Now: func() (float64, int, float64, int) { return 0, spent, 0, flight }}
			f := newFixture(t)
			m, _ := liveModel(t, f, size[0], size[1])
			reply := make(chan budgetAnswer, 1)
			m = pump(t, m, engineMsg{then: askBudgetMsg{reach, reply}})
			// the menu's own text, its lines joined (the frame's borders sit between them)
			flat := func() string {
				return strings.Join(strings.Fields(ansi.Strip(m.dlg.menu.form.WithWidth(m.lay.menuFormW).View())), " ")
			}
			if !strings.Contains(flat(), "spent 5,000 tokens; the calls in flight ≈1,500 tokens") {
				t.Errorf("the menu does not say the spend as it is when shown:\n%s", screenText(m, f.proj))
			}
			spent, flight = 6800, 0
			m = keys(t, m, "down") // the choice survives the redraw
			m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvCallFinished, Round: 1, SolverID: "agente-1", Status: bugfolder.StatusOK, TokensIn: 1200, TokensOut: 600}}})
			if !strings.Contains(flat(), "spent 6,800 tokens; the calls in flight ≈0 tokens") || !strings.Contains(flat(), "> Stop now") {
				t.Errorf("the menu did not follow the call that finished, its choice kept on Stop:\n%s", screenText(m, f.proj))
			}
			shown := screenText(m, f.proj)                                                          // kept as the golden screen once the refusal is checked too
			m = keys(t, m, "up", "enter", "enter", "ctrl+a", "ctrl+k", "9", "0", "0", "1", "enter") // raise: no dollar cap, 9001 tokens
			if !menuDrawn(m, menuBudgetRaise) {
				t.Fatalf("a refused cap left the raise menu: %+v", m.dlg.menu)
			}
			if why := strings.Join(menuParagraph(t, m, "That cap was not taken", "New cap in dollars"), " "); !strings.Contains(why, "spent 6,800 tokens, and with the calls in flight and that call it needs ≈9,300") {
				t.Errorf("the refusal is not said on the spend as it is now:\n%s", screenText(m, f.proj))
			}
			golden.RequireEqual(t, []byte(shown))
		})
	}
}

// TestBudgetCutHeader: after a stop at the budget cap in round 1 the live
// header says the cut, never "round 2 of 2" as the judge starts on round
// 0, and the calls still to come leave out those the cut never runs.
func TestBudgetCutHeader(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		w, h       int
		want, lost string
	}{
		{80, 24, "r1■/2", "r2/2"},
		{140, 45, "cut by the budget at round 1 of 2", "round 2 of 2"},
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.w, tc.h), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m, _ := liveModel(t, f, tc.w, tc.h)
			var evs []engine.Event
			for _, id := range []string{"agente-2", "agente-3"} {
				evs = append(evs, engine.Event{Type: engine.EvCallFinished, Round: 0, SolverID: id, Role: bugfolder.RoleSolver, Status: "ok", TokensIn: 2000, TokensOut: 500})
			}
			evs = append(evs, engine.Event{Type: engine.EvRoundStarted, Round: 1},
				engine.Event{Type: engine.EvCallStarted, Round: 1, SolverID: "agente-1", Role: bugfolder.RoleSolver, Engine: "scripted", Attempt: 1},
				engine.Event{Type: engine.EvCallFinished, Round: 1, SolverID: "agente-1", Role: bugfolder.RoleSolver, Status: "ok", TokensIn: 2000, TokensOut: 500},
				engine.Event{Type: engine.EvDecision, Point: bugfolder.PointBudget, Choice: string(engine.BudgetStop), By: "human", Round: 1},
				engine.Event{Type: engine.EvJudgeStarted, Round: 0, Engine: "scripted", Attempt: 1})
			m = pump(t, m, engineMsg{events: evs})
			head := headerLine(m)
			if !strings.Contains(head, tc.want) || strings.Contains(head, tc.lost) {
				t.Errorf("header %q: want %q, never %q", head, tc.want, tc.lost)
			}
			if made, planned, ok := callsFigure(m); !ok || planned != made+1 {
				t.Errorf("header %q: planned %d calls with %d made, want only the judge to come", head, planned, made)
			}
			goldenScreen(t, m, f.proj)
		})
	}
}

// TestEstimateWordsAgree: the estimate's "+unknown" is the plan's — its
// event says an engine it priced has no price (engine's
// TestPlanEventSaysCostUnknown) — so a call that recorded no cost (which
// the live view and the files count differently) never changes it.
func TestEstimateWordsAgree(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		planUnknown bool
		callNoUSD   bool
		want        string
	}{
		{"priced plan, every call priced", false, false, "≈$0.07"},
		{"priced plan, a call without cost", false, true, "≈$0.07"},
		{"an unpriced engine planned", true, false, "≈$0.07+unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m, _ := liveModel(t, f, 140, 45)
			plan := engine.Event{Type: engine.EvPlan, USD: 0.07, CostUnknown: tc.planUnknown,
				Estimates: []bugfolder.CostAccuracy{{Engine: "priced", EstTokens: 1000, EstUSD: 0.07}, {Engine: "free", EstTokens: 1000}}}
			m = pump(t, m, engineMsg{events: []engine.Event{plan}})
			m.dv.deb.unpriced = tc.callNoUSD
			// justified: the Final tab draws the estimate only once a final exists; this run has none yet
			if got := m.dv.estimateWords(); got != tc.want {
				t.Errorf("the Final tab's estimate reads %q, want %q", got, tc.want)
			}
			raw, err := json.Marshal(plan) // as the files say it (an unknown usd is null)
			if err != nil {
				t.Fatal(err)
			}
			var logged engine.Event
			if err := json.Unmarshal(raw, &logged); err != nil {
				t.Fatal(err)
			}
			m.dv.deb.recordPlan(logged)
			// justified: as above
			if got := m.dv.estimateWords(); got != tc.want {
				t.Errorf("read from the log, the estimate reads %q, want %q", got, tc.want)
			}

		})
	}
}
