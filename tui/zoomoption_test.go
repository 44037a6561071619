package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/tradeoff"
)

// TestZoomShowsATradeoffsWholeOption: a pane's title cuts a long tradeoff
// option (optionLabelMax), but zooming that pane shows the option whole,
// wrapped to the window, at 80 and 60 columns.
func TestZoomShowsATradeoffsWholeOption(t *testing.T) {
	t.Parallel()
	optA := "Keep the coupon check inside the checkout transaction so an expired coupon can never be applied, even under concurrent requests"
	optB := "Move the coupon check to a cached validation service that answers in under a millisecond"
	for _, w := range []int{80, 60} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := tradeoffLive(t, f, w, 24, optA, optB)
			if panes := screenText(m, f.proj); strings.Contains(strings.Join(strings.Fields(panes), " "), optA) {
				t.Fatalf("the pane's title is not cut (nothing to prove):\n%s", panes)
			}
			m = keys(t, m, "enter")
			if !zoomShown(m) {
				t.Fatalf("enter did not zoom the pane:\n%s", screenText(m, f.proj))
			}
			text := checkFrame(t, m, w, 24, f.proj, []string{"Opção A."})
			if !strings.Contains(strings.Join(strings.Fields(text), " "), "A: "+optA) {
				t.Errorf("the zoom does not show option A whole:\n%s", text)
			}
		})
	}
}

// tradeoffLive is a live tradeoff run on bug 7 with options a and b at
// w×h: the model runs it, round 0 under way, agente-1 streaming.
func tradeoffLive(t *testing.T, f *fixture, w, h int, a, b string) Model {
	t.Helper()
	bug := f.bug(t, "7")
	s := engine.Setup{Protocol: tradeoff.Protocol{}, Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Repair, N: 2, R: 1,
		Solvers: []string{"scripted", "scripted"}, Judge: "scripted",
		Lenses: []bugfolder.Lens{{Name: "A", Text: a}, {Name: "B", Text: b}}}
	opts := f.options()
	opts.Bug, opts.Setup = bug, s
	m := sized(t, opts, w, h)
	m.run.bridge, m.run.on = newBridge(), true
	m.dv.deb = newLiveView(s)
	m.now = fixedNow
	m.screen, m.dv.tab = scrDebate, 1
	at := fixedNow.Add(-10 * time.Second)
	return pump(t, m, engineMsg{events: []engine.Event{
		{Type: engine.EvSetup, Path: bug.Dir + "/debate", Calls: 5, Time: at},
		{Type: engine.EvRoundStarted, Round: 0, Time: at},
		{Type: engine.EvCallStarted, Round: 0, SolverID: "agente-1", Role: bugfolder.RoleSolver, Engine: "scripted", Attempt: 1, Time: at},
		{Type: engine.EvOutput, Round: 0, SolverID: "agente-1", Role: bugfolder.RoleSolver, Text: "## Posição defendida\n\nOpção A.\n"},
	}})
}
