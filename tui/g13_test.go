package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestHeaderMoneyIsTheSharedTotal (g13, 1): the header's money is the one
// figure list, the browser and show give (bugfolder.CallTotals, priced by
// what the calls recorded): an engine the engines file gives no price
// (codex, a command engine) whose calls recorded their cost is no
// "+unknown"; a call that recorded no cost is.
func TestHeaderMoneyIsTheSharedTotal(t *testing.T) {
	f := newFixture(t)
	t.Run("a debate read from its folder", func(t *testing.T) {
		m := sized(t, f.options(), 160, 30)
		m = pump(t, m, loadDebateCmd(f.bug(t, "5"))())
		got := ansi.Strip(m.debateHeader())
		if !strings.Contains(got, "$0.04") || strings.Contains(got, "unknown") {
			t.Errorf("header %q: want $0.04 as moot list says, no +unknown", got)
		}
		goldenScreen(t, m, f.proj)
	})
	t.Run("a run shown live", func(t *testing.T) {
		m, _ := liveModel(t, f, 160, 30)
		m.deb = newLiveView(m.opts.Setup) // scripted, which the engines file gives no price
		m.deb.sessionStart = fixedNow
		m.deb.apply(engine.Event{Type: engine.EvCallFinished, SolverID: "agente-1", Role: bugfolder.RoleSolver, Attempt: 1, Status: "ok", TokensIn: 100, CostUSD: 0.03})
		if got := ansi.Strip(m.debateHeader()); !strings.Contains(got, "$0.03 ·") {
			t.Errorf("header %q: every call made is priced, want $0.03", got)
		}
		m.deb.apply(engine.Event{Type: engine.EvCallFinished, SolverID: "agente-2", Role: bugfolder.RoleSolver, Attempt: 1, Status: "ok", TokensIn: 100, CostUnknown: true})
		if got := ansi.Strip(m.debateHeader()); !strings.Contains(got, "$0.03+unknown") {
			t.Errorf("header %q: a call without a price, want $0.03+unknown", got)
		}
	})
}
