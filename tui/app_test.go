package tui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// loadBrowser opens the browser and waits until every row is read.
func loadBrowser(t *testing.T, f *fixture, w, h int) Model {
	t.Helper()
	return browserWith(t, f.options(), w, h)
}

// browserWith is the browser on opts (no bug: the list), waited on until
// every row is read.
func browserWith(t *testing.T, opts Options, w, h int) Model {
	t.Helper()
	opts.Bug = nil
	m := sized(t, opts, w, h)
	// a deadline, not a speed goal: 2,000 bugs under -race on a loaded
	// 2-core machine take well over 10 s
	deadline := time.Now().Add(2 * time.Minute)
	// justified: a wait, not an assertion; the count line that says "reading" is cut at narrow widths
	for m.browser.loading {
		if time.Now().After(deadline) {
			t.Fatal("the browser never finished reading the register")
		}
		m = pump(t, m, nil)
		// justified: the count line that says "reading" is cut at narrow widths; the load's own flag is exact
		if m.browser.loading && len(m.browser.rows) > 0 {
			// the index streams: wait for the rest
			m = pump(t, m, indexMsg{ch: nil})
		}
	}
	return m
}

// TestBrowserListsSelectsAndFilters: the browser lists every bug with its
// state, j selects a row (its preview rendered), / filters and esc clears.
func TestBrowserListsSelectsAndFilters(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := loadBrowser(t, f, 120, 30)
	text := screenText(m, f.proj)
	if !strings.Contains(text, "1/6 ·") {
		t.Fatalf("the list does not count 6 rows:\n%s", text)
	}
	for id, state := range map[string]string{"BUG-20260702-Q2R8": " done ", "BUG-20260705-M8N2": " judge-failed ", "BUG-20260715-A7K3": " no-debate "} {
		if !strings.Contains(lineWith(text, id), state) {
			t.Errorf("the row of %s does not say %q: %q", id, state, lineWith(text, id))
		}
	}
	// the preview of the selected row renders off the UI goroutine
	m = keys(t, m, "j", "j", "j")
	m = pump(t, m, nil)
	if row := lineWith(screenText(m, f.proj), "BUG-20260702-Q2R8"); !strings.HasPrefix(row, "▸") {
		t.Fatalf("j j j does not select Q2R8: %q", row)
	}
	goldenScreen(t, m, f.proj)

	// / filters
	m = keys(t, m, "/", "f", "r", "e", "t", "e", "enter")
	if text := screenText(m, f.proj); !strings.Contains(text, "1/1 · 1 of 6 match") || !strings.HasPrefix(lineWith(text, "BUG-20260702-Q2R8"), "▸") {
		t.Errorf("filter 'frete' does not show Q2R8 alone:\n%s", text)
	}
	m = keys(t, m, "/", "esc")
	if text := screenText(m, f.proj); strings.Contains(text, "match") || strings.Count(text, "BUG-2026") != 6 {
		t.Errorf("esc does not clear the filter:\n%s", text)
	}
}

func TestBrowserRefusesANewDebateOnAClosedBug(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := loadBrowser(t, f, 120, 30)
	m = keys(t, m, "j", "j", "n") // K4M1, closed by DONE.md
	if drawnScreen(m) != "browser" || !strings.Contains(screenText(m, f.proj), "closed by DONE.md") {
		t.Errorf("screen %v status %q", m.screen, m.toast.text)
	}
	m = keys(t, m, "k", "n") // X9Z2, run by hand and interrupted: moot cannot resume it, n starts a new debate (archiving it)
	if drawnScreen(m) != "wizard" {
		t.Errorf("screen %v status %q", m.screen, m.toast.text)
	}
}

