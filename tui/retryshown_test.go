package tui

import (
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestQuorumRetryShowsItRan: Retry at the quorum menu says in the footer
// which calls run again, their pane shows the new attempt running, and
// when it fails the same way the menu that comes back says that attempt
// failed again (it reopened unchanged, as if nothing had run).
func TestQuorumRetryShowsItRan(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 120, 34)
	q := engine.QuorumLoss{Round: 0, Valid: 1, Needed: 2, Panel: 3, ValidIDs: []string{"agente-1"}, RetryCalls: 1, ContinueSaves: 2,
		Failed: []engine.FailedCall{{SolverID: "agente-3", Engine: "scripted", Status: bugfolder.StatusTimeout, LastError: "no answer within 9s"}}}
	reply := make(chan quorumAnswer, 1)
	m = pump(t, m, engineMsg{then: askQuorumMsg{q, reply}})
	if strings.Contains(screenText(m, f.proj), "failed again") {
		t.Fatalf("a first failure is said to fail again:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "down", "enter") // Retry the 1 failed
	// justified: the decision the engine receives on the menu's channel; no frame shows it
	if a := recv(t, reply); a.d.Choice != engine.QuorumRetry {
		t.Fatalf("answer %+v", a)
	}
	checkFrame(t, m, 120, 34, f.proj, []string{"retrying agente-3 in round 0"})

	at := fixedNow.Add(-5e9)
	m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvCallStarted, Round: 0, SolverID: "agente-3", Role: bugfolder.RoleSolver, Engine: "scripted", Attempt: 2, Time: at}}})
	if l := lineWith(screenText(m, f.proj), "agente-3"); !strings.Contains(l, "running") {
		t.Errorf("the retried pane does not show it running: %q\n%s", l, screenText(m, f.proj))
	}
	m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvCallFinished, Round: 0, SolverID: "agente-3", Role: bugfolder.RoleSolver, Attempt: 2, Status: "timeout", DurationMS: 9000, Error: "no answer within 9s", CostUnknown: true}}})
	m = pump(t, m, engineMsg{then: askQuorumMsg{q, make(chan quorumAnswer, 1)}})
	checkFrame(t, m, 120, 34, f.proj, []string{"Quorum lost in round 0", "attempt 2 failed again: no answer within 9s"})
}
