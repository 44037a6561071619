package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestBudgetMenu: the budget menu says the cap, the spend, the calls in
// flight and the call held back; raise asks a new cap (prefilled with the
// one in force) and answers it; stop and cancel answer at once.
func TestBudgetMenu(t *testing.T) {
	t.Parallel()
	reach := engine.BudgetReach{Cap: engine.Budget{MaxUSD: 0.5, MaxTokens: 40000}, SpentUSD: 0.31, SpentTokens: 30000,
		FlightTokens: 4000, NextTokens: 7000, Round: 1, Who: "agente-2", FinalWord: "judge"}
	tests := []struct {
		name string
		keys []string
		want engine.BudgetDecision
	}{
		{"raise", []string{"enter", "ctrl+a", "ctrl+k", "1", "enter", "ctrl+a", "ctrl+k", "9", "0", "0", "0", "0", "enter"},
			engine.BudgetDecision{Choice: engine.BudgetRaise, Cap: engine.Budget{MaxUSD: 1, MaxTokens: 90000}, By: "human"}},
		{"stop", []string{"down", "enter"}, engine.BudgetDecision{Choice: engine.BudgetStop, By: "human"}},
		{"cancel", []string{"down", "down", "enter"}, engine.BudgetDecision{Choice: engine.BudgetCancel, By: "human"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m, _ := liveModel(t, f, 80, 24)
			reply := make(chan budgetAnswer, 1)
			m = pump(t, m, engineMsg{then: askBudgetMsg{reach, reply}})
			text := screenText(m, f.proj)
			order := []string{"The budget cap is reached (round 1)", "Cap $0.50 and 40,000 tokens", "spent $0.31 and 30,000 tokens", "Raise the cap", "Stop now", "Cancel"}
			last := -1
			for _, want := range order {
				i := strings.Index(text, want)
				if i < 0 || i < last {
					t.Fatalf("%q missing or out of order:\n%s", want, text)
				}
				last = i
			}
			if tc.name == "stop" { // one frame of the menu at 80×24, checked and kept
				checkFrame(t, m, 80, 24, f.proj, nil)
				goldenScreen(t, m, f.proj)
			}
			if tc.name == "raise" {
				m = keys(t, m, "enter")
				if text := screenText(m, f.proj); !menuDrawn(m, menuBudgetRaise) || !strings.Contains(text, "> 0.5") || !strings.Contains(text, "> 40000") {
					t.Fatalf("the raise menu does not start from the current caps ($0.5, 40000 tokens):\n%s", text)
				}
				tc.keys = tc.keys[1:]
			}
			m = keys(t, m, tc.keys...)
			a := recv(t, reply)
			// justified: the decision the engine receives on the menu's channel; no frame shows it
			if a.d != tc.want || anyMenuDrawn(m) {
				t.Errorf("answer %+v, want %+v, the menu closed:\n%s", a.d, tc.want, screenText(m, f.proj))
			}
		})
	}
}

