package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

const q2r8Debate = "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/debate"

// editFile rewrites a file of the fixture's project; the edit must change it.
func editFile(t *testing.T, path string, fn func(string) string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := fn(string(raw))
	if out == string(raw) {
		t.Fatalf("%s: nothing changed", path)
	}
	if err := os.WriteFile(path, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
}

// mixedCost makes the sample's BUG-20260702-Q2R8 a debate that mixed a
// priced and an unpriced engine: its final answer records the priced
// total ($0.04), one solver's call records no cost.
func mixedCost(t *testing.T, f *fixture) {
	t.Helper()
	dir := filepath.Join(f.proj, q2r8Debate)
	editFile(t, filepath.Join(dir, "resposta-final.md"), func(s string) string {
		return strings.Replace(s, "cost_usd: 0.0\n", "cost_usd: 0.01\ntotal_tokens: 30000\ntotal_cost_usd: 0.04\n", 1)
	})
	editFile(t, filepath.Join(dir, "rodada-0", "agente-1.md"), func(s string) string {
		return regexp.MustCompile(`(?m)^cost_usd:.*\n`).ReplaceAllString(s, "")
	})
}

// TestCostColumnIsNeverCut: at the sizes people use, the
// browser's COST column shows a partly unknown cost whole
// ("$0.04+unknown"), never cut to "$0.04…" nor without its unknown part.
func TestCostColumnIsNeverCut(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	mixedCost(t, f)
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := loadBrowser(t, f, size[0], size[1])
			text := checkFrame(t, m, size[0], size[1], f.proj, []string{"COST"})
			var row string
			for _, l := range strings.Split(text, "\n") {
				if strings.Contains(l, "BUG-20260702-Q2R8") {
					row = l
				}
			}
			if !strings.Contains(row, " $0.04+unknown ") {
				t.Errorf("row %q: want its cost whole, $0.04+unknown\n%s", row, text)
			}
		})
	}
}

// browserLive is the browser with a debate of bug 7 running in it, as
// r (or n, then Start) leaves it: the live view over the list.
func browserLive(t *testing.T, f *fixture, w, h int) (Model, *bridge) {
	t.Helper()
	m := loadBrowser(t, f, w, h)
	bug := f.bug(t, "7")
	s := engine.Setup{Bug: bug, Lang: bugfolder.PT, Mode: bugfolder.Diagnosis, N: 3, R: 2, Solvers: []string{"scripted", "scripted", "scripted"}, Judge: "scripted"}
	b := newBridge()
	m.subj.bug, m.run.bridge, m.run.on = bug, b, true
	m.out.BugID = bug.ID
	m.dv.deb = newLiveView(s)
	m.dv.deb.startedAt, m.now = fixedNow.Add(-42*time.Second), fixedNow
	m.screen, m.dv.tab = scrDebate, 1
	m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvSetup, Path: bug.Dir + "/debate", Calls: 10, Time: fixedNow}}})
	return m, b
}

