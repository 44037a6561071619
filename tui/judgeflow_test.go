package tui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/debate"
)

// TestJudgeSwitchAfterResumeFlow runs real programs: a debate whose judge
// (engine bad) names no label stops headless, judge-failed; `moot resume`
// in the UI opens the judge menu again, "Retry with another engine…"
// picks scripted, and the judge that answers — named in the final answer,
// with the amendment — is scripted; the header's calls grew by one.
func TestJudgeSwitchAfterResumeFlow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bad := filepath.Join(f.proj, "tools", "bad-judge.sh")
	script := "#!/bin/sh\nif [ \"$MOOT_ROLE\" = judge ]; then cat >/dev/null; printf '## Vencedora\\n\\nProposta Z\\n'; exit 0; fi\nexec \"$(dirname \"$0\")/scripted-llm.sh\"\n"
	if err := os.WriteFile(bad, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, err := harness.ParseConfig(filepath.Join(f.reg.Root, "moot.yaml"), []byte("engines:\n  scripted: {kind: command, command: [\"../tools/scripted-llm.sh\"], external: false, timeout: 1m}\n  bad: {kind: command, command: [\"../tools/bad-judge.sh\"], external: false, timeout: 1m}\n"))
	if err != nil {
		t.Fatal(err)
	}
	bug := f.bug(t, "7")
	hopts := harness.Options{ConfigDir: f.reg.Root}
	s := engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 2, R: 0, Solvers: []string{"scripted", "scripted"}, Judge: "bad", Parallel: 2, Protocol: debate.Protocol{}}
	res, err := engine.Start(context.Background(), s, engine.Options{Protocol: debate.Protocol{}, Config: cfg, Harness: hopts, Supervisor: &engine.Policies{}, Command: "test"})
	if err != nil || res.Outcome != engine.OutcomeWaiting {
		t.Fatalf("headless run: %v %+v", err, res)
	}

	opts := f.options()
	opts.Config, opts.Harness, opts.Now = cfg, hopts, nil
	opts.Bug, opts.Resume = bug, true
	tm := teatest.NewTestModel(t, New(opts), teatest.WithInitialTermSize(120, 40))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	waitFor("Retry with another engine")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor("Retry the judge on another engine (now: bad)")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter}) // scripted
	waitFor("Winner:")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(Model)
	out := final.Outcome()
	if out.Err != nil || out.Result == nil || out.Result.Outcome != engine.OutcomeDone {
		t.Fatalf("outcome %+v", out)
	}
	d, err := bugfolder.ReadDebate(filepath.Join(bug.Dir, bugfolder.DebateDir), bugfolder.PT)
	if err != nil || d.Final == nil {
		t.Fatalf("debate %v %v", d, err)
	}
	if d.Final.Engine != "scripted" || !strings.Contains(d.Final.Amendment, "engine bad → scripted") {
		t.Errorf("the final answer names %q (amendment %q), want the judge that answered", d.Final.Engine, d.Final.Amendment)
	}
	// 2 solvers + the failed judge + the switched judge, in the log and on screen
	if n, made := d.ModelCalls(), headerFigure(final, "calls"); n != 4 || !strings.HasPrefix(made, "calls 4/") {
		t.Errorf("calls: files %d, header %q, want 4", n, made)
	}
}
