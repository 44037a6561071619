package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

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
			if m.screen != scrCost || m.cost.plan == nil || len(m.cost.plan.Refusals) == 0 {
				t.Fatalf("screen %v plan %v err %v", m.screen, m.cost.plan, m.cost.err)
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
			if m.cost.button == 0 {
				t.Errorf("Start has the focus of a debate that cannot start")
			}
			goldenScreen(t, m, f.proj)
			m.cost.button, m.cost.scroll = 0, m.clampCostScroll(99)
			m = pump(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
			if m.screen != scrCost || m.cost.scroll != 0 || !strings.Contains(screenText(m, f.proj), "Refused") {
				t.Errorf("Enter on Start did not show the refusal (screen %v, scroll %d):\n%s", m.screen, m.cost.scroll, screenText(m, f.proj))
			}
		})
	}
}
