package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

func quorumLoss() engine.QuorumLoss {
	return engine.QuorumLoss{Round: 1, Valid: 1, Needed: 2, Panel: 3, RetryCalls: 2,
		Failed:  []engine.FailedCall{{SolverID: "agente-2", Engine: "scripted", Status: bugfolder.StatusTimeout}, {SolverID: "agente-3", Engine: "scripted", Status: bugfolder.StatusInvalidOutput}},
		Engines: []string{"scripted", "local"}}
}

// TestQuorumMenuLetsYouRead: esc steps the quorum menu aside; the panes
// take the keys (tabs, zoom), the footer says a decision waits, and m
// brings the same menu back, which still answers.
func TestQuorumMenuLetsYouRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		m, _ := liveModel(t, f, size[0], size[1])
		reply := make(chan quorumAnswer, 1)
		m = pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), reply}})
		if foot := lastLine(screenText(m, f.proj)); foot != "↑/↓ choose · enter confirm · esc read the panes first" {
			t.Errorf("%dx%d footer with the menu open: %q", size[0], size[1], foot)
		}
		m = keys(t, m, "esc")
		text := screenText(m, f.proj)
		if strings.Contains(text, "What now?") || !strings.Contains(text, "a decision waits: m opens the menu") {
			t.Errorf("%dx%d with the menu aside:\n%s", size[0], size[1], text)
		}
		m = keys(t, m, "tab")
		if got := activeTab(m); got != "Round 1" {
			t.Errorf("tab while the menu waits: the tab marked is %q, want Round 1", got)
		}
		m = keys(t, m, "shift+tab", "enter")
		if !zoomShown(m) || !strings.Contains(screenText(m, f.proj), "H1: o recálculo por CEP") {
			t.Errorf("zoom while the menu waits:\n%s", screenText(m, f.proj))
		}
		m = keys(t, m, "esc", "m")
		if drawnScreen(m) != "debate" || !strings.Contains(screenText(m, f.proj), "What now?") {
			t.Fatalf("m brings the menu back:\n%s", screenText(m, f.proj))
		}
		keys(t, m, "enter") // continue
		// justified: the decision the engine receives on the menu's channel; no frame shows it
		if a := recv(t, reply); a.d.Choice != engine.QuorumContinue {
			t.Errorf("answer %+v", a.d)
		}
	}
}

// TestMenusBackPaths: every follow-up menu has a way back to the menu it
// came from, by esc and by its Back option.
func TestMenusBackPaths(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 100, 34)
	reply := make(chan quorumAnswer, 1)
	m = pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), reply}})
	steps := []struct {
		keys []string
		want menuKind
	}{
		{[]string{"down", "down", "down", "enter"}, menuQuorumOther},
		{[]string{"esc"}, menuQuorum},
		{[]string{"down", "down", "down", "enter"}, menuQuorumOther},
		{[]string{"down", "down", "down", "enter"}, menuQuorum}, // ← Back
		{[]string{"down", "down", "down", "enter", "enter", "enter"}, menuSwapEngine},
		{[]string{"esc"}, menuQuorumOther},
		{[]string{"down", "enter", "enter"}, menuTimeout},
		{[]string{"esc"}, menuQuorumOther},
		{[]string{"esc"}, menuQuorum},
		// esc on the second page of Other… (which solver?) goes back to its
		// first page, the action kept, then to the quorum menu
		{[]string{"down", "down", "down", "enter", "down", "enter"}, menuQuorumOther},
		{[]string{"esc"}, menuQuorumOther},
		{[]string{"esc"}, menuQuorum},
	}
	for i, s := range steps {
		m = keys(t, m, s.keys...)
		if got := drawnMenu(m); got != s.want {
			t.Fatalf("step %d %v: menu %d drawn, want kind %d\n%s", i, s.keys, got, s.want, screenText(m, f.proj))
		}
		if text := screenText(m, f.proj); i == 10 && (!regexp.MustCompile(`┃ Other +│`).MatchString(text) || !strings.Contains(text, "> Change a failed solver's timeout")) {
			t.Errorf("esc on Other…'s second page: not back on its first page with the action kept:\n%s", text)
		}
	}
	select {
	case a := <-reply:
		t.Fatalf("going back answered the question: %+v", a)
	default:
	}

	j := engine.JudgeFailure{Attempt: 1, Reason: "names no label", Labels: []engine.LabelPreview{{Label: "A", Preview: "H1: a"}, {Label: "B", Preview: "H1: b"}}}
	jreply := make(chan judgeAnswer, 1)
	m = pump(t, m, engineMsg{then: askJudgeMsg{j, jreply}})
	for i, s := range []struct {
		keys []string
		want menuKind
	}{
		{[]string{"down", "enter"}, menuJudgeHuman},
		{[]string{"esc"}, menuJudge},
		{[]string{"down", "enter"}, menuJudgeHuman},
		{[]string{"down", "down", "enter"}, menuJudge}, // ← Back
	} {
		m = keys(t, m, s.keys...)
		if got := drawnMenu(m); got != s.want {
			t.Fatalf("judge step %d %v: menu %d drawn, want %d\n%s", i, s.keys, got, s.want, screenText(m, f.proj))
		}
	}
	if !strings.Contains(screenText(m, f.proj), "esc read the panes first") {
		t.Errorf("the menu's keys line:\n%s", screenText(m, f.proj))
	}
}