// TestLeavingADebateReturnsToTheBrowser: a debate resumed,
// opened or started from the browser and left ("Leave it, resumable")
// stops its calls and brings the list back — it used to quit the whole
// browser with exit 3. A debate the UI opened on (moot resume BUG) still
// quits (TestQuitAsksWhileRunning).
func TestLeavingADebateReturnsToTheBrowser(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cancelled := engineMsg{then: runDoneMsg{res: &engine.Result{Outcome: engine.OutcomeCancelled}}}
	for _, tc := range []struct {
		name string
		end  func(t *testing.T, m Model) (Model, bool)
	}{
		{"left while running", func(t *testing.T, m Model) (Model, bool) {
			m = keys(t, m, "q")
			if !strings.Contains(screenText(m, f.proj), "Back to the list: r") {
				t.Errorf("the question does not say where leaving goes:\n%s", screenText(m, f.proj))
			}
			m, q1 := pumpQuits(m, keyMsg("up"))
			m, q2 := pumpQuits(m, keyMsg("enter"))
			// justified: the engine's context is how its calls are stopped; the frame cannot show they were
			if drawnScreen(m) != "debate" || m.run.bridge.ctx.Err() == nil {
				t.Errorf("leaving must stop the calls first:\n%s", screenText(m, f.proj))
			}
			m, q3 := pumpQuits(m, cancelled)
			return m, q1 || q2 || q3
		}},
		{"left as it ended", func(t *testing.T, m Model) (Model, bool) {
			m = keys(t, m, "q", "up")
			m.run.on = false // the end arrived, the question not closed yet
			return pumpQuits(m, keyMsg("enter"))
		}},
		{"finished, then q", func(t *testing.T, m Model) (Model, bool) {
			m, q1 := pumpQuits(m, engineMsg{then: runDoneMsg{res: &engine.Result{Outcome: engine.OutcomeDone}}})
			m, q2 := pumpQuits(m, keyMsg("q"))
			return m, q1 || q2
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := browserLive(t, f, 100, 30)
			m, quits := tc.end(t, m)
			// justified: whether this process still runs a debate is not drawn on the browser
			if quits || drawnScreen(m) != "browser" || m.run.on || anyMenuDrawn(m) {
				t.Fatalf("quits %v, running %v: want the browser back\n%s", quits, m.run.on, screenText(m, f.proj))
			}
			if m.Outcome().Result != nil || m.Outcome().Err != nil || m.Outcome().Left || m.Outcome().Cancelled {
				t.Errorf("the browser's exit carries the debate's outcome %+v", m.out)
			}
			text := screenText(m, f.proj)
			if !strings.Contains(text, "BUG-20260715-A7K3") {
				t.Errorf("the list is not back:\n%s", text)
			}
			// q on the list then quits, with the browser's own exit
			if _, quits := pumpQuits(m, keyMsg("q")); !quits {
				t.Error("q on the list must quit")
			}
		})
	}
}

// pumpNotes is pump that also collects what the model rang the terminal
// with (notify's bell and OSC 9, as raw output).
func pumpNotes(t *testing.T, m Model, msg tea.Msg) (Model, []string) {
	t.Helper()
	var notes []string
	queue := []tea.Msg{msg}
	for steps := 0; len(queue) > 0 && steps < pumpSteps; steps++ {
		next := queue[0]
		queue = queue[1:]
		if raw, ok := next.(tea.RawMsg); ok {
			notes = append(notes, fmt.Sprint(raw.Msg))
			continue
		}
		if next == nil {
			continue
		}
		nm, cmd := m.Update(next)
		m = nm.(Model)
		queue = append(queue, run(cmd)...)
	}
	return m, notes
}

// TestWatchedDebateRingsAtADecisionAndAtTheEnd: a debate another moot process
// runs, watched from the browser's list or from its view, rings the
// terminal when it comes to wait for a decision and when it ends — as a
// debate run here does; nothing rings while it just runs.
func TestWatchedDebateRingsAtADecisionAndAtTheEnd(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"list", "view"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			bug := f.bug(t, "6")
			dir := filepath.Join(bug.Dir, bugfolder.DebateDir)
			host, _ := os.Hostname()
			lock, _ := json.Marshal(bugfolder.LockInfo{PID: os.Getpid(), Host: host, StartedAt: fixedNow, Command: "moot resume 6"})
			lockPath, logPath := filepath.Join(dir, bugfolder.LockFile), filepath.Join(dir, "eventos.jsonl")
			at := fixedNow.Format(time.RFC3339Nano)
			log := `{"type":"setup","time":"` + at + `"}` + "\n" + `{"type":"resumed","time":"` + at + `"}` + "\n" +
				`{"type":"call_started","round":1,"solver_id":"juiz","role":"judge","attempt":2,"time":"` + at + `"}` + "\n"
			if os.WriteFile(lockPath, lock, 0o600) != nil || os.WriteFile(logPath, []byte(log), 0o600) != nil {
				t.Fatal("cannot write the fixture")
			}
			m := loadBrowser(t, f, 100, 30)
			look := func() []string { // one look, as the poll or fsnotify makes it
				t.Helper()
				var notes []string
				if where == "list" {
					m, notes = pumpNotes(t, m, checkRowsCmd(f.reg, &m.browser.browser, m.lay.rows)())
				} else {
					m, notes = pumpNotes(t, m, checkDebateCmd(m.dv.deb.dir, m.dv.deb.stamp)())
				}
				return notes
			}
			appendLog := func(line string) {
				t.Helper()
				log += line + "\n"
				if err := os.WriteFile(logPath, []byte(log), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if where == "view" {
				m = selectRow(t, m, bug.ID)
				m = keys(t, m, "enter")
				if !strings.Contains(screenText(m, f.proj), "another moot process runs this debate") {
					t.Fatalf("the debate is not watched:\n%s", screenText(m, f.proj))
				}
			}
			if notes := look(); len(notes) != 0 { // a first look: it runs
				t.Errorf("rang while it runs: %q", notes)
			}
			appendLog(`{"type":"judge_failed","round":1,"attempt":2,"reason":"no winner","time":"` + at + `"}`)
			if notes := look(); len(notes) != 1 || !strings.Contains(notes[0], "\a") {
				t.Errorf("a decision waits: rang %q, want one bell", notes)
			}
			appendLog(`{"type":"debate_finished","status":"cancelled","time":"` + at + `"}`)
			if err := os.Remove(lockPath); err != nil {
				t.Fatal(err)
			}
			if notes := look(); len(notes) != 1 || !strings.Contains(notes[0], "\a") {
				t.Errorf("it ended: rang %q, want one bell", notes)
			}
			if notes := look(); len(notes) != 0 {
				t.Errorf("rang again with nothing new: %q", notes)
			}
		})
	}
}

