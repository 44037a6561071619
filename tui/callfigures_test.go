package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/debate"
)

// TestRetriedCallShowsItsOwnFigures: when a judge (or a
// solver) is retried, its pane shows the running attempt's time and
// tokens, not the failed attempt's — on a judge retry the judge pane kept
// the previous attempt's tokens until the new one finished.
func TestRetriedCallShowsItsOwnFigures(t *testing.T) {
	t.Parallel()
	s := engine.Setup{Lang: bugfolder.EN, N: 2, R: 0, Solvers: []string{"a", "b"}, Judge: "a", Bug: &bugfolder.Bug{ID: "BUG-1"}}
	for _, tc := range []struct {
		name  string
		id    string
		role  bugfolder.Role
		tab   string // the tab that draws the call's pane
		retry []engine.Event
	}{
		{"judge retried at the menu", "judge", bugfolder.RoleJudge, "Final", []engine.Event{
			{Type: engine.EvJudgeFailed, Reason: "no winner"},
			{Type: engine.EvDecision, Point: "judge", Choice: "retry", By: "user"},
			{Type: engine.EvJudgeStarted, Attempt: 2},
		}},
		{"judge retried after a transport failure", "judge", bugfolder.RoleJudge, "Final", []engine.Event{
			{Type: engine.EvCallStarted, SolverID: "judge", Role: bugfolder.RoleJudge, Attempt: 2},
		}},
		{"solver retried", "agente-1", bugfolder.RoleSolver, "Round 0", []engine.Event{
			{Type: engine.EvCallStarted, SolverID: "agente-1", Role: bugfolder.RoleSolver, Attempt: 2},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := debateFrame(t, newLiveView(s))
			m = showEvents(m, engine.Event{Type: engine.EvCallStarted, SolverID: tc.id, Role: tc.role, Attempt: 1},
				engine.Event{Type: engine.EvCallFinished, SolverID: tc.id, Role: tc.role, Attempt: 1, Status: "invalid-output",
					DurationMS: 61000, TokensIn: 9000, TokensOut: 800, CostUSD: 0.5})
			m = showEvents(m, tc.retry...)
			m = toTab(t, m, tc.tab)
			// the pane's first line: name, status, engine, time, tokens
			pane := func() string { return lineWith(screenText(m, ""), tc.id+" · ") }
			if p := pane(); !strings.Contains(p, "running") || strings.Contains(p, "→") || strings.Contains(p, "1m01s") {
				t.Errorf("attempt 2 running shows the failed attempt's figures: %q", p)
			}
			if got := headerFigure(m, "tokens"); got != "9.8k" {
				t.Errorf("header tokens %q: the failed attempt no longer counts in the total (want 9.8k)", got)
			}
			m = showEvents(m, engine.Event{Type: engine.EvCallFinished, SolverID: tc.id, Role: tc.role, Attempt: 2, Status: "ok", TokensIn: 300, TokensOut: 20})
			if p, got := pane(), headerFigure(m, "tokens"); !strings.Contains(p, " · 300→20") || got != "10k" || strings.Contains(screenText(m, ""), "no winner") {
				t.Errorf("after the retry: pane %q, header %s tokens (want 300→20 and 10k):\n%s", p, got, screenText(m, ""))
			}
		})
	}
}

// TestHeaderTokensAcrossResume: a solver fails once, the
// quorum menu's retry is cut off, and the debate is resumed. The header's
// tokens — read back from the folder, then moved by the resumed run —
// equal what the event log records over both sessions; they dropped on
// resume, when the retried call's file replaced its first attempt's.
func TestHeaderTokensAcrossResume(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tools := filepath.Join(f.proj, "tools")
	script := "#!/bin/sh\nif [ \"$MOOT_SOLVER_ID\" = agente-2 ] && [ ! -e \"$0.failed\" ]; then : > \"$0.failed\"; cat >/dev/null; echo refused >&2; exit 1; fi\nexec \"$(dirname \"$0\")/scripted-llm.sh\"\n"
	if err := os.WriteFile(filepath.Join(tools, "once.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, err := harness.ParseConfig(filepath.Join(f.reg.Root, "moot.yaml"), []byte("engines:\n  once: {kind: command, command: [\"../tools/once.sh\"], external: false, timeout: 1m}\n"))
	if err != nil {
		t.Fatal(err)
	}
	bug := f.bug(t, "7")
	hopts := harness.Options{ConfigDir: f.reg.Root}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut := func(ev engine.Event) {
		if ev.Type == engine.EvCallStarted && ev.Attempt >= 2 && ev.Role == bugfolder.RoleSolver {
			cancel() // the retry is cut off: moot killed or left
		}
	}
	s := engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 2, R: 0, Solvers: []string{"once", "once"}, Judge: "once", Parallel: 2, Protocol: debate.Protocol{}}
	res, err := engine.Start(ctx, s, engine.Options{Protocol: debate.Protocol{}, Config: cfg, Harness: hopts, Supervisor: &engine.Policies{OnQuorumLoss: "retry"}, Command: "test", Sink: cut})
	if err != nil || res.Outcome != engine.OutcomeCancelled {
		t.Fatalf("first session: %v %+v", err, res)
	}
	logged := func() int {
		d, err := bugfolder.ReadDebate(filepath.Join(bug.Dir, bugfolder.DebateDir), bugfolder.PT)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, ev := range d.Events {
			if ev.Type == engine.EvCallFinished {
				n += ev.TokensIn + ev.TokensOut
			}
		}
		return n
	}
	deb, err := bugfolder.ReadDebate(filepath.Join(bug.Dir, bugfolder.DebateDir), bugfolder.PT)
	if err != nil {
		t.Fatal(err)
	}
	v := viewFromFiles(bug, deb, readFolderFacts(deb))
	if got, want := headerFigure(debateFrame(t, v), "tokens"), logged(); got != fmtTokens(want) || want == 0 {
		t.Errorf("before resume the header reads %s tokens, the log %d", got, want)
	}
	res, err = engine.Resume(context.Background(), bug, engine.Options{Protocol: debate.Protocol{}, Config: cfg, Harness: hopts, Supervisor: &engine.Policies{}, Command: "test", Sink: v.apply})
	if err != nil || res.Outcome != engine.OutcomeDone {
		t.Fatalf("resume: %v %+v", err, res)
	}
	if got, want := headerFigure(debateFrame(t, v), "tokens"), logged(); got != fmtTokens(want) {
		t.Errorf("after resume the header reads %s tokens, the log %d", got, want)
	}
}
