package tui

import (
	"os"
	"path/filepath"

	"fmt"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"

	tea "charm.land/bubbletea/v2"
)

// TestJudgeFailedFinalTab: the Final tab of a judge-failed debate says the
// judge failed, why, and how to retry, choose or cancel; r opens the judge
// menu; the Convergence tab of a debate without a table says so in words.
func TestJudgeFailedFinalTab(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := loadBrowser(t, f, size[0], size[1])
			m = keys(t, m, "j", "j", "j", "j", "enter") // M8N2, judge-failed
			if drawnScreen(m) != "debate" || !strings.Contains(screenText(m, f.proj), "BUG-20260705-M8N2") {
				t.Fatalf("opened:\n%s", screenText(m, f.proj))
			}
			m.dv.tab = m.dv.finalTab()
			text := screenText(m, f.proj)
			for _, want := range []string{"The judge failed (attempt 1)", "names 2 labels", "r opens the judge menu", "--winner A"} {
				if !strings.Contains(text, want) {
					t.Errorf("Final tab lacks %q:\n%s", want, text)
				}
			}
			goldenScreen(t, m, f.proj)
			m.dv.tab = m.dv.convTab()
			m = pump(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]}) // renders the tab's document
			text = screenText(m, f.proj)
			if strings.Contains(text, "no such file") || strings.Contains(text, "open /") || !strings.Contains(text, "not written yet") {
				t.Errorf("Convergence tab:\n%s", text)
			}
		})
	}
	// r resumes an unfinished debate (the engine asks its pending menu
	// again); on a finished one it says there is nothing to resume
	m := loadBrowser(t, f, 100, 30)
	m = keys(t, m, "j", "j", "j", "j", "enter")
	nm, cmd := m.Update(keyMsg("r"))
	// justified: r's run starts in a command the test does not run (it would call the engines)
	if !nm.(Model).opts.Resume || cmd == nil {
		t.Error("r on a judge-failed debate does not resume it")
	}
	m = keys(t, m, "q", "k", "enter", "r") // Q2R8, done
	if !strings.HasSuffix(headerLine(m), " · done") || !strings.Contains(screenText(m, ""), "nothing to resume") {
		t.Errorf("r on a finished debate starts nothing and says so:\n%s", screenText(m, ""))
	}
}

// TestArchivedDebatesReachable: a bug with an archived debate says which
// of its debates is shown, and a reaches the archived one and back.
func TestArchivedDebatesReachable(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := loadBrowser(t, f, 120, 30)
	m = keys(t, m, "j", "j", "enter") // K4M1: one archived debate, one current
	if !strings.Contains(screenText(m, f.proj), "debate 2 of 2 · a older") {
		t.Fatalf("not the newest of two debates:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "a")
	if !strings.Contains(screenText(m, f.proj), "debate 1 of 2 · a older") {
		t.Errorf("a shows the archived debate:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "a")
	if !strings.Contains(screenText(m, f.proj), "debate 2 of 2 · a older") {
		t.Errorf("a wraps to the newest:\n%s", screenText(m, f.proj))
	}
}

// TestCancelledAfterJudgeFailure: a debate cancelled at the judge menu
// shows, in its Final tab, that the judge failed, why and the options,
// not the judge's refused answer as if it were the verdict.
func TestCancelledAfterJudgeFailure(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bug := f.bug(t, "6") // M8N2: judge-failed
	log := `{"type":"judge_failed","reason":"names 2 labels"}` + "\n" + `{"type":"debate_finished","status":"cancelled"}` + "\n"
	if err := os.WriteFile(filepath.Join(bug.Dir, bugfolder.DebateDir, "eventos.jsonl"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	m := loadBrowser(t, f, 80, 24)
	m = keys(t, m, "j", "j", "j", "j", "enter")
	if head := strings.SplitN(screenText(m, f.proj), "\n", 2)[0]; drawnScreen(m) != "debate" || !strings.HasSuffix(head, "cancelled") {
		t.Fatalf("opened:\n%s", screenText(m, f.proj))
	}
	m.dv.tab = m.dv.finalTab()
	text := screenText(m, f.proj)
	for _, want := range []string{"The judge failed", "why:", "cancelled at the judge menu", "r opens the judge menu"} {
		if !strings.Contains(text, want) {
			t.Errorf("Final tab lacks %q:\n%s", want, text)
		}
	}
}

// TestClosedBugsArchivedDebateOffersNoResume: the archived debate of a
// bug closed by DONE.md never offers r, and r says why.
func TestClosedBugsArchivedDebateOffersNoResume(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m := loadBrowser(t, f, 80, 24)
	m = keys(t, m, "j", "j", "enter", "a") // K4M1: closed, its archived debate
	if !strings.Contains(screenText(m, f.proj), "debate 1 of 2") {
		t.Fatalf("not the archived debate:\n%s", screenText(m, f.proj))
	}
	for _, c := range []struct {
		state string
		tab   int
	}{{"running", 1}, {"judge-failed", m.dv.finalTab()}} { // as an interrupted or judge-failed one would be
		m.dv.deb.state, m.dv.deb.judgeFailed, m.dv.tab = c.state, c.state == "judge-failed", c.tab
		if text := screenText(m, f.proj); strings.Contains(text, "r resumes") || strings.Contains(text, "r opens the judge menu") {
			t.Errorf("the closed bug's archived debate offers r:\n%s", text)
		}
	}
	nm, _ := m.Update(keyMsg("r"))
	// justified: as above, a resume starts in a command the test does not run
	if got := nm.(Model); got.opts.Resume || got.run.on {

		t.Error("r resumed a closed bug's debate")
	}
}
