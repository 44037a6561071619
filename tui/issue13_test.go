package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

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

// TestIssue13_4CostColumnIsNeverCut: at the sizes people use, the
// browser's COST column shows a partly unknown cost whole
// ("$0.04+unknown"), never cut to "$0.04…" nor without its unknown part.
func TestIssue13_4CostColumnIsNeverCut(t *testing.T) {
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
	m.bug, m.bridge, m.running = bug, b, true
	m.out.BugID = bug.ID
	m.deb = newLiveView(s)
	m.deb.startedAt, m.now = fixedNow.Add(-42*time.Second), fixedNow
	m.screen, m.tab = scrDebate, 1
	m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvSetup, Path: bug.Dir + "/debate", Calls: 10, Time: fixedNow}}})
	return m, b
}

// TestIssue13_1LeavingADebateReturnsToTheBrowser: a debate resumed,
// opened or started from the browser and left ("Leave it, resumable")
// stops its calls and brings the list back — it used to quit the whole
// browser with exit 3. A debate the UI opened on (moot resume BUG) still
// quits (TestQuitAsksWhileRunning).
func TestIssue13_1LeavingADebateReturnsToTheBrowser(t *testing.T) {
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
			if m.screen != scrDebate || m.bridge.ctx.Err() == nil {
				t.Errorf("leaving must stop the calls first (screen %v)", m.screen)
			}
			m, q3 := pumpQuits(m, cancelled)
			return m, q1 || q2 || q3
		}},
		{"left as it ended", func(t *testing.T, m Model) (Model, bool) {
			m = keys(t, m, "q", "up")
			m.running = false // the end arrived, the question not closed yet
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
			if quits || m.screen != scrBrowser || m.running || m.menu != nil {
				t.Fatalf("quits %v, screen %v, running %v, menu %v: want the browser back\n%s", quits, m.screen, m.running, m.menu, screenText(m, f.proj))
			}
			if m.out.Result != nil || m.out.Err != nil || m.out.Left || m.out.Cancelled {
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
