package tui

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/livefile"
	"github.com/reversa/moot/internal/money"
	"github.com/reversa/moot/internal/testutil"
)

// TestQuitWhileADecisionIsSteppedAsideAsksToLeave: q while a decision menu is
// stepped aside asks to leave (it does not reopen the menu); "keep
// watching" and esc put the decision back where it was; leaving stops the
// run, resumable. The footer of a decision put aside lists q.
func TestQuitWhileADecisionIsSteppedAsideAsksToLeave(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, size := range [][2]int{{80, 24}, {60, 15}} {
		m, b := liveModel(t, f, size[0], size[1])
		m = pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), make(chan quorumAnswer, 1)}})
		m = keys(t, m, "esc")
		if last := lastLine(screenText(m, f.proj)); !strings.Contains(last, "q quit") || !strings.Contains(last, "? keys") {
			t.Errorf("%v: footer of a decision put aside %q lacks ? and q", size, last)
		}
		m = keys(t, m, "q")
		if !menuDrawn(m, menuQuit) {
			t.Fatalf("%v: q does not draw the leave question:\n%s", size, screenText(m, f.proj))
		}
		if text := screenText(m, f.proj); !strings.Contains(text, "Leave this debate?") {
			t.Errorf("%v: the leave question is not on screen:\n%s", size, text)
		}
		m = keys(t, m, "esc")
		// the quorum menu is back, stepped aside: not drawn, the footer says it waits
		if last := lastLine(screenText(m, f.proj)); menuDrawn(m, menuQuorum) || menuDrawn(m, menuQuit) || !strings.Contains(last, "a decision waits") {
			t.Fatalf("%v: esc on the leave question should put the decision back aside:\n%s", size, screenText(m, f.proj))
		}
		m = keys(t, m, "q", "up", "enter") // "Leave it, resumable"
		// justified: the run's context is what the engine sees stop; no frame shows it
		if !m.Outcome().Left || b.ctx.Err() == nil {
			t.Errorf("%v: leaving did not stop the run (left %v)", size, m.Outcome().Left)
		}
		if anyMenuDrawn(m) || strings.Contains(footer(m), "a decision waits") {
			t.Errorf("%v: a menu is still open after leaving:\n%s", size, screenText(m, f.proj))
		}
	}
}

// TestJudgeFailureReasonReadableOnASmallScreen: at 60×15 the judge menu taller
// than the window scrolls (pgup/pgdn, ↑ past its first choice) to the
// reason the judge failed, its hints saying what more there is; the
// judge's pane and its zoom show the reason.
func TestJudgeFailureReasonReadableOnASmallScreen(t *testing.T) {
	t.Parallel()
	const reason = "invalid answer: ## Vencedora: names 2 labels (A, B); exactly one is allowed"
	f := newFixture(t)
	m, _ := liveModel(t, f, 60, 15)
	j := engine.JudgeFailure{Attempt: 1, Reason: reason, Labels: []engine.LabelPreview{{Label: "A", Preview: "H1: a"}, {Label: "B", Preview: "H1: b"}}}
	m = pump(t, m, engineMsg{then: askJudgeMsg{j, make(chan judgeAnswer, 1)}})
	text := screenText(m, f.proj)
	if strings.Contains(text, "invalid answer") || !strings.Contains(text, "more above (pgup)") {
		t.Fatalf("the judge menu at 60×15 (its end first, a hint above):\n%s", text)
	}
	for _, k := range []string{"pgup", "up"} {
		m := keys(t, m, k, k, k, k, k, k, k)
		text = screenText(m, f.proj)
		if !strings.Contains(text, "invalid answer") || !strings.Contains(text, "more below (pgdn)") {
			t.Errorf("after %s the reason is not readable:\n%s", k, text)
		}
		m = keys(t, m, "pgdown", "pgdown", "pgdown", "pgdown")
		if text = screenText(m, f.proj); !strings.Contains(text, "Cancel (everything is kept") {
			t.Errorf("pgdn did not go back to the choices:\n%s", text)
		}
	}
	// the menu stepped aside: the judge's pane and its zoom say why
	m.dv.deb.judge.status, m.dv.deb.judge.err = "invalid-output", reason
	m = keys(t, m, "esc")
	m.dv.tab = m.dv.finalTab()
	if text = screenText(m, f.proj); !strings.Contains(text, "exactly one") {
		t.Errorf("the judge pane cuts the reason:\n%s", text)
	}
	m = keys(t, m, "enter")
	if text = screenText(m, f.proj); !zoomShown(m) || !strings.Contains(text, "why: invalid answer") || !strings.Contains(text, "exactly one is allowed") {
		t.Errorf("the judge's zoom lacks the reason:\n%s", text)
	}
}