func TestBrowserOpensAPastDebate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := loadBrowser(t, f, 120, 40)
	m = keys(t, m, "j", "j", "j", "enter")
	if drawnScreen(m) != "debate" || !strings.Contains(screenText(m, f.proj), "BUG-20260702-Q2R8") || activeTab(m) != "Final" {
		t.Fatalf("the past debate opens on its Final tab, the tab marked %q:\n%s", activeTab(m), screenText(m, f.proj))
	}
	m = pump(t, m, nil)
	goldenScreen(t, m, f.proj)
	// the convergence chart draws one bar per row of the hand-written table
	if bars := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lineWith(screenText(keys(t, m, "shift+tab"), f.proj), "agreement  ")), "agreement")); len([]rune(bars)) != 3 {
		t.Errorf("convergence bars %q, want 3 (a hand-written table)", bars)
	}
	// round 2 shows the timed-out solver as such
	m = keys(t, m, "2")
	if pane := lineWith(screenText(m, f.proj), "agente-3"); !strings.Contains(pane, "timeout") {
		t.Errorf("agente-3's pane in round 2 does not say timeout: %q\n%s", pane, screenText(m, f.proj))
	}
	m = keys(t, m, "q")
	if drawnScreen(m) != "browser" {
		t.Error("q goes back to the browser from a past debate")
	}
}

func TestWizardOnARestrictedBugHidesExternals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  scripted: {kind: command, command: [x], external: false}\n  cloud: {kind: openai, base_url: https://api.example.com/v1}\n  broken: {kind: command, command: [y], external: false}\ndefaults: {solver: scripted, judge: scripted}\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := f.options()
	opts.Config = cfg
	opts.Bug = f.bug(t, "8")
	opts.Status = map[string]EngineStatus{"broken": {OK: false, Why: "the program ./y does not exist"}}
	m := sized(t, opts, 110, 40)
	if drawnScreen(m) != "wizard" {
		t.Fatalf("screen %v", m.screen)
	}
	off := m.wiz.offered()
	if len(off) != 1 || off[0] != "scripted" {
		t.Errorf("offered %v", off)
	}
	m = keys(t, m, "enter", "enter", "enter", "enter") // mode, N, R, one engine for all
	wizardAsks(t, m, "engines")
	text := screenText(m, f.proj)
	for _, want := range []string{"restricted", "cloud", "broken is not offered: the program ./y does not exist"} {
		if !strings.Contains(text, want) {
			t.Errorf("the wizard must say %q:\n%s", want, text)
		}
	}
	goldenScreen(t, m, f.proj)
}

func TestWizardToCostWithExternalConfirmation(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg, _ := harness.ParseConfig("moot.yaml", []byte("engines:\n  scripted: {kind: command, command: [x], external: false}\n  cloud: {kind: openai, base_url: https://api.example.com/v1}\ndefaults: {solver: scripted, judge: scripted}\n"))
	opts := f.options()
	opts.Config = cfg
	opts.Bug = f.bug(t, "7")
	m := sized(t, opts, 110, 40)
	// basics: mode, N, R, strategy
	m = keys(t, m, "enter", "enter", "enter", "enter")
	wizardAsks(t, m, "engines")
	// engine of the solvers: pick cloud (external); critics, judge, order-swap check, timeout
	m = keys(t, m, "down", "enter", "enter", "enter", "enter", "enter")
	wizardAsks(t, m, "confirm")
	if !strings.Contains(screenText(m, f.proj), "cloud will receive the bug") {
		t.Fatalf("the confirmation does not name cloud:\n%s", screenText(m, f.proj))
	}
	// decline: back to the engines
	m = keys(t, m, "n")
	wizardAsks(t, m, "engines")
	m = keys(t, m, "enter", "enter", "enter", "enter", "enter") // the choices are kept
	wizardAsks(t, m, "confirm")
	m = keys(t, m, "y")
	m = pump(t, m, nil)
	// the cost screen prices cloud as the solvers' engine and lists it as external
	if text := screenText(m, f.proj); drawnScreen(m) != "cost" || !strings.Contains(text, "cloud") || !strings.Contains(text, "external") {
		t.Errorf("the cost screen does not price the external cloud:\n%s", text)
	}
}

