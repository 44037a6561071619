package tui

import (
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestHeaderMoneySaysOneThingFromStartToEnd: the live header's money
// reads "unknown" from the first frame when the plan priced no engine —
// before any call ends, after the first, at the end — as moot list and
// moot show say it; never a $0.00 that turns into "unknown". A plan that
// priced every engine reads $0.00 before its first call, which is true.
func TestHeaderMoneySaysOneThingFromStartToEnd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		priced  bool
		cost    float64
		want    []string // at the start, after the first call, at the end
		never   string
		unknown bool
	}{
		{name: "nothing priced", want: []string{"unknown", "unknown", "unknown"}, never: "$0.00", unknown: true},
		{name: "every engine priced", priced: true, cost: 0.01, want: []string{"$0.00", "$0.01", "$0.02"}, never: "unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m, _ := liveModel(t, f, 140, 45)
			s := m.opts.Setup
			m.dv.deb = newLiveView(s)
			m.dv.deb.sessionStart = fixedNow
			m = pump(t, m, engineMsg{events: []engine.Event{
				{Type: engine.EvSetup, Path: s.Bug.Dir + "/debate", Calls: 10, Time: fixedNow},
				{Type: engine.EvPlan, Calls: 10, USD: 0.1, CostUnknown: tc.unknown, Time: fixedNow},
				{Type: engine.EvRoundStarted, Round: 0, Time: fixedNow},
				{Type: engine.EvCallStarted, Round: 0, SolverID: "agente-1", Role: bugfolder.RoleSolver, Attempt: 1, Time: fixedNow},
			}})
			seen := []string{headerFigure(m, "money")}
			m = pump(t, m, engineMsg{events: []engine.Event{
				{Type: engine.EvCallFinished, Round: 0, SolverID: "agente-1", Role: bugfolder.RoleSolver, Attempt: 1, Status: "ok", TokensIn: 100, CostUSD: tc.cost, CostUnknown: tc.unknown, Time: fixedNow},
			}})
			seen = append(seen, headerFigure(m, "money"))
			m = pump(t, m, engineMsg{events: []engine.Event{
				{Type: engine.EvDebateFinished, Outcome: bugfolder.OutcomeDone, Calls: 2, Tokens: 200, USD: 2 * tc.cost, CostUnknown: tc.unknown, Time: fixedNow},
			}})
			seen = append(seen, headerFigure(m, "money"))
			if strings.Join(seen, " → ") != strings.Join(tc.want, " → ") {
				t.Errorf("the header's money read %s, want %s", strings.Join(seen, " → "), strings.Join(tc.want, " → "))
			}
			for _, s := range seen {
				if strings.Contains(s, tc.never) {
					t.Errorf("the header read %q", s)
				}
			}
		})
	}
}