// TestCostTableNeverClipsMoney: at any width from 40 columns the
// cost table keeps every money figure whole: headers shorten, columns
// close up, roles go, names give way first.
func TestCostTableNeverClipsMoney(t *testing.T) {
	t.Parallel()
	rows := [][]string{
		{"claude-sonnet-long-name ⇄", "solver, critic, judge", "12", "≈123k", "≈45k", "≈$0.03+unknown"},
		{"local", "solver", "4", "≈9k", "≈2k", "unknown price"},
		{"total", "", "16", "≈132k", "≈47k", "≈$0.03+unknown"},
	}
	for _, w := range []int{40, 50, 60, 80, 140} {
		out := costTable(rows, w)
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if n := ansi.StringWidth(l); n > w {
				t.Errorf("width %d: line %q is %d wide", w, l, n)
			}
		}
		for _, money := range []string{"≈$0.03+unknown\n", "unknown price\n"} {
			if !strings.Contains(out, money) {
				t.Errorf("width %d: %q cut:\n%s", w, money, out)
			}
		}
		if w >= 140 && !strings.Contains(out, "COST (estimate)") {
			t.Errorf("width %d abbreviates the header:\n%s", w, out)
		}
	}
}

// TestConfirmFocusShowsWithoutColour: the yes/no confirmation
// (an external judge, an external solver, the wizard's) marks its focused
// button with characters, seen without colour; ←/→ move the mark and the
// footer names them.
func TestConfirmFocusShowsWithoutColour(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	j := engine.JudgeFailure{Attempt: 1, Reason: "names no label", Engine: "bad", Engines: []string{"bad", "ext"}}
	for _, mn := range []*menu{judgeConfirmMenu(&menu{j: j, engine: "ext"}), swapConfirmMenu(&menu{engine: "ext", solver: "agente-2"})} {
		m, _ := liveModel(t, f, 80, 24)
		m.dlg.openMenu(&m.frame, mn)
		text := ansi.Strip(m.Render())
		if !strings.Contains(text, "▸ No ◂") || strings.Contains(text, "▸ Yes") {
			t.Errorf("focus on No is not marked:\n%s", text)
		}
		if !strings.Contains(text, "←/→ choose") {
			t.Errorf("the footer does not name ←/→:\n%s", text)
		}
		m = keys(t, m, "left")
		if text = ansi.Strip(m.Render()); !strings.Contains(text, "▸ Yes, send") || strings.Contains(text, "▸ No ◂") {
			t.Errorf("← did not move the mark to Yes:\n%s", text)
		}
	}
}

// TestRestrictedNoteStaysThroughTheEnginesPage: on a restricted bug at 80×24 the
// wizard's note that external engines are not offered stays on screen
// through every field of the engines page; the judge's and a solver's
// engine menus say the same when they leave an external engine out.
func TestRestrictedNoteStaysThroughTheEnginesPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  scripted: {kind: command, command: [x], external: false}\n  local2: {kind: command, command: [z], external: false}\n  cloud: {kind: openai, base_url: https://api.example.com/v1}\ndefaults: {solver: scripted, judge: scripted}\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := f.options()
	opts.Config = cfg
	opts.Bug = f.bug(t, "8")
	m := sized(t, opts, 80, 24)
	m = keys(t, m, "enter", "enter", "enter", "enter") // mode, N, R, one engine for all
	wizardAsks(t, m, "engines")
	for i := range 5 { // engine, critics, judge, order-swap check, timeout
		if text := screenText(m, f.proj); !strings.Contains(text, "visibility: restricted, so external engines (cloud)") {
			t.Errorf("field %d: the note scrolled away:\n%s", i, text)
		}
		m = keys(t, m, "tab")
	}
	goldenScreen(t, m, f.proj)
	j := engine.JudgeFailure{Attempt: 1, Reason: "names no label", Engine: "scripted", Engines: []string{"scripted", "local2"}}
	q := quorumLoss()
	q.Engines = []string{"scripted", "local2"}
	lm, _ := liveModel(t, f, 100, 34)
	for _, mn := range []*menu{judgeEngineMenu(&menu{j: j}, cfg, nil), swapMenu(&menu{q: q, solver: "agente-2"}, cfg, nil)} {
		lm.dlg.openMenu(&lm.frame, mn)
		if text := screenText(lm, f.proj); !strings.Contains(text, "restricted") || !strings.Contains(text, "cloud") {

			t.Errorf("the engine menu does not say why cloud is not offered:\n%s", text)
		}
	}
}

