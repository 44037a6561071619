package tui

import (
	"strings"
	"testing"

	"github.com/reversa/moot/engine"
)

// TestBudgetRaiseRefusedSaysWhy: a raise that would not pay the call held
// back (or does not lift the cap) opens the raise menu again saying why,
// and answers nothing; a cap that pays is answered.
func TestBudgetRaiseRefusedSaysWhy(t *testing.T) {
	t.Parallel()
	reach := engine.BudgetReach{Cap: engine.Budget{MaxTokens: 40000}, SpentTokens: 30000,
		FlightTokens: 4000, NextTokens: 7000, Round: 1, Who: "agente-2", FinalWord: "judge"}
	tests := []struct {
		name, typed, want string
	}{
		{"below the need", "40500", "does not pay the call held back"},
		{"not higher", "39000", "must be higher than 40,000 tokens"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m, _ := liveModel(t, f, 80, 24)
			reply := make(chan budgetAnswer, 1)
			m = pump(t, m, engineMsg{then: askBudgetMsg{reach, reply}})
			m = keys(t, m, "enter", "enter")
			m = keys(t, m, append([]string{"ctrl+a", "ctrl+k"}, append(strings.Split(tc.typed, ""), "enter")...)...)
			if !menuDrawn(m, menuBudgetRaise) {
				t.Fatalf("a refused raise left the raise menu: %+v", m.dlg.menu)
			}
			if text := screenText(m, f.proj); !strings.Contains(text, "That cap was not taken") || !strings.Contains(strings.Join(strings.Fields(text), " "), tc.want) {
				t.Errorf("the raise menu does not say why %s was refused (%q):\n%s", tc.typed, tc.want, text)
			}
			select {
			case a := <-reply:
				t.Fatalf("a refused raise was answered: %+v", a.d)
			default:
			}
			keys(t, m, "enter", "ctrl+a", "ctrl+k", "9", "0", "0", "0", "0", "enter")
			// justified: the decision the engine receives on the menu's channel; no frame shows it
			if a := recv(t, reply); a.d.Choice != engine.BudgetRaise || a.d.Cap.MaxTokens != 90000 {
				t.Errorf("answer %+v", a.d)
			}
		})
	}
}

// TestCostLinesNotPlanned: an engine the plan never priced (a judge
// swapped in) shows "not in the plan" on the Final tab, never "+0 %".
func TestCostLinesNotPlanned(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 80, 24)
	m.dv.deb.trend = []costTrend{{engine: "omega", est: 0, act: 5000}, {engine: "zeta-engine", est: 1000, act: 1100, now: 0.1}}
	got := strings.Join(m.dv.costLines(&m.frame, nil), "\n")
	if !strings.Contains(got, "tokens on omega: not in the plan, 5.0k used") || strings.Contains(got, "omega: 0") || !strings.Contains(got, "(10 % over)") {
		t.Errorf("cost lines:\n%s", got)
	}
}

// TestBudgetStopWithoutFinalSaysSo: "Stop now" when the final call itself
// does not fit says what happened and shows the true status (waiting),
// never a silent "running".
func TestBudgetStopWithoutFinalSaysSo(t *testing.T) {
	t.Parallel()
	reach := engine.BudgetReach{Cap: engine.Budget{MaxTokens: 40000}, SpentTokens: 39000, NextTokens: 7000, Round: 1, Who: "juiz", Final: true, FinalWord: "judge"}
	f := newFixture(t)
	m, _ := liveModel(t, f, 100, 30)
	reply := make(chan budgetAnswer, 1)
	m = pump(t, m, engineMsg{then: askBudgetMsg{reach, reply}})
	m = keys(t, m, "down", "enter")
	// justified: the decision the engine receives on the menu's channel; no frame shows it
	if a := recv(t, reply); a.d.Choice != engine.BudgetStop {
		t.Fatalf("answer %+v", a.d)
	}
	text := strings.Join(strings.Fields(screenText(m, f.proj)), " ")
	if !strings.HasSuffix(headerLine(m), " · waiting") || !strings.Contains(text, "stopped at the budget cap") || !strings.Contains(text, "cannot pay the judge's call") {
		t.Errorf("the header does not say waiting, or the screen does not say the stop could not pay the judge:\n%s", screenText(m, f.proj))
	}

}
