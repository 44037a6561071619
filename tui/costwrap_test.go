package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/council"
)

// TestCouncilCostScreenWrapsItsStakesAndLimits: the council's cost
// screen says what its stakes and its time limits mean whole, wrapped
// under their key, never cut ("the synthesis escalate…", "--timeo…"), at
// 60, 80 and 140 columns.
func TestCouncilCostScreenWrapsItsStakesAndLimits(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{60, 30}, {80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			m, _ := liveModel(t, newFixture(t), sz[0], sz[1])
			m.cost = costState{setup: engine.Setup{Bug: &bugfolder.Bug{ID: "BUG-20260715-A7K3"}, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Judge: "scripted", Protocol: council.Protocol{},
				Solvers: []string{"scripted", "scripted", "scripted"}, Stakes: engine.Stakes{ValueAtRisk: 5000, Valued: true, Irreversible: true},
				Lenses: []bugfolder.Lens{{Name: "security", Text: "Security: you defend confidentiality."}, {Name: "cfo", Text: "Cost: you defend the budget."}, {Name: "sre", Text: "Operations: you defend uptime."}}}}
			shown := ansi.Strip(m.cost.text(&m.frame))
			for i, l := range strings.Split(shown, "\n") {
				if n := ansi.StringWidth(l); n > sz[0] {
					t.Errorf("line %d is %d wide: %q", i, n, l)
				}
			}
			text := strings.Join(strings.Fields(shown), " ")
			for _, want := range []string{"frozen in problema.md; the synthesis escalates on them", "--timeout (or the engine's own), --round-timeout and --debate-timeout override them"} {
				if !strings.Contains(text, want) {
					t.Errorf("the cost screen does not say %q whole:\n%s", want, shown)
				}
			}
			golden.RequireEqual(t, []byte(shown))
		})
	}
}
