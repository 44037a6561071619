package tui

import (
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestCallsFigureCountsTheJudgeInFlightApart: while the judge's call runs
// (a panel of 2, one round after round 0: 5 calls planned, 4 finished),
// the runner and a TUI watching from the browser both read "calls 4/5 (1
// running)": the plan's count, the finished calls, the judge in flight
// said apart, never counted as finished nor added to the plan.
func TestCallsFigureCountsTheJudgeInFlightApart(t *testing.T) {
	t.Parallel()
	at := fixedNow
	evs := []engine.Event{{Type: engine.EvSetup, Time: at}}
	var files []*bugfolder.Round
	for k := 0; k <= 1; k++ {
		evs = append(evs, engine.Event{Type: engine.EvRoundStarted, Time: at, Round: k})
		rd := &bugfolder.Round{K: k, Solvers: 2}
		for _, id := range []string{"agente-1", "agente-2"} {
			evs = append(evs, engine.Event{Type: engine.EvCallStarted, Time: at, Round: k, SolverID: id, Role: bugfolder.RoleSolver, Attempt: 1})
			evs = append(evs, engine.Event{Type: engine.EvCallFinished, Time: at.Add(time.Second), Round: k, SolverID: id, Role: bugfolder.RoleSolver, Attempt: 1, Status: "ok"})
			rd.Files = append(rd.Files, &bugfolder.DebaterFile{SolverID: id, Role: bugfolder.RoleSolver, Status: "ok", Attempt: 1})
		}
		files = append(files, rd)
	}
	evs = append(evs, engine.Event{Type: engine.EvJudgeStarted, Time: at, Round: 1, Attempt: 1},
		engine.Event{Type: engine.EvCallStarted, Time: at, Round: 1, SolverID: "juiz", Role: bugfolder.RoleJudge, Attempt: 1})
	const want = "calls 4/5 (1 running)"
	bug := &bugfolder.Bug{ID: "BUG-1"}
	runner := newLiveView(engine.Setup{Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 2, R: 1, Solvers: []string{"e", "e"}, Judge: "e", Bug: bug})
	for _, ev := range evs {
		runner.apply(ev)
	}
	deb := &bugfolder.Debate{Dir: t.TempDir(), Lang: bugfolder.PT, State: bugfolder.StateRunning, Events: evs, Rounds: files,
		Problem: &bugfolder.ProblemFile{Mode: bugfolder.Diagnosis, N: 2, R: 1, Judge: "e",
			Solvers: []bugfolder.KV{{Key: "agente-1", Value: "e"}, {Key: "agente-2", Value: "e"}}},
		Holder: &bugfolder.LockInfo{PID: 1, Command: "moot run BUG-1"}, HolderAlive: true}
	watcher := viewFromFiles(bug, deb, readFolderFacts(deb))
	r, _, _, _ := runner.callsText()
	w, _, _, _ := watcher.callsText()
	if r != want || w != want {
		t.Errorf("runner %q, watcher %q, want both %q", r, w, want)
	}
}