// TestWatchedNotificationSaysWhatHappened: the notification's words.
func TestWatchedNotificationSaysWhatHappened(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		was, now bugfolder.State
		want     string
	}{
		{bugfolder.StateRunning, bugfolder.StateRunning, ""},
		{bugfolder.StateWaiting, bugfolder.StateRunning, ""},
		{bugfolder.StateRunning, bugfolder.StateWaiting, "B needs a decision: the quorum was lost"},
		{bugfolder.StateRunning, bugfolder.StateJudgeFailed, "B needs a decision: its final step failed"},
		{bugfolder.StateRunning, bugfolder.StateDone, "B finished: done"},
		{bugfolder.StateWaiting, bugfolder.StateCancelled, "B finished: cancelled"},
		{bugfolder.StateRunning, bugfolder.StateInterrupted, "B finished: interrupted"},
	} {
		if got := watchedNote("B", tc.was, tc.now); got != tc.want {
			t.Errorf("%s → %s: %q, want %q", tc.was, tc.now, got, tc.want)
		}
	}
}

// TestZoomKeysReachTheDecisionAndBothEnds: m brings the decision that waits back from a
// zoom too (it did nothing there); g/home and G/end go to the zoom's top
// and its end, as they do in the list.
func TestZoomKeysReachTheDecisionAndBothEnds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	t.Run("m from a zoom", func(t *testing.T) {
		m, _ := liveModel(t, f, 80, 24)
		m = pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), make(chan quorumAnswer, 1)}})
		m = keys(t, m, "esc", "enter")
		if !zoomShown(m) || drawnMenu(m) != menuNone {
			t.Fatalf("want a zoom over the decision stepped aside:\n%s", screenText(m, f.proj))
		}
		if !strings.Contains(screenText(m, f.proj), "m: a decision waits") {
			t.Errorf("the zoom does not say m brings the decision back:\n%s", screenText(m, f.proj))
		}
		m = keys(t, m, "m")
		if zoomShown(m) || drawnMenu(m) != menuQuorum {
			t.Errorf("m in a zoom brings the quorum menu back over the panes:\n%s", screenText(m, f.proj))
		}
	})
	for _, tc := range []struct{ top, bottom string }{{"g", "G"}, {"home", "end"}} {
		t.Run(tc.top+"/"+tc.bottom, func(t *testing.T) {
			m, _ := liveModel(t, f, 80, 24)
			// numbered lines: the frame says which part of the text it shows
			stream := func(from, to int) engineMsg {
				var b strings.Builder
				for i := from; i < to; i++ {
					fmt.Fprintf(&b, "proposal line %d\n", i)
				}
				return engineMsg{events: []engine.Event{{Type: engine.EvOutput, Round: 0, SolverID: "agente-1", Role: bugfolder.RoleSolver, Text: b.String()}}}
			}
			shows := func(m Model, i int) bool {
				return regexp.MustCompile(fmt.Sprintf(`proposal line %d\b`, i)).MatchString(screenText(m, f.proj))
			}
			m = pump(t, m, stream(0, 200))
			m = keys(t, m, "enter")
			if !zoomShown(m) || shows(m, 199) {
				t.Fatalf("the zoom does not open on a text longer than the frame:\n%s", screenText(m, f.proj))
			}
			m = keys(t, m, tc.bottom)
			if !shows(m, 199) {
				t.Errorf("%s does not show the end:\n%s", tc.bottom, screenText(m, f.proj))
			}
			if m = pump(t, m, stream(200, 205)); !shows(m, 204) {
				t.Errorf("after %s the zoom does not follow the stream:\n%s", tc.bottom, screenText(m, f.proj))
			}
			m = keys(t, m, tc.top)
			if !zoomShown(m) || !shows(m, 0) {
				t.Errorf("%s does not show the top:\n%s", tc.top, screenText(m, f.proj))
			}
			if m = pump(t, m, stream(205, 210)); !shows(m, 0) || shows(m, 209) {
				t.Errorf("after %s the zoom followed the stream, away from the top:\n%s", tc.top, screenText(m, f.proj))
			}
		})
	}
}