// TestCostScreenPricesTheSetupAndEditReopensTheWizard: the cost screen
// states the calls and the estimate before anything runs; Edit opens the
// wizard with the setup.
func TestCostScreenPricesTheSetupAndEditReopensTheWizard(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := f.options()
	bug := f.bug(t, "7")
	opts.Bug = bug
	opts.Setup = engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Solvers: []string{"scripted", "scripted", "scripted"}, Judge: "scripted"}
	m := sized(t, opts, 100, 30)
	if drawnScreen(m) != "cost" || !strings.Contains(screenText(m, f.proj), "= 10 calls") {
		t.Fatalf("the cost screen draws no priced plan:\n%s", screenText(m, f.proj))
	}
	text := screenText(m, f.proj)
	for _, want := range []string{"3×(2+1) + 0×2 + 1 = 10 calls", "estimate", "▸ Start ◂", "unknown context window"} {
		if !strings.Contains(text, want) {
			t.Errorf("cost screen lacks %q", want)
		}
	}
	goldenScreen(t, m, f.proj)
	m = keys(t, m, "right")
	if !strings.Contains(screenText(m, f.proj), "▸ Edit ◂") {
		t.Error("→ moves to Edit")
	}
	m = keys(t, m, "enter")
	if text := screenText(m, f.proj); wizardStage(m) != "basics" || !strings.Contains(lineWith(text, "diagnosis —"), ">") || !strings.Contains(text, "> 3") {
		t.Errorf("Edit opens the wizard with the setup (diagnosis, N 3):\n%s", text)
	}

}

// liveModel is a model showing a debate fed with scripted engine events.
func liveModel(t *testing.T, f *fixture, w, h int) (Model, *bridge) {
	t.Helper()
	bug := f.bug(t, "7")
	s := engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Solvers: []string{"scripted", "scripted", "scripted"}, Judge: "scripted"}
	opts := f.options()
	opts.Bug, opts.Setup = bug, s
	m := sized(t, opts, w, h)
	b := newBridge()
	m.run.bridge, m.run.on = b, true
	m.dv.deb = newLiveView(s)
	m.dv.deb.startedAt = fixedNow.Add(-42 * time.Second)
	m.now = fixedNow
	m.screen, m.dv.tab = scrDebate, 1
	at := fixedNow.Add(-40 * time.Second)
	evs := []engine.Event{
		{Type: engine.EvSetup, Path: bug.Dir + "/debate", Calls: 10, Time: at},
		{Type: engine.EvRoundStarted, Round: 0, Time: at},
	}
	for _, id := range []string{"agente-1", "agente-2", "agente-3"} {
		evs = append(evs, engine.Event{Type: engine.EvCallStarted, Round: 0, SolverID: id, Role: bugfolder.RoleSolver, Engine: "scripted", Attempt: 1, Time: at})
	}
	evs = append(evs,
		engine.Event{Type: engine.EvOutput, Round: 0, SolverID: "agente-1", Role: bugfolder.RoleSolver, Text: "## Hipóteses\n\nH1: o recálculo por CEP reaplica o desconto.\n"},
		engine.Event{Type: engine.EvCallFinished, Round: 0, SolverID: "agente-1", Role: bugfolder.RoleSolver, Status: "ok", DurationMS: 12400, TokensIn: 2150, TokensOut: 610, CostUnknown: true}, // scripted has no price
		engine.Event{Type: engine.EvOutput, Round: 0, SolverID: "agente-2", Role: bugfolder.RoleSolver, Text: "## Hipóteses\n\nH1: corrida entre frete e desconto"},
		engine.Event{Type: engine.EvCallFinished, Round: 0, SolverID: "agente-3", Role: bugfolder.RoleSolver, Status: "timeout", DurationMS: 9000, Error: "no answer within 9s", CostUnknown: true},
	)
	m = pump(t, m, engineMsg{events: evs})
	return m, b
}