// TestBudgetMenuSaysTheEngineWording: the budget menu says a reached
// budget in the engine's one wording (BudgetReach.Text, which the log's
// budget decision records), as a sentence, never a wording of its own.
func TestBudgetMenuSaysTheEngineWording(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reach engine.BudgetReach
		want  string
	}{
		{"a dollar cap", engine.BudgetReach{Cap: engine.Budget{MaxUSD: 0.5, MaxTokens: 40000}, SpentUSD: 0.31, SpentTokens: 30000,
			FlightUSD: 0.04, FlightTokens: 4000, NextUSD: 0.07, NextTokens: 7000, KeepUSD: 0.1, KeepTokens: 10000, Round: 1, Who: "agente-2", FinalWord: "judge"},
			"Cap $0.50 and 40,000 tokens; spent $0.31 and 30,000 tokens; the calls in flight ≈$0.04 (4,000 tokens); the next call (agente-2) ≈$0.07 (7,000 tokens); kept for the judge ≈$0.10 (10,000 tokens). It was not started."},
		{"a token cap, the final step's call", engine.BudgetReach{Cap: engine.Budget{MaxTokens: 40000}, SpentTokens: 39000, NextTokens: 7000, Round: 1, Who: "juiz", Final: true, FinalWord: "judge"},
			"Cap 40,000 tokens; spent 39,000 tokens; the calls in flight ≈0 tokens; the next call (juiz) ≈7,000 tokens. It was not started."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.reach.Text(); !strings.EqualFold(got[:1], tc.want[:1]) || !strings.Contains(tc.want, got[1:]+".") {
				t.Fatalf("the engine says %q, the menu should say %q", got, tc.want)
			}
			f := newFixture(t)
			m, _ := liveModel(t, f, 100, 30)
			m = pump(t, m, engineMsg{then: askBudgetMsg{tc.reach, make(chan budgetAnswer, 1)}})
			if !menuDrawn(m, menuBudget) {
				t.Fatalf("no budget menu: %+v", m.dlg.menu)
			}
			form := strings.Join(strings.Fields(ansi.Strip(m.dlg.menu.form.View())), " ")
			// the wording, whatever the line breaks (huh breaks lines at "." and "," too)
			if !strings.Contains(strings.ReplaceAll(form, " ", ""), strings.ReplaceAll(tc.want, " ", "")) {
				t.Errorf("the menu says\n%s\nwant\n%s", form, tc.want)
			}
		})
	}
}

// TestCostTrendOnFinalTab: the Final tab of a finished debate says, per
// engine, its estimate against its actuals and the error of the first
// recorded full debate, within 80 columns (a cut debate in the register
// is left out of the trend); a cut debate says the budget cut it, that it
// is degraded, and shows no estimate error.
func TestCostTrendOnFinalTab(t *testing.T) {
	t.Parallel()
	first := bugfolder.CostRecord{Engines: []bugfolder.CostAccuracy{{Engine: "zeta", EstTokens: 5500, ActTokens: 16500}}}
	cut := bugfolder.CostRecord{Partial: true, Engines: []bugfolder.CostAccuracy{{Engine: "zeta", EstTokens: 15000, ActTokens: 1000}}}
	rows := []bugfolder.CostAccuracy{{Engine: "zeta", EstTokens: 15000, ActTokens: 16500}}
	tests := []struct {
		name      string
		final     *bugfolder.Final
		want, not []string
	}{
		{"full", &bugfolder.Final{CostAccuracy: rows}, []string{"tokens on zeta: ≈15k planned, 16k used (10 % over)", "in its first of 3 debates here: 200 % over (each plan learns from the last)"}, []string{"cut by the budget"}},
		{"cut", &bugfolder.Final{BudgetCut: true, Degraded: true, CostAccuracy: rows},
			[]string{"degraded: cut by the budget: the judge read round 1, the last complete one", "tokens on zeta: ≈15k planned, 16k used (not run in full: no estimate error)"}, []string{"10 % over"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := loadBrowser(t, f, 80, 24)
			m = keys(t, m, "j", "j", "j", "enter")
			if drawnScreen(m) != "debate" {
				t.Fatalf("no debate opened:\n%s", screenText(m, f.proj))
			}
			m = toTab(t, m, "Final")
			if lineWith(screenText(m, f.proj), "cost: ") == "" {
				t.Fatalf("the Final tab draws no final result:\n%s", screenText(m, f.proj))
			}

			tc.final.Round = 1
			m.dv.deb.final = tc.final
			m = pump(t, m, trendMsg{dir: m.dv.deb.dir, rows: costTrends(tc.final, []bugfolder.CostRecord{cut, first, first, cut, {Engines: rows}})})
			text := screenText(m, f.proj)
			for _, want := range tc.want {
				if !strings.Contains(text, want) {
					t.Errorf("the Final tab lacks %q:\n%s", want, text)
				}
			}
			for _, not := range tc.not {
				if strings.Contains(text, not) {
					t.Errorf("the Final tab shows %q:\n%s", not, text)
				}
			}
			for _, l := range strings.Split(text, "\n") {
				if w := len([]rune(l)); w > 80 {
					t.Errorf("a line of %d columns: %q", w, l)
				}
			}
		})
	}
}