// TestWatcherIsNotARoundBehind: a debate another process runs,
// in round 1 before any round-1 call has written its file, reads as round
// 1 (the log's round_started), as its owner shows it; a call in flight
// that the sidecar reports moves the round too.
func TestWatcherIsNotARoundBehind(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "6")
	dir := filepath.Join(bug.Dir, bugfolder.DebateDir)
	for _, gone := range []string{"rodada-1", "juiz"} {
		if err := os.RemoveAll(filepath.Join(dir, gone)); err != nil {
			t.Fatal(err)
		}
	}
	at := fixedNow.Add(-time.Minute).Format(time.RFC3339Nano)
	log := `{"type":"setup","time":"` + at + `"}` + "\n" +
		`{"type":"round_started","round":0,"time":"` + at + `"}` + "\n" +
		`{"type":"round_started","round":1,"time":"` + at + `"}` + "\n" +
		`{"type":"call_started","round":1,"solver_id":"agente-1","role":"solver","attempt":1,"time":"` + at + `"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "eventos.jsonl"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	deb, err := bugfolder.ReadDebate(dir, bug.Register.Lang)
	if err != nil {
		t.Fatal(err)
	}
	if got := headerFigure(debateFrame(t, viewFromFiles(bug, deb, readFolderFacts(deb))), "round"); !strings.HasPrefix(got, "round 1 ") {
		t.Errorf("the header says %q from the log, want round 1 (round_started 1)", got)
	}
	os.WriteFile(filepath.Join(dir, "eventos.jsonl"), []byte(log[:strings.Index(log, `{"type":"round_started","round":1`)]), 0o600)
	deb, _ = bugfolder.ReadDebate(dir, bug.Register.Lang)
	d := viewFromFiles(bug, deb, readFolderFacts(deb))
	if got := headerFigure(debateFrame(t, d), "round"); !strings.HasPrefix(got, "round 0 ") {
		t.Fatalf("the header says %q before round 1 started", got)
	}
	d.applyLive(livefile.State{Streamed: map[string]int{"1/agente-1": 100}, Attempt: map[string]int{"1/agente-1": 1}})
	if got := headerFigure(debateFrame(t, d), "round"); !strings.HasPrefix(got, "round 1 ") {
		t.Errorf("the header says %q with a round-1 call in flight, want round 1", got)
	}
}

// TestElapsedCountsAMenuWaitOfAKilledSession: a session killed (kill -9) at
// a menu has no debate_finished, but the waiting events its run logged
// while the menu was open count: the total across sessions is each
// session's first event to its last, menu waits included.
func TestElapsedCountsAMenuWaitOfAKilledSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "6")
	dir := filepath.Join(bug.Dir, bugfolder.DebateDir)
	t0, t1 := fixedNow.Add(-time.Hour), fixedNow.Add(-time.Minute)
	ev := func(typ string, at time.Time) string {
		return `{"type":"` + typ + `","time":"` + at.Format(time.RFC3339Nano) + `"}` + "\n"
	}
	log := ev("setup", t0) + ev("quorum_lost", t0.Add(2*time.Second)) +
		ev("waiting", t0.Add(12*time.Second)) + ev("waiting", t0.Add(22*time.Second)) + // killed here
		ev("resumed", t1) + ev("decision", t1.Add(time.Second)) + ev("debate_finished", t1.Add(2*time.Second))
	if err := os.WriteFile(filepath.Join(dir, "eventos.jsonl"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	deb, err := bugfolder.ReadDebate(dir, bug.Register.Lang)
	if err != nil {
		t.Fatal(err)
	}
	if got := viewFromFiles(bug, deb, readFolderFacts(deb)).elapsed(fixedNow); got != 24*time.Second {
		t.Errorf("elapsed %v, want 24s (22 s waiting at the menu before the kill, 2 s after the resume)", got)
	}
}

// TestSmallScreenMenusKeepIndentAndEveryChoice: the quorum menu's wrapped reason keeps its
// indent; "Which proposal wins?" at 80×24 shows every choice, ← Back
// included, one line each; the browser's "is run by" line goes when that
// run ends, without a key.
func TestSmallScreenMenusKeepIndentAndEveryChoice(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 80, 24)
	q := quorumLoss()
	q.Failed[0].LastError = "the engine answered nothing within the timeout of nine seconds and was stopped"
	m = pump(t, m, engineMsg{then: askQuorumMsg{q, make(chan quorumAnswer, 1)}})
	text := screenText(m, f.proj)
	lines := strings.Split(text, "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "agente-2") && strings.Contains(l, "timeout") })
	if at < 0 || at+1 >= len(lines) {
		t.Fatalf("no failed line:\n%s", text)
	}
	col := func(l, sub string) int { // the display column sub starts at
		if i := strings.Index(l, sub); i >= 0 {
			return ansi.StringWidth(l[:i])
		}
		return -1
	}
	if cont := lines[at+1]; col(lines[at], "the engine") < 0 || col(cont, "timeout of") != col(lines[at], "the engine") {
		t.Errorf("the reason's second line lost its indent:\n%s\n%s", lines[at], cont)
	}

	j := engine.JudgeFailure{Attempt: 1, Reason: "names no label", Labels: []engine.LabelPreview{
		{Label: "A", Preview: strings.Repeat("o recálculo por CEP reaplica o desconto ", 4)},
		{Label: "B", Preview: strings.Repeat("corrida entre frete e desconto no fechamento ", 4)},
		{Label: "C", Preview: strings.Repeat("arredondamento do total antes do desconto ", 4)}}}
	m, _ = liveModel(t, f, 80, 24)
	m = pump(t, m, engineMsg{then: askJudgeMsg{j, make(chan judgeAnswer, 1)}})
	m.dlg.openMenu(&m.frame, humanMenu(m.dlg.menu, m.lay.menuFormW))
	text = screenText(m, f.proj)
	for _, want := range []string{"Which proposal wins?", "proposal A —", "proposal B —", "proposal C —", "← Back to the judge menu"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	goldenScreen(t, m, f.proj)
}

// TestRunByAnotherProcessLineGoesWhenTheRunEnds: r on a bug another process runs says so;
// once that run ends (its row read again) the line goes without a key.
func TestRunByAnotherProcessLineGoesWhenTheRunEnds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "6")
	dir := filepath.Join(bug.Dir, bugfolder.DebateDir)
	host, _ := os.Hostname()
	lock, _ := json.Marshal(bugfolder.LockInfo{PID: os.Getpid(), Host: host, StartedAt: fixedNow, Command: "moot resume 6"})
	if err := os.WriteFile(filepath.Join(dir, bugfolder.LockFile), lock, 0o600); err != nil {
		t.Fatal(err)
	}
	m := loadBrowser(t, f, 100, 30)
	m = selectRow(t, m, bug.ID)
	m = keys(t, m, "r")
	if !strings.Contains(lastLine(screenText(m, f.proj)), "is run by moot pid") {
		t.Fatalf("r on a held bug:\n%s", screenText(m, f.proj))
	}
	os.Remove(filepath.Join(dir, bugfolder.LockFile))
	i := m.browser.rowOf(bug)
	m = pump(t, m, refreshRowCmd(f.reg, i, m.browser.rows[i].dir)())
	if last := lastLine(screenText(m, f.proj)); strings.Contains(last, "is run by") {
		t.Errorf("the line stays after the run ended: %q", last)
	}
}

// TestRunErrorShownWholeUntilAKey: the error a run ends with is
// shown whole at 80 and 60 columns (wrapped, not cut) and stays until a
// key; that key dismisses it.
func TestRunErrorShownWholeUntilAKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	long := "write /home/someone/projects/shop/_reversa_bugs/checkout/bugs/BUG-20260705-M8N2-estoque-negativo/debate/juiz/tentativa-2.md: no space left on device"
	for _, size := range [][2]int{{80, 24}, {60, 15}} {
		m, _ := liveModel(t, f, size[0], size[1])
		m = pump(t, m, engineMsg{then: runDoneMsg{err: errors.New(long)}})
		text := screenText(m, f.proj)
		joined := strings.Join(strings.Fields(text), " ")
		if !strings.Contains(strings.ReplaceAll(joined, " ", ""), strings.ReplaceAll(long, " ", "")) {
			t.Errorf("%v: the error is cut:\n%s", size, text)
		}
		if n := len(strings.Split(m.Render(), "\n")); n != size[1] {
			t.Errorf("%v: %d lines", size, n)
		}
		m.toast.until = fixedNow // a clock past any timeout: it stays until a key
		if text := screenText(m, f.proj); !strings.Contains(text, "no space left") {
			t.Errorf("%v: the error went without a key:\n%s", size, text)
		}
		m = keys(t, m, "x")
		if text := screenText(m, f.proj); strings.Contains(text, "no space left") {
			t.Errorf("%v: a key did not dismiss the error:\n%s", size, text)
		}
	}
}

// TestIndexAndHeaderGiveTheSameTokensAndMoney: on a generated register (its final answers
// carry total_tokens and total_cost_usd) the index (list, browser) and the
// debate header give the same tokens and money.
func TestIndexAndHeaderGiveTheSameTokensAndMoney(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	if err := testutil.GenerateRegister(proj, 12); err != nil {
		t.Fatal(err)
	}
	reg, err := bugfolder.FindRoot(proj)
	if err != nil {
		t.Fatal(err)
	}
	dirs, errs := bugfolder.BugDirs(reg)
	if len(errs) > 0 || len(dirs) != 12 {
		t.Fatalf("%d bugs, %v", len(dirs), errs)
	}
	for _, bd := range dirs {
		s, err := bugfolder.IndexBug(reg, bd)
		if err != nil {
			t.Fatal(err)
		}
		deb, err := bugfolder.ReadDebate(filepath.Join(bd.Dir, bugfolder.DebateDir), reg.Lang)
		if err != nil {
			t.Fatal(err)
		}
		m := debateFrame(t, viewFromFiles(s.Bug, deb, readFolderFacts(deb)))
		cost := money.Total(s.CostUSD, s.CostUnpriced)
		if got := headerFigure(m, "tokens"); got != fmtTokens(s.Tokens) || !strings.Contains(headerLine(m), " · "+cost+" · ") {
			t.Errorf("%s: the header reads %s tokens, the list %s tokens and %s:\n%s", s.Bug.ID, got, fmtTokens(s.Tokens), cost, headerLine(m))
		}
	}
}

// TestOpenFileLooksOffTheUIGoroutine: o's look at the file happens in the
// command, not in Update: a folder is refused when the command runs, and
// a file written between the key and the command is opened.
func TestOpenFileLooksOffTheUIGoroutine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := f.options()
	opts.getenv = func(k string) string { return map[string]string{"PAGER": "true"}[k] }
	m := New(opts)
	dir := t.TempDir()
	if msg, ok := m.openFile(dir)().(statusMsg); !ok || !strings.Contains(string(msg), "is not one") {
		t.Errorf("a folder: %v", msg)
	}
	path := filepath.Join(dir, "late.md")
	cmd := m.openFile(path) // no file yet: nothing is looked at here
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if msg, isStatus := cmd().(statusMsg); isStatus {
		t.Errorf("the file written after the key was refused: %q", msg)
	}
}