// TestLiveViewShowsThePanesZoomHelpAndTabs: the live view draws each
// call's pane and figures, bounds a pane's tail, zooms, shows its keys and
// moves between tabs.
func TestLiveViewShowsThePanesZoomHelpAndTabs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 120, 30)
	text := screenText(m, f.proj)
	for _, want := range []string{"round 0 of 2", "calls 2/10", "2.8k tokens", "agente-1 · ok · scripted · 12s", "running · scripted", "agente-3 · timeout", "no answer within 9s", "corrida entre frete e desconto", "Round 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("live view lacks %q:\n%s", want, text)
		}
	}
	goldenScreen(t, m, f.proj)

	// a pane keeps a bounded tail; the whole text lives on disk
	big := strings.Repeat("linha de texto longa do debatedor\n", 4000)
	m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvOutput, Round: 0, SolverID: "agente-2", Role: bugfolder.RoleSolver, Text: big}}})
	// justified: a memory bound; the frame shows a pane's last lines either way
	if n := len(m.dv.deb.rounds[0].pane("agente-2").tail); n > maxTail {
		t.Errorf("tail %d bytes, bound %d", n, maxTail)
	}

	// enter zooms the focused pane; esc comes back
	m = keys(t, m, "enter")
	if z := screenText(m, f.proj); !strings.HasPrefix(z, "agente-1 · ok · scripted") || !strings.Contains(z, "H1: o recálculo por CEP reaplica o desconto.") {
		t.Errorf("zoom (the focused pane's title on top, its text):\n%s", z)
	}
	m = keys(t, m, "esc")
	if drawnScreen(m) != "debate" {
		t.Errorf("esc leaves the zoom:\n%s", screenText(m, f.proj))
	}
	// ? shows the keys
	m = keys(t, m, "?")
	if !strings.Contains(screenText(m, f.proj), "zoom the pane") {
		t.Error("help overlay")
	}
	goldenScreenNamed(t, "help", m, f.proj)
	m = keys(t, m, "x")
	if strings.Contains(screenText(m, f.proj), "zoom the pane") {
		t.Error("any key closes the help")
	}
	// tabs
	m = keys(t, m, "tab")
	if got := activeTab(m); got != "Round 1" {
		t.Errorf("tab moves from Round 0 to Round 1, the tab marked is %q", got)
	}
}

func goldenScreenNamed(t *testing.T, name string, m Model, proj string) {
	t.Helper()
	t.Run(name, func(t *testing.T) { goldenScreen(t, m, proj) })
}

func TestQuorumMenu(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 120, 34)
	q := engine.QuorumLoss{Round: 1, Valid: 1, Needed: 2, Panel: 3, ValidIDs: []string{"agente-1"}, RetryCalls: 2, RetryUSD: 0.0123, ContinueSaves: 2,
		Failed:  []engine.FailedCall{{SolverID: "agente-2", Engine: "scripted", Status: bugfolder.StatusTimeout, LastError: "no answer within 9s"}, {SolverID: "agente-3", Engine: "scripted", Status: bugfolder.StatusInvalidOutput, LastError: "## Teste: missing"}},
		Engines: []string{"scripted", "local"}}
	reply := make(chan quorumAnswer, 1)
	m = pump(t, m, engineMsg{then: askQuorumMsg{q, reply}})
	text := screenText(m, f.proj)
	order := []string{"Quorum lost in round 1", "agente-2  timeout", "agente-3  invalid-output", "Continue with the 1 valid solver (saves 2 calls)", "Retry the 2 failed (+2 calls, ≈$0.01+unknown)", "Cancel", "Other…"}
	last := -1
	for _, want := range order {
		i := strings.Index(text, want)
		if i < 0 || i < last {
			t.Errorf("%q missing or out of order:\n%s", want, text)
		}
		last = i
	}
	goldenScreen(t, m, f.proj)
	// q does not leave a question unanswered: it goes to the form
	m = keys(t, m, "down", "down", "enter")
	a := recv(t, reply)
	// justified: the decision the engine receives on the menu's channel; no frame shows it
	if a.d.Choice != engine.QuorumCancel || a.d.By != "human" || anyMenuDrawn(m) {
		t.Errorf("answer %+v:\n%s", a, screenText(m, f.proj))
	}
}

