package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/debate"
)

// TestFiguresAfterResume: a debate that ran 30 s, stopped, and ran 10 s
// more an hour later shows 40 s (not the hour between); after a resume
// the clock goes on from there; the call counter is the event log's
// (an attempt retried at once is a call too: a model call was made);
// tokens move while a call streams.
func TestFiguresAfterResume(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "9") // X9Z2: an interrupted debate, in English
	dir := filepath.Join(bug.Dir, bugfolder.DebateDir)
	t0 := fixedNow.Add(-2 * time.Hour)
	at := func(d time.Duration) string { return `"time":"` + t0.Add(d).Format(time.RFC3339Nano) + `"` }
	log := strings.Join([]string{
		`{"type":"setup",` + at(0) + `}`,
		`{"type":"call_finished",` + at(10*time.Second) + `,"round":0,"solver_id":"agent-1","status":"error","error":"connection refused (retrying once)"}`,
		`{"type":"call_finished",` + at(20*time.Second) + `,"round":0,"solver_id":"agent-1","status":"ok"}`,
		`{"type":"call_finished",` + at(21*time.Second) + `,"round":0,"solver_id":"agent-2","status":"timeout"}`,
		`{"type":"call_finished",` + at(25*time.Second) + `,"round":0,"solver_id":"agent-3","status":"ok"}`,
		`{"type":"call_finished",` + at(30*time.Second) + `,"round":0,"solver_id":"agent-2","status":"ok"}`,
		`{"type":"resumed",` + at(time.Hour) + `}`,
		`{"type":"call_finished",` + at(time.Hour+10*time.Second) + `,"round":1,"solver_id":"agent-1","status":"ok"}`,
	}, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	m := loadBrowser(t, f, 100, 30)
	m = keys(t, m, "j", "enter")
	if got := debateOf(m); got != bug.ID {
		t.Fatalf("opened %q, want %s:\n%s", got, bug.ID, screenText(m, f.proj))
	}
	if got := headerFigure(m, "elapsed"); got != "40s" {
		t.Errorf("elapsed %q, want the 40s of its two sessions", got)
	}
	if got := headerFigure(m, "calls"); !strings.HasPrefix(got, "calls 6/") {
		t.Errorf("%q, want the log's 6 calls (4 files: agent-1 retried once, agent-2 ran twice in round 0)", got)
	}

	// resume: the clock goes on from the total
	m.run.on, m.dv.deb.live = true, true
	m = pump(t, m, engineMsg{events: []engine.Event{
		{Type: engine.EvResumed, Path: dir, Time: fixedNow.Add(-5 * time.Second)},
		{Type: engine.EvCallStarted, Round: 1, SolverID: "agent-2", Role: bugfolder.RoleSolver, Attempt: 1, Time: fixedNow.Add(-4 * time.Second)},
	}})
	m = pump(t, m, tickMsg(fixedNow))
	if got := headerFigure(m, "elapsed"); got != "45s" {
		t.Errorf("elapsed after resume %q, want 40s + 5s", got)
	}
	before := headerFigure(m, "tokens")
	m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvOutput, Round: 1, SolverID: "agent-2", Role: bugfolder.RoleSolver, Text: strings.Repeat("token ", 400)}}})
	streaming := headerFigure(m, "tokens")
	if streaming == before {
		t.Errorf("tokens did not move while the call streamed: %s → %s", before, streaming)
	}
	m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvCallFinished, Round: 1, SolverID: "agent-2", Role: bugfolder.RoleSolver, Status: "ok", TokensIn: 100, TokensOut: 50}}})
	// the call's reported 150 tokens replace its streamed estimate
	if calls, tokens := headerFigure(m, "calls"), headerFigure(m, "tokens"); !strings.HasPrefix(calls, "calls 7/") || tokens != "150" {
		t.Errorf("after the call: %q, %s tokens (streaming showed %s), want calls 7 and the reported 150", calls, tokens, streaming)
	}

	if text := screenText(m, f.proj); !strings.Contains(text, "running") || strings.Contains(text, "interrupted") {
		t.Errorf("the header's status word:\n%s", text)
	}
}

