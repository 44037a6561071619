package tui

import (
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// countPlans counts the plans priced (engine.NewPlan, which reads every
// past final answer of the register) by the fixture's models.
func countPlans(f *fixture) *atomic.Int32 {
	var n atomic.Int32
	f.planOf = func(s engine.Setup, cfg *harness.Config) (*engine.Plan, error) {
		n.Add(1)
		return engine.NewPlan(s, cfg)
	}
	return &n
}

// costModel is the cost screen of a setup given by flags (bug 7, N solvers,
// R=2), at 80×24, before P is assembled.
func costModel(t *testing.T, f *fixture, n int) Model {
	t.Helper()
	opts := f.options()
	bug := f.bug(t, "7")
	opts.Bug = bug
	opts.Setup = engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: n, R: 2, Solvers: make([]string, n), Judge: "scripted"}
	for i := range opts.Setup.Solvers {
		opts.Setup.Solvers[i] = "scripted"
	}
	m := New(opts)
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return nm.(Model)
}

// update feeds one message to the model and returns its command unrun.
func update(m Model, msg tea.Msg) (Model, tea.Cmd) {
	nm, cmd := m.Update(msg)
	return nm.(Model), cmd
}

// plansIn runs a command (and its batches) and returns the plans it
// delivers.
func plansIn(cmd tea.Cmd) []planMsg {
	var out []planMsg
	for _, msg := range run(cmd) {
		if p, ok := msg.(planMsg); ok {
			out = append(out, p)
		}
	}
	return out
}

// TestCostScreenEstimatesInTheBackground: reaching the cost screen prices
// nothing inside Update — the plan reads every past final answer of the
// register (330–380 ms on 10,000 debates), so it is a command run off the
// UI's goroutine; the screen says it is estimating and keys keep working
// until the plan arrives, then shows it. Both frames are kept as goldens.
func TestCostScreenEstimatesInTheBackground(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	plans := countPlans(f)
	m := costModel(t, f, 3)
	m, cmd := update(m, assemblePCmd(m.subj.bug)())
	if n := plans.Load(); n != 0 {
		t.Fatalf("Update priced the plan itself (%d plan(s)): the UI froze while it read the register", n)
	}
	if cmd == nil || drawnScreen(m) != "cost" || costPriced(m) {
		t.Fatalf("no command to price the plan:\n%s", screenText(m, f.proj))
	}
	t.Run("estimating", func(t *testing.T) {
		checkFrame(t, m, 80, 24, f.proj, []string{"estimating the cost", "▸ Start ◂"})
		goldenScreen(t, m, f.proj)
	})
	m, _ = update(m, keyMsg("right")) // keys work while it is priced
	if !strings.Contains(screenText(m, f.proj), "▸ Edit ◂") {
		t.Error("→ did not move to Edit while the plan was priced")
	}
	m, _ = update(m, keyMsg("left"))
	got := plansIn(cmd)
	if len(got) != 1 || plans.Load() != 1 {
		t.Fatalf("the command delivered %d plan(s), priced %d", len(got), plans.Load())
	}
	m, _ = update(m, got[0])
	t.Run("estimated", func(t *testing.T) {
		text := checkFrame(t, m, 80, 24, f.proj, []string{"3×(2+1) + 0×2 + 1 = 10 calls", "▸ Start ◂"})
		if strings.Contains(text, "estimating") {
			t.Errorf("the plan arrived but the screen still says it is estimating:\n%s", text)
		}
		goldenScreen(t, m, f.proj)
	})
}

// TestStalePlanIsDropped: a plan priced for earlier choices never replaces
// the one for the current choices, whichever arrives first, and a plan
// that arrives after the cost screen was left is dropped.
func TestStalePlanIsDropped(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		order []int // which plan arrives first: 0 the stale one, 1 the current one
	}{
		{"stale first", []int{0, 1}},
		{"stale last", []int{1, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m := costModel(t, f, 3)
			m, first := update(m, assemblePCmd(m.subj.bug)())
			m.cost.setup.N, m.cost.setup.Solvers = 2, []string{"scripted", "scripted"} // the choices changed meanwhile
			second := m.cost.price(&m.frame, &m.subj)
			msgs := [][]planMsg{plansIn(first), plansIn(second)}
			for _, i := range tc.order {
				m, _ = update(m, msgs[i][0])
			}
			text := screenText(m, f.proj)
			if !strings.Contains(text, "2×(2+1) + 0×2 + 1 = 7 calls") || strings.Contains(text, "10 calls") {
				t.Errorf("the screen does not show the plan of the current choices (N=2, 7 calls):\n%s", text)
			}
		})
	}
	t.Run("screen left", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		m := costModel(t, f, 3)
		m, cmd := update(m, assemblePCmd(m.subj.bug)())
		m.screen = scrWizard // esc: back to the setup
		m, _ = update(m, plansIn(cmd)[0])
		// justified: the test set the screen itself; a plan taken late would show only on a later cost screen
		if m.cost.plan != nil {

			t.Errorf("a plan taken after the cost screen was left: %+v", m.cost.plan)
		}
	})
}