func TestQuorumOtherSwapAndTimeout(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 120, 34)
	q := engine.QuorumLoss{Round: 1, Valid: 1, Needed: 2, Panel: 3, RetryCalls: 1,
		Failed:  []engine.FailedCall{{SolverID: "agente-2", Engine: "scripted", Status: bugfolder.StatusTimeout}},
		Engines: []string{"scripted", "local"}}
	reply := make(chan quorumAnswer, 1)
	m = pump(t, m, engineMsg{then: askQuorumMsg{q, reply}})
	m = keys(t, m, "down", "down", "down", "enter") // Other…
	if !regexp.MustCompile(`┃ Other +│`).MatchString(screenText(m, f.proj)) {
		t.Fatalf("Other… opens the other actions:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "enter", "enter") // swap, agente-2
	if !menuDrawn(m, menuSwapEngine) || !strings.Contains(screenText(m, f.proj), "New engine for agente-2 (now scripted)") {
		t.Fatalf("the swap menu:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "enter") // local
	a := recv(t, reply)
	// justified: the decision the engine receives on the menu's channel; no frame shows it
	if a.d.Choice != engine.QuorumSwap || a.d.SolverID != "agente-2" || a.d.Engine != "local" {
		t.Errorf("swap answer %+v", a.d)
	}
	// change a timeout
	m = pump(t, m, engineMsg{then: askQuorumMsg{q, reply}})
	m = keys(t, m, "down", "down", "down", "enter", "down", "enter", "enter")
	if !menuDrawn(m, menuTimeout) {
		t.Fatalf("the timeout menu:\n%s", screenText(m, f.proj))
	}
	// the placeholder is drawn only while the field is empty
	if !strings.Contains(screenText(m, f.proj), "e.g. 20m") {
		t.Errorf("the timeout field must start empty with a placeholder:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "2", "0", "m", "enter")
	a = recv(t, reply)
	// justified: the decision the engine receives on the menu's channel; no frame shows it
	if a.d.Choice != engine.QuorumSetTimeout || a.d.Timeout != 20*time.Minute {
		t.Errorf("timeout answer %+v", a.d)
	}
	// pause
	m = pump(t, m, engineMsg{then: askQuorumMsg{q, reply}})
	m = keys(t, m, "down", "down", "down", "enter", "down", "down", "enter", "enter")
	_ = m
	a = recv(t, reply)
	// justified: the decision the engine receives on the menu's channel; no frame shows it
	if a.d.Choice != engine.QuorumPause {
		t.Errorf("pause answer %+v", a.d)
	}
}

func TestJudgeMenu(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 120, 34)
	j := engine.JudgeFailure{Attempt: 1, Reason: "invalid answer: ## Vencedora: names no label", RetryUSD: 0.004,
		Labels: []engine.LabelPreview{{Label: "A", Preview: "## Hipóteses\n\nH1: o recálculo reaplica"}, {Label: "B", Preview: "## Hipóteses\n\nH1: corrida entre frete e desconto"}}}
	reply := make(chan judgeAnswer, 1)
	m = pump(t, m, engineMsg{then: askJudgeMsg{j, reply}})
	text := screenText(m, f.proj)
	for _, want := range []string{"The judge failed (attempt 1)", "names no label", "Retry the judge (+1 call, ≈$0.0040+unknown)", "Choose the winner myself", "Cancel"} {
		if !strings.Contains(text, want) {
			t.Errorf("judge menu lacks %q", want)
		}
	}
	goldenScreen(t, m, f.proj)
	m = keys(t, m, "down", "enter")
	if !menuDrawn(m, menuJudgeHuman) || !strings.Contains(screenText(m, f.proj), "proposal B — H1: corrida entre frete e desconto") {
		t.Fatalf("human choice:\n%s", screenText(m, f.proj))
	}
	keys(t, m, "down", "enter")
	a := recv(t, reply)
	// justified: the decision the engine receives on the menu's channel; no frame shows it
	if a.d.Choice != engine.JudgeHuman || a.d.Winner != "B" || a.d.By != "human" {
		t.Errorf("answer %+v", a.d)
	}
}

func TestQuitAsksWhileRunning(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, b := liveModel(t, f, 120, 30)
	m = keys(t, m, "q")
	if !menuDrawn(m, menuQuit) || !strings.Contains(screenText(m, f.proj), "moot resume BUG-20260715-A7K3") {
		t.Fatalf("q must ask:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "enter") // "Keep watching" is focused
	// justified: the run's context is what the engine sees stop; no frame shows it
	if anyMenuDrawn(m) || m.Outcome().Left || b.ctx.Err() != nil {
		t.Error("keep watching")
	}
	m = keys(t, m, "q", "up", "enter")
	// justified: as above, the engine's context
	if !m.Outcome().Left || b.ctx.Err() == nil {
		t.Error("leave must stop the run")
	}
	// the engine ends; then the UI quits
	_, cmd := m.Update(engineMsg{then: runDoneMsg{res: &engine.Result{Outcome: engine.OutcomeCancelled}}})
	if msg := cmd(); msg != (tea.QuitMsg{}) {
		t.Errorf("after leaving, the end of the run quits: %#v", msg)
	}
}

func TestEverySizeFits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, size := range [][2]int{{80, 24}, {100, 30}, {200, 60}} {
		w, h := size[0], size[1]
		check := func(name string, m Model) {
			lines := strings.Split(m.Render(), "\n")
			if len(lines) != h {
				t.Errorf("%s at %dx%d: %d lines", name, w, h, len(lines))
			}
			for i, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Errorf("%s at %dx%d: line %d is %d wide", name, w, h, i, ansi.StringWidth(l))
				}
			}
		}
		check("browser", loadBrowser(t, f, w, h))
		m, _ := liveModel(t, f, w, h)
		check("live", m)
		// resize a running view
		m = pump(t, m, tea.WindowSizeMsg{Width: w / 2, Height: h / 2})
		if lines := strings.Split(m.Render(), "\n"); len(lines) != h/2 {
			t.Errorf("after resize: %d lines", len(lines))
		}
	}
}

func TestLightBackgroundAndNoColor(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 100, 30)
	dark := m.Render()
	m = pump(t, m, tea.BackgroundColorMsg{Color: color.White})
	if light := m.Render(); light == dark || ansi.Strip(light) != ansi.Strip(dark) {
		t.Error("a light background redraws the same text in other colours")
	}
	if glamourStyle(false, true) != "notty" || glamourStyle(true, false) != "dark" || glamourStyle(false, false) != "light" {
		t.Error("glamour styles")
	}
}

// recv takes an answer from a menu, or fails after a deadline.
func recv[T any](t *testing.T, ch chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatal("the menu never answered")
	}
	var zero T
	return zero
}

// TestStartBeforePIsAssembled: Enter on Start while P is still being
// assembled starts the debate as soon as its plan is ready, instead of
// refusing it.
func TestStartBeforePIsAssembled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := f.options()
	bug := f.bug(t, "7")
	opts.Bug = bug
	opts.Setup = engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Solvers: []string{"scripted", "scripted", "scripted"}, Judge: "scripted"}
	m := New(opts) // Init not run: P is not assembled yet
	if drawnScreen(m) != "cost" || !strings.Contains(screenText(m, f.proj), "assembling P…") {
		t.Fatalf("the cost screen should wait for P:\n%s", screenText(m, f.proj))
	}
	nm, _ := m.Update(keyMsg("enter"))
	m = nm.(Model)
	if drawnScreen(m) != "cost" {
		t.Fatalf("the debate started before P was assembled:\n%s", screenText(m, f.proj))
	}
	nm, cmd := m.Update(assemblePCmd(bug)())
	m = nm.(Model)
	if drawnScreen(m) != "cost" {
		t.Fatal("the debate started before its plan was priced")
	}
	for _, msg := range run(cmd) { // the plan, priced in the background
		if p, ok := msg.(planMsg); ok {
			nm, _ = m.Update(p)
			m = nm.(Model)
		}
	}
	if drawnScreen(m) != "debate" {
		t.Errorf("the debate did not start once P was ready:\n%s", screenText(m, f.proj))
	}
	// justified: cleanup, not an assertion: the test stops the engine it started
	if m.run.bridge != nil {
		m.run.bridge.cancel()
		waitRunDone(t, m.run.bridge) // the engine stops writing before TempDir is removed
	}
}