// TestUnknownPriceNeverZero: a figure with no price behind it reads
// "unknown" in the menus, the Final tab and the cost screen's total,
// never "$0.00".
func TestUnknownPriceNeverZero(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		usd     float64
		unknown bool
		want    string
	}{
		{0, true, "unknown"},
		{0.5, true, "≈$0.50+unknown"},
		{0, false, "≈$0.00"},
		{0.5, false, "≈$0.50"},
	} {
		if got := estimate(c.usd, c.unknown); got != c.want {
			t.Errorf("estimate(%v, %v) = %q, want %q", c.usd, c.unknown, got, c.want)
		}
	}
	q := quorumMenu(quorumLoss(), make(chan quorumAnswer, 1), func(...string) bool { return true }, 80)
	j := judgeMenu(engine.JudgeFailure{Attempt: 1, Reason: "no winner"}, make(chan judgeAnswer, 1), true, false, true)
	m, _ := liveModel(t, newFixture(t), 120, 34)
	for _, mn := range []*menu{q, j} {
		m.dlg.openMenu(&m.frame, mn)
		if text := screenText(m, ""); strings.Contains(text, "$0.00") || strings.Contains(text, "≈unknown") || !strings.Contains(text, ", unknown)") {

			t.Errorf("menu with no price:\n%s", text)
		}
	}
}

// lastLine is the last non-blank line of a frame (its footer).
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// TestTimeoutForAllFailedSolvers: Other… → change a timeout offers "All
// failed solvers", and the answer carries engine.AllFailed.
func TestTimeoutForAllFailedSolvers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 100, 34)
	reply := make(chan quorumAnswer, 1)
	m = pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), reply}})
	m = keys(t, m, "down", "down", "down", "enter", "down", "enter")
	if text := screenText(m, f.proj); !strings.Contains(text, "All 2 failed solvers") {
		t.Fatalf("no 'all failed solvers' entry:\n%s", text)
	}
	m = keys(t, m, "down", "down", "enter")
	if !menuDrawn(m, menuTimeout) || !strings.Contains(screenText(m, f.proj), "every failed solver") {
		t.Fatalf("timeout menu:\n%s", screenText(m, f.proj))
	}
	keys(t, m, "2", "0", "m", "enter")
	a := recv(t, reply)
	// justified: the decision the engine receives on the menu's channel; no frame shows it
	if a.d.Choice != engine.QuorumSetTimeout || a.d.SolverID != engine.AllFailed || a.d.Timeout != 20*time.Minute {
		t.Errorf("answer %+v", a.d)
	}
}