// TestCallCounterNeverExceeded: the planned total grows with each added
// call (an attempt retried at once, a judge retried) so the counter never
// reads more done than planned, and never goes down at the end.
func TestCallCounterNeverExceeded(t *testing.T) {
	t.Parallel()
	s := engine.Setup{Lang: bugfolder.EN, N: 2, R: 0, Solvers: []string{"a", "b"}, Judge: "a", Bug: &bugfolder.Bug{ID: "BUG-1"}}
	m := debateFrame(t, newLiveView(s))
	call := func(id string, role bugfolder.Role, status bugfolder.Status, err string) []engine.Event {
		return []engine.Event{
			{Type: engine.EvCallStarted, SolverID: id, Role: role, Attempt: 1},
			{Type: engine.EvCallFinished, SolverID: id, Role: role, Status: status, Error: err},
		}
	}
	evs := []engine.Event{{Type: engine.EvSetup, Calls: 3}}
	evs = append(evs, engine.Event{Type: engine.EvCallStarted, SolverID: "agente-1", Role: bugfolder.RoleSolver, Attempt: 1})
	retried := call("agente-2", bugfolder.RoleSolver, "error", "refused")
	retried[1].Retrying = true
	evs = append(evs, retried...)
	evs = append(evs, call("agente-2", bugfolder.RoleSolver, "ok", "")...)
	evs = append(evs, engine.Event{Type: engine.EvCallFinished, SolverID: "agente-1", Role: bugfolder.RoleSolver, Status: "ok"})
	evs = append(evs, call("judge", bugfolder.RoleJudge, "invalid", "")...)
	evs = append(evs, engine.Event{Type: engine.EvJudgeFailed, Reason: "no winner"},
		engine.Event{Type: engine.EvDecision, Point: "judge", Choice: "retry", By: "user"})
	evs = append(evs, call("judge", bugfolder.RoleJudge, "ok", "")...)
	evs = append(evs, engine.Event{Type: engine.EvDebateFinished, Outcome: "done", Calls: 5})
	for i, ev := range evs {
		m = showEvents(m, ev)
		made, planned, ok := callsFigure(m)
		if !ok || made > planned {
			t.Fatalf("after event %d (%s): the header reads %q\n%s", i, ev.Type, headerFigure(m, "calls"), screenText(m, ""))
		}
		if ev.Type == engine.EvCallStarted && made == planned {
			t.Errorf("after event %d: a call runs but the counter reads %d/%d", i, made, planned)
		}
	}
	if made, planned, _ := callsFigure(m); made != 5 || planned != 5 {
		t.Errorf("finished at %d/%d, want the 5 calls made over 5", made, planned)
	}
	m = showEvents(m, engine.Event{Type: engine.EvDebateFinished, Outcome: "done", Calls: 4})
	if made, _, _ := callsFigure(m); made != 5 {
		t.Errorf("a lower count at the end took the counter down to %d", made)
	}
}

// TestOneStatusWordForAnUnheldDebate: a moot-run debate no process holds
// is "running" (docs/cli.md's word) in the browser, the header and the footer;
// nothing calls it "interrupted".
func TestOneStatusWordForAnUnheldDebate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "9")
	log := `{"type":"setup","time":"` + fixedNow.Add(-time.Hour).Format(time.RFC3339Nano) + `"}` + "\n"
	if err := os.WriteFile(filepath.Join(bug.Dir, bugfolder.DebateDir, "events.jsonl"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	m := loadBrowser(t, f, 140, 45)
	if text := screenText(m, f.proj); strings.Contains(text, "interrupted") || !strings.Contains(text, "running") {
		t.Errorf("browser:\n%s", text)
	}
	m = keys(t, m, "j", "enter")
	text := screenText(m, f.proj)
	if strings.Contains(text, "interrupted") || !strings.Contains(strings.SplitN(text, "\n", 2)[0], "running") {
		t.Errorf("debate view:\n%s", text)
	}
	if !strings.Contains(lastLine(text), "r resumes it") {
		t.Errorf("footer %q", lastLine(text))
	}
}

// A human decision recorded later (moot decide) is not debate time: the
// elapsed figure ends with the debate's last event before it.
func TestDecisionIsNotDebateTime(t *testing.T) {
	t.Parallel()
	at := func(s int) time.Time { return fixedNow.Add(time.Duration(s) * time.Second) }
	evs := []bugfolder.Event{
		{Type: engine.EvSetup, Time: at(0)},
		{Type: engine.EvCallFinished, Time: at(3)},
		{Type: engine.EvDebateFinished, Time: at(4)},
		{Type: engine.EvDecision, Point: engine.PointResult, Choice: "approve", By: "human", Time: at(34)},
	}
	if got := bugfolder.SessionsTotal(evs); got != 4*time.Second {
		t.Errorf("elapsed %s, want 4s (the decision 30 s later is the human's time)", got)
	}
}

// debateFrame is a model whose screen is the live debate view d, at
// 140×45, as a run this process started shows it.
func debateFrame(t *testing.T, d *debateView) Model {
	t.Helper()
	nm, _ := New(Options{Protocol: debate.Protocol{}, Now: func() time.Time { return fixedNow }}).Update(tea.WindowSizeMsg{Width: 140, Height: 45})
	m := nm.(Model) // no register behind it: Init, which lists one, is not run
	m.dv.deb = d
	m.screen, m.run.on = scrDebate, true
	return m
}

// showEvents gives the model the engine's events, as the run's bridge
// does (the bridge's next wait is not run: no engine stands behind it).
func showEvents(m Model, evs ...engine.Event) Model {
	nm, _ := m.Update(engineMsg{events: evs})
	return nm.(Model)
}