// waitRunDone drains a bridge until the engine has returned (runDoneMsg),
// with a deadline.
func waitRunDone(t *testing.T, b *bridge) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case msg := <-b.ch:
			if _, ok := msg.(runDoneMsg); ok {
				return
			}
		case <-deadline:
			t.Fatal("the engine did not return within a minute of its cancel")
		}
	}
}

// TestWizardWaitsForTheProbe: while the background probe runs the engines
// stage says so; when it reports, the stage offers only what passed.
func TestWizardWaitsForTheProbe(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  scripted: {kind: command, command: [x], external: false}\n  local: {kind: openai, base_url: http://127.0.0.1:9/v1}\ndefaults: {solver: scripted, judge: scripted}\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := f.options()
	opts.Config = cfg
	opts.Bug = f.bug(t, "7")
	status := map[string]EngineStatus{"scripted": {OK: true}, "local": {OK: false, Why: "no server at http://127.0.0.1:9/v1"}}
	release := make(chan struct{})
	defer close(release)
	opts.Probe = func(context.Context) map[string]EngineStatus {
		<-release // still probing while the test looks
		return status
	}
	m := sized(t, opts, 110, 40)
	m = keys(t, m, "enter", "enter", "enter", "enter")
	wizardAsks(t, m, "engines")
	if text := screenText(m, f.proj); !strings.Contains(text, "checking the engines") {
		t.Fatalf("the engines stage does not say the probe runs:\n%s", text)
	}
	if text := screenText(m, f.proj); !strings.Contains(text, "scripted  (command)") || !strings.Contains(text, "local  (openai)") {
		t.Errorf("before the probe reports, every engine is listed:\n%s", text)
	}
	m = pump(t, m, probedMsg(status))
	text := screenText(m, f.proj)
	if !strings.Contains(text, "scripted  (command)") || strings.Contains(text, "local  (openai)") || !strings.Contains(text, "local is not offered: no server at") || strings.Contains(text, "checking the engines") {
		t.Errorf("after the probe only scripted is offered:\n%s", text)
	}
}

// TestTrustMenuBeforeAnyProbe: with an untrusted project engines file the
// UI opens on the trust question, probes nothing until it is answered, and
// "Trust it" trusts the file and starts the probe.
func TestTrustMenuBeforeAnyProbe(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	probed, trusted := 0, 0
	opts := f.options()
	opts.Probe = func(context.Context) map[string]EngineStatus { probed++; return nil }
	opts.Untrusted = &TrustRequest{File: "_reversa_bugs/moot.yaml", Reasons: []string{"engine evil runs a command ([\"sh\"])"},
		Trust: func() error { trusted++; return nil }}
	m := sized(t, opts, 100, 30)
	if !menuDrawn(m, menuTrust) || !strings.Contains(screenText(m, f.proj), "engine evil runs a command") {
		t.Fatalf("the UI did not open on the trust question:\n%s", screenText(m, f.proj))
	}
	if probed != 0 {
		t.Fatal("an engine was probed before the engines file was trusted")
	}
	m = keys(t, m, "down", "enter")
	if trusted != 1 || anyMenuDrawn(m) || probed != 1 {
		t.Errorf("Trust it: trusted %d times, probed %d times:\n%s", trusted, probed, screenText(m, f.proj))
	}
}

// TestTrustQuestionTallerThanTheWindowShowsItsChoices: at 60×15, a trust
// question whose reasons fill more than the window shows its choices and
// keys (the default, Quit, in focus) with "more above", and pgup scrolls
// to its first reason: it was drawn from its top and cut at the window's
// bottom, its choices out of sight, so a blind enter answered unseen.
func TestTrustQuestionTallerThanTheWindowShowsItsChoices(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	opts := f.options()
	var reasons []string
	for _, e := range []string{"scripted", "juror-a", "juror-o", "local"} {
		reasons = append(reasons, fmt.Sprintf("engine %s runs a command ([\"../tools/scripted-llm.sh\"]); its program tools/scripted-llm.sh has sha256 f9a4f0376b96ec63f695e0d528d68d3904ead12091c4be6680d41da1d6440a0d", e))
	}
	opts.Untrusted = &TrustRequest{File: "_reversa_bugs/moot.yaml", Reasons: reasons, Trust: func() error { return nil }}
	m := sized(t, opts, 60, 15)
	s := checkFrame(t, m, 60, 15, f.proj, []string{"> Quit: read the file first", "Trust it", "enter confirm", "more above (pgup)"})
	if strings.Contains(s, "engine scripted runs") {
		t.Errorf("the first reason is shown where the choices should be:\n%s", s)
	}
	m = keys(t, m, "pgup", "pgup", "pgup", "pgup", "pgup", "pgup")
	if s := screenText(m, f.proj); !strings.Contains(s, "Trust this project's engines file?") || !strings.Contains(s, "more below (pgdn)") {
		t.Errorf("pgup does not scroll to the question's top:\n%s", s)
	}
}

// TestLeaveDialogWhenTheDebateFinishes: the debate ends while "leave this
// debate?" is open: the dialog closes, and a leave answered just as it
// ends quits at once as finished (no hang, not "resumable").
func TestLeaveDialogWhenTheDebateFinishes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	done := engineMsg{then: runDoneMsg{res: &engine.Result{Outcome: engine.OutcomeDone}}}
	m, _ := liveModel(t, f, 80, 24)
	m = keys(t, m, "q")
	m = pump(t, m, done)
	if anyMenuDrawn(m) {

		t.Errorf("the leave dialog stayed open after the end:\n%s", screenText(m, f.proj))
	}
	m, _ = liveModel(t, f, 80, 24)
	m = keys(t, m, "q", "up")
	m.run.on = false // the end arrived, the dialog not closed yet
	m, quits := pumpQuits(m, keyMsg("enter"))
	if m.Outcome().Left || !quits {
		t.Errorf("leave after the end: left %v, quits %v", m.Outcome().Left, quits)
	}
}

