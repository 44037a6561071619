package tui

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestRunnerAndWatcherHeadersReadTheSameElapsed: the moot that runs a
// debate (its engine's events) and a moot watching it (the same events
// read from the event log) write the same elapsed figure at every moment,
// in whole seconds while the session runs ("9s", "10s", never "10s"
// beside "9.6s"), through the one formatter (internal/humantime); once
// finished both keep moot list's precision.
func TestRunnerAndWatcherHeadersReadTheSameElapsed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "7")
	dir := filepath.Join(bug.Dir, bugfolder.DebateDir)
	t0 := fixedNow.Add(-time.Hour)
	setup := engine.Event{Type: engine.EvSetup, Path: dir, Time: t0}

	runner := newLiveView(engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Solvers: []string{"scripted", "scripted", "scripted"}, Judge: "scripted"})
	runner.apply(setup)
	logged, err := json.Marshal(setup) // as the event log keeps it
	if err != nil {
		t.Fatal(err)
	}
	var read bugfolder.Event
	if err := json.Unmarshal(logged, &read); err != nil {
		t.Fatal(err)
	}
	watcher := &debateView{}
	watcher.watchSession([]bugfolder.Event{read})

	for _, tc := range []struct {
		at   time.Duration
		want string
	}{
		{400 * time.Millisecond, "0s"},
		{9600 * time.Millisecond, "9s"},
		{10200 * time.Millisecond, "10s"},
		{151*time.Second + 700*time.Millisecond, "2m31s"},
	} {
		now := t0.Add(tc.at)
		r, w := runner.elapsedText(now), watcher.elapsedText(now)
		if r != tc.want || w != tc.want {
			t.Errorf("at %v the runner says %q, the watcher %q; want %q for both", tc.at, r, w, tc.want)
		}
	}
	end := t0.Add(9600 * time.Millisecond)
	finished := engine.Event{Type: engine.EvDebateFinished, Status: "done", Time: end}
	runner.apply(finished)
	watcher.finishedAt = end // as the watcher reads the debate's end from its files
	if r, w := runner.elapsedText(fixedNow), watcher.elapsedText(fixedNow); r != "9.6s" || w != r {
		t.Errorf("finished: the runner says %q, the watcher %q; want 9.6s, as moot list", r, w)
	}
}
