package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestCallsFigureIsTheSameForTheRunnerAndAWatcher: at one moment of a
// debate of 10 planned calls (3 solvers, 2 rounds after round 0, a judge)
// whose 3 round-0 calls are in flight, or 1 done and 2 in flight, the TUI
// that runs it and a TUI watching its folder show the same figure: the
// calls finished over the plan, the running ones said apart.
func TestCallsFigureIsTheSameForTheRunnerAndAWatcher(t *testing.T) {
	t.Parallel()
	at := fixedNow
	started := func(id string) engine.Event {
		return engine.Event{Type: engine.EvCallStarted, Time: at, Round: 0, SolverID: id, Role: bugfolder.RoleSolver, Attempt: 1}
	}
	finished := engine.Event{Type: engine.EvCallFinished, Time: at.Add(time.Second), Round: 0, SolverID: "agente-1", Role: bugfolder.RoleSolver, Attempt: 1, Status: "ok"}
	setup := engine.Event{Type: engine.EvSetup, Time: at.Add(-time.Second)}
	for _, tc := range []struct {
		name  string
		evs   []engine.Event
		files []*bugfolder.DebaterFile
		want  string
	}{
		{"three in flight", []engine.Event{setup, started("agente-1"), started("agente-2"), started("agente-3")}, nil, "calls 0/10 (3 running)"},
		{"one done, two in flight", []engine.Event{setup, started("agente-1"), started("agente-2"), started("agente-3"), finished},
			[]*bugfolder.DebaterFile{{SolverID: "agente-1", Role: bugfolder.RoleSolver, Status: "ok", Attempt: 1}}, "calls 1/10 (2 running)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bug := &bugfolder.Bug{ID: "BUG-1"}
			runner := newLiveView(engine.Setup{Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Solvers: []string{"e", "e", "e"}, Judge: "e", Bug: bug})
			for _, ev := range tc.evs {
				runner.apply(ev)
			}
			deb := &bugfolder.Debate{Dir: t.TempDir(), Lang: bugfolder.PT, State: bugfolder.StateRunning, Events: tc.evs,
				Rounds: []*bugfolder.Round{{K: 0, Files: tc.files, Solvers: len(tc.files)}},
				Problem: &bugfolder.ProblemFile{Mode: bugfolder.Diagnosis, N: 3, R: 2, Judge: "e",
					Solvers: []bugfolder.KV{{Key: "agente-1", Value: "e"}, {Key: "agente-2", Value: "e"}, {Key: "agente-3", Value: "e"}}},
				Holder: &bugfolder.LockInfo{PID: 1, Command: "moot run BUG-1"}, HolderAlive: true}
			watcher := viewFromFiles(bug, deb, readFolderFacts(deb))
			r, _, _, _ := runner.callsText()
			w, _, _, _ := watcher.callsText()
			if r != tc.want || w != tc.want {
				t.Errorf("runner %q, watcher %q, want both %q", r, w, tc.want)
			}
		})
	}
}

// TestCallsFigureSaysOneThingAtEveryWidth: the header's calls figure is
// one figure in one wording at 140, 80 and 60 columns: a narrower header
// may drop words ("calls", then at 60 the calls in flight), never reword the calls in flight into a sign
// ("+1") that reads as one more planned.
func TestCallsFigureSaysOneThingAtEveryWidth(t *testing.T) {
	t.Parallel()
	for _, w := range []int{140, 80, 60} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			m, _ := liveModel(t, f, w, 24)
			var figure string
			for _, part := range strings.Split(headerLine(m), " · ") {
				if strings.Contains(part, "/10") {
					figure = strings.Replace(strings.TrimPrefix(part, "calls "), " calls", "", 1)
				}
			}
			if figure != "2/10 (1 running)" && (w > 60 || figure != "2/10") {
				t.Errorf("at %d columns the calls figure reads %q, want \"2/10 (1 running)\" (with the word \"calls\" or not):\n%s", w, figure, headerLine(m))
			}
		})
	}
}
