package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/testutil"
)

// TestDemoFlow runs the demo's debate in a real program: the cost screen,
// Enter, the panes, the quorum menu of round 1, continue, the final answer.
func TestDemoFlow(t *testing.T) {
	// Serial: the replay engine reads its speed from MOOT_REPLAY_SPEED
	// (harness), process-wide, so t.Setenv rules out t.Parallel.
	t.Setenv("MOOT_REPLAY_SPEED", "25")
	f := newFixture(t)
	cas, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "testdata", "demo", "cassette.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(f.reg.Root, "demo-cassette.yaml"), cas, 0o644)
	cfg, err := harness.ParseConfig(filepath.Join(f.reg.Root, "moot.yaml"), []byte("engines:\n  demo: {kind: replay, cassette: demo-cassette.yaml, timeout: 9s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	bug := f.bug(t, "7")
	opts := f.options()
	opts.Config, opts.Harness = cfg, harness.Options{ConfigDir: f.reg.Root}
	opts.Now = nil
	opts.Bug = bug
	opts.Setup = engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Solvers: []string{"demo", "demo", "demo"}, Judge: "demo", Parallel: 3}

	tm := teatest.NewTestModel(t, New(opts), teatest.WithInitialTermSize(120, 40))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	waitFor("Start")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor("What now?")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter}) // continue with the 1 valid solver
	waitFor("Winner:")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(Model)
	out := final.Outcome()
	if out.Err != nil || out.Result == nil || out.Result.Outcome != engine.OutcomeDone {
		t.Fatalf("outcome %+v", out)
	}
	if out.Result.Participants != 1 || out.Result.N != 3 {
		t.Errorf("participants %d of %d, want the degraded 1 of 3", out.Result.Participants, out.Result.N)
	}
	d, err := bugfolder.ReadDebate(out.Dir, bugfolder.PT)
	if err != nil || d.Final == nil || d.Final.DecidedBy != "judge" {
		t.Fatalf("debate %v %v", d, err)
	}
	for _, ev := range []engine.EventType{engine.EvQuorumLost, engine.EvDecision} {
		found := false
		for _, e := range d.Events {
			found = found || e.Type == ev
		}
		if !found {
			t.Errorf("no %s event in the log", ev)
		}
	}
}