// TestBrowserAndListSayOneStatusWord: the browser's STATUS column and moot list
// say the same words for the same state (bugfolder.StatusWord): a result
// that waits for a decision reads "done · decision pending" in both (the
// browser said "done" beside its ◆ only), whole at 140 columns.
func TestBrowserAndListSayOneStatusWord(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	editFile(t, filepath.Join(f.proj, q2r8Debate, "resposta-final.md"), func(s string) string {
		return strings.Replace(s, "---\n", "---\nrecommended_verdict: spec-gap\ndecision: pending\n", 1)
	})
	m := loadBrowser(t, f, 140, 45)
	// each subject's status as moot list reads it from its folder
	dirs, errs := bugfolder.SubjectDirs(f.reg)
	if len(errs) > 0 || len(dirs) == 0 {
		t.Fatalf("the register's folders: %v %v", dirs, errs)
	}
	for _, d := range dirs {
		sum, err := bugfolder.IndexSubject(f.reg, d)
		if err != nil {
			t.Fatal(err)
		}
		want := bugfolder.StatusWord(sum.State, sum.Bug.Incomplete, sum.Bug.Done, sum.Decision)
		if row := lineWith(screenText(m, f.proj), sum.Bug.ID); !strings.Contains(row, " "+want+" ") {
			t.Errorf("row %q: want the status %q", row, want)
		}
	}
	var first string // the list's first row: the pending decision
	for _, l := range strings.Split(screenText(m, f.proj), "\n") {
		if strings.Contains(l, "BUG-") {
			first = l
			break
		}
	}
	if !strings.Contains(first, " done · decision pending ") {
		t.Errorf("the first row %q: want the pending decision, status %q", first, "done · decision pending")
	}
}

// TestSortByAHiddenColumnShowsItsValue: at 80 columns the
// HEALTH column is hidden, yet s sorts by it; the header then shows the
// selected row's health, so the order is never by a figure out of sight.
// At 140 columns the column is there and nothing is added.
func TestSortByAHiddenColumnShowsItsValue(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct {
		w, h int
		want string
	}{{80, 24, "worst health first (health here: 19k tokens/accepted contribution)"}, {140, 45, ""}} {
		t.Run(fmt.Sprint(tc.w), func(t *testing.T) {
			m := loadBrowser(t, f, tc.w, tc.h)
			m = keys(t, m, "s", "s", "s", "s", "g") // the worst health is first
			second := strings.Split(screenText(m, f.proj), "\n")[1]
			if !strings.Contains(second, "worst health first") {
				t.Fatalf("header %q: want the list sorted by health", second)
			}
			if tc.want != "" && !strings.Contains(second, tc.want) {
				t.Errorf("header %q: want %q", second, tc.want)
			}
			if tc.want == "" && strings.Contains(second, "here:") {
				t.Errorf("header %q: the column is on screen", second)
			}
		})
	}
}
