package tui

import "testing"

// TestStopSignalSaysWhetherARunWasInFlight: a stop signal over a running
// debate leaves it (resumable, Interrupted: moot says "stopped by a
// signal" and how to continue), one over the browser with nothing running
// only closes the UI (not Interrupted: moot leaves quietly; it said
// "stopped by a signal: everything is kept", as if something had been).
func TestStopSignalSaysWhetherARunWasInFlight(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, quits := pumpQuits(loadBrowser(t, f, 80, 24), StopMsg{})
	if out := m.Outcome(); !quits || out.Interrupted || out.Left {
		t.Errorf("a signal over the browser: quits %v, interrupted %v, left %v; want it closed, nothing interrupted", quits, out.Interrupted, out.Left)
	}
	live, _ := liveModel(t, f, 80, 24)
	live = keys(t, live, "q") // a menu open over the live view: the signal still leaves the run
	live = pump(t, live, StopMsg{})
	if out := live.Outcome(); !out.Interrupted || !out.Left {
		t.Errorf("a signal over a running debate: interrupted %v, left %v; want the run left, interrupted", out.Interrupted, out.Left)
	}
}