// pumpQuits is pump that reports whether the model asked to quit.
func pumpQuits(m Model, msg tea.Msg) (Model, bool) {
	queue, quits := []tea.Msg{msg}, false
	for steps := 0; len(queue) > 0 && steps < 500; steps++ {
		next := queue[0]
		queue = queue[1:]
		if _, ok := next.(tea.QuitMsg); ok {
			quits = true
			continue
		}
		nm, cmd := m.Update(next)
		m = nm.(Model)
		queue = append(queue, run(cmd)...)
	}
	return m, quits
}

// TestRunErrorStaysUntilAKey: the error a run ends with stays in the
// footer (a refresh or a tick does not replace it) until a key, and once
// dismissed it no longer decides the exit code.
func TestRunErrorStaysUntilAKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 80, 24)
	m = pump(t, m, engineMsg{then: runDoneMsg{err: errors.New("resume refused: the bug changed")}})
	m = pump(t, m, tickMsg(fixedNow.Add(time.Minute)))
	m.now = fixedNow.Add(time.Minute)
	if foot := lastLine(screenText(m, f.proj)); !strings.Contains(foot, "resume refused") {
		t.Errorf("the error left the footer: %q", foot)
	}
	if m.Outcome().Err == nil {
		t.Fatal("the error is not kept while shown")
	}
	m = keys(t, m, "j")
	if foot := lastLine(screenText(m, f.proj)); strings.Contains(foot, "resume refused") || m.Outcome().Err != nil {
		t.Errorf("after a key: footer %q, exit error %v", foot, m.Outcome().Err)
	}
}

// TestQuitAfterTheFinishedEventLeavesWithoutAsking: q pressed once the
// header says the debate finished, while the engine still closes its
// files, asks nothing (there is nothing left to stop): moot leaves as soon
// as the engine returns, with its result.
func TestQuitAfterTheFinishedEventLeavesWithoutAsking(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 80, 24)
	m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvDebateFinished, Outcome: bugfolder.OutcomeDone, Calls: 10, Time: fixedNow}}})
	m, quits := pumpQuits(m, keyMsg("q"))
	if quits || anyMenuDrawn(m) {
		t.Fatalf("q after the finished event: quits %v, a menu drawn:\n%s", quits, screenText(m, f.proj))
	}
	if !strings.Contains(footer(m), "leaving once moot has closed its files") {
		t.Errorf("the footer does not say moot leaves once the engine returns: %q", footer(m))
	}
	res := &engine.Result{Outcome: engine.OutcomeDone, Dir: f.bug(t, "7").Dir + "/debate"}
	m, quits = pumpQuits(m, engineMsg{then: runDoneMsg{res: res}})
	if !quits || m.Outcome().Result != res {
		t.Errorf("the engine returned: quits %v, result %v", quits, m.Outcome().Result)
	}
}
