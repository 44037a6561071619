package tui

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/engine"
)

// TestTranslatedFolderNamesAreRead: a hand-run debate written with the
// translated names (problem.md, round-0/agent-1.md) shows its problem and
// its round's answers, not "not written yet" and empty panes.
func TestTranslatedFolderNamesAreRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "9")
	m := loadBrowser(t, f, 100, 30)
	m = selectRow(t, m, bug.ID)
	m = keys(t, m, "enter")
	if got := debateOf(m); got != bug.ID {
		t.Fatalf("enter shows the debate of %q, want %s:\n%s", got, bug.ID, screenText(m, f.proj))
	}
	m = keys(t, m, "shift+tab") // round 0
	text := screenText(m, f.proj)
	if !strings.Contains(text, "agent-1 · ok") || strings.Contains(text, "waiting") {
		t.Errorf("round 0 of a translated debate shows no answer:\n%s", text)
	}
	m = keys(t, m, "shift+tab") // problem
	text = screenText(m, f.proj)
	if strings.Contains(text, "not written yet") || !strings.Contains(text, "Explanatory power") {
		t.Errorf("problem tab of a translated debate:\n%s", text)
	}
}

// TestLeavingADebateKeepsTheBrowserRows: leaving a debate back to the browser
// keeps every row read (no re-read of the whole register with blank rows)
// and reads only the bug just left again.
func TestLeavingADebateKeepsTheBrowserRows(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := loadBrowser(t, f, 100, 30)
	m = keys(t, m, "j", "enter")
	if drawnScreen(m) != "debate" {
		t.Fatalf("no debate opened:\n%s", screenText(m, f.proj))
	}
	left := m.subj.bug.Dir
	nm, cmd := m.Update(keyMsg("q"))
	m = nm.(Model)
	if drawnScreen(m) != "browser" {
		t.Fatalf("screen %v after q, want the browser", m.screen)
	}
	// no row is blank: the list is the one a browser opened now draws
	if got, want := drawnRows(m), drawnRows(loadBrowser(t, f, 100, 30)); !slices.Equal(got, want) {
		t.Errorf("the list after leaving a debate:\n got %q\nwant %q", got, want)
	}
	// justified: which rows are read again is no frame's to say (a row read
	// again draws the same), so the commands' messages are asked
	var reread []string
	for _, msg := range run(cmd) {
		switch msg := msg.(type) {
		case bugDirsMsg:
			t.Error("leaving a debate lists the whole register again")
		case rowsChangedMsg:
			for _, it := range msg.items {
				reread = append(reread, m.browser.rows[it.i].dir.Dir)
			}
		}
	}
	if len(reread) != 1 || reread[0] != left {
		t.Errorf("read again %v, want only %s", reread, left)
	}
}

// openBug opens a bug's debate from the browser.
func openBug(t *testing.T, f *fixture, arg string, w, h int) Model {
	t.Helper()
	bug := f.bug(t, arg)
	m := loadBrowser(t, f, w, h)
	m = selectRow(t, m, bug.ID)
	m = keys(t, m, "enter")
	if got := debateOf(m); got != bug.ID {
		t.Fatalf("enter shows the debate of %q, want %s:\n%s", got, bug.ID, screenText(m, f.proj))
	}
	return m
}

// TestHandRunJudgeFailureOffersNoRetry: a hand-run debate whose judge
// failed records no judge engine: the Final tab and the judge menu offer
// the human choice (as moot show does), never an impossible retry.
func TestHandRunJudgeFailureOffersNoRetry(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := openBug(t, f, "6", 80, 24)
	for i := 0; i < 8 && activeTab(m) != "Final"; i++ {
		m = keys(t, m, "tab")
	}
	text := screenText(m, f.proj)
	if strings.Contains(text, "retry the judge") || !strings.Contains(text, "choose the winner") {
		t.Errorf("final tab of a hand-run debate:\n%s", text)
	}
	m = keys(t, m, "r")
	if drawnMenu(m) != menuJudge {
		t.Fatalf("r opened no judge menu:\n%s", screenText(m, f.proj))
	}
	text = screenText(m, f.proj)
	if strings.Contains(text, "Retry the judge") || strings.Contains(text, "another engine") || !strings.Contains(text, "Choose the winner") {
		t.Errorf("judge menu of a hand-run debate:\n%s", text)
	}
}

// TestSearchPromptVisibleWhileADecisionWaits: the search prompt and what is typed
// show while a decision waits (80×24) and at 60×15; reopening / starts a
// new query instead of appending to the last one.
func TestSearchPromptVisibleWhileADecisionWaits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, size := range [][2]int{{80, 24}, {60, 15}} {
		m, _ := liveModel(t, f, size[0], size[1])
		m.dlg.menu = judgeMenu(engine.JudgeFailure{Attempt: 1, Reason: "no winner"}, make(chan judgeAnswer, 1), false, false, true)
		m.dlg.hidden = true
		m.dv.focus = 0
		m = keys(t, m, "enter", "/", "a", "l", "v", "o")
		if !zoomShown(m) || !strings.Contains(footer(m), "esc close") {
			t.Fatalf("%v: no search prompt in a zoom:\n%s", size, screenText(m, f.proj))
		}
		last := lastLine(screenText(m, f.proj))
		if !strings.Contains(last, "/alvo") || !strings.Contains(last, "esc close") {
			t.Errorf("%v: footer %q hides the prompt or its hint", size, last)
		}
		m = keys(t, m, "enter", "/", "x")
		if got := footer(m); !regexp.MustCompile(`^/x\s`).MatchString(got) {
			t.Errorf("%v: reopened prompt %q, want a new query %q", size, got, "x")
		}
	}
}

// TestMenusNameWhatTheyRetryAndTheirKeys: the judge-engine menu says what it
// retries on; the timeout of all failed solvers speaks of them in the
// plural; the yes/no confirmation's footer names the keys that move it.
func TestMenusNameWhatTheyRetryAndTheirKeys(t *testing.T) {
	t.Parallel()
	j := engine.JudgeFailure{Attempt: 1, Reason: "names no label", Engine: "bad", Engines: []string{"bad", "local"}}
	jm := judgeMenu(j, make(chan judgeAnswer, 1), false, true, true)
	tm := timeoutMenu(&menu{solver: engine.AllFailed})
	f := newFixture(t)
	m, _ := liveModel(t, f, 100, 34)
	for _, c := range []struct {
		mn   *menu
		want string
	}{
		{judgeEngineMenu(jm, f.cfg, nil), "Retry the judge on another engine (now: bad)"},
		{tm, "the failed solvers are called again"},
	} {
		m.dlg.openMenu(&m.frame, c.mn)
		if text := screenText(m, f.proj); !strings.Contains(text, c.want) {
			t.Errorf("menu lacks %q:\n%s", c.want, text)
		}
	}
	m.dlg.openMenu(&m.frame, judgeConfirmMenu(&menu{j: j, engine: "ext"}))
	if got := footer(m); !strings.HasPrefix(got, "←/→ choose") {

		t.Errorf("confirmation footer %q, want ←/→ (its buttons sit side by side)", got)
	}
}
