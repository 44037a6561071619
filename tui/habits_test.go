package tui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// TestPaneClickZoomHoldAndDecisionTitle: a click focuses a pane, a zoom starts at the top and stays
// put when scrolled up while the pane streams, y copies the focused file's
// path, the window title says when a decision waits, and a document
// rendered for the other background is not shown.
func TestPaneClickZoomHoldAndDecisionTitle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 120, 30)
	// three panes side by side: a click on the third focuses it
	m = pump(t, m, tea.MouseClickMsg{X: 100, Y: 5, Button: tea.MouseLeft})
	if row := lineWith(screenText(m, f.proj), "agente-3"); !strings.Contains(row, "┃agente-3") {
		t.Errorf("click on the third pane: its title is not in the heavy border of focus: %q", row)
	}
	// zoom the streaming pane, scroll up, stream more: it stays put
	m = pump(t, m, tea.MouseClickMsg{X: 50, Y: 5, Button: tea.MouseLeft})
	// numbered lines: the frame says which part of the text it shows
	long := func(from int) engineMsg {
		var b strings.Builder
		for i := from; i < from+200; i++ {
			fmt.Fprintf(&b, "linha %d\n", i)
		}
		return engineMsg{events: []engine.Event{{Type: engine.EvOutput, Round: 0, SolverID: "agente-2", Role: bugfolder.RoleSolver, Text: b.String()}}}
	}
	shown := func(m Model) []string {
		return regexp.MustCompile(`linha \d+`).FindAllString(screenText(m, f.proj), -1)
	}
	m = pump(t, m, long(0))
	m = keys(t, m, "enter")
	if !zoomShown(m) || !strings.Contains(screenText(m, f.proj), "corrida entre frete e desconto") {
		t.Fatalf("a zoom starts at the top, where the pane's text begins:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "G")
	m = pump(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	at := shown(m)
	m = pump(t, m, long(200))
	if got := shown(m); len(at) == 0 || !slices.Equal(got, at) {
		t.Errorf("scrolled up, the zoom moved as the pane streamed: it showed %v, now %v", at, got)
	}
	m = keys(t, m, "esc")
	// y on a pane without a file yet says so; the title marks a decision
	if _, cmd := m.Update(keyMsg("y")); cmd == nil {
		t.Error("y does nothing")
	}
	reply := make(chan quorumAnswer, 1)
	m = pump(t, m, engineMsg{then: askQuorumMsg{quorumLoss(), reply}})
	if title := m.View().WindowTitle; !strings.Contains(title, "a decision waits") || !strings.Contains(title, "BUG-20260715-A7K3") {
		t.Errorf("window title %q", title)
	}
	// a preview rendered for the dark background before the light one was known
	k := docKey{path: "/x.md", width: 80}
	m = pump(t, m, tea.BackgroundColorMsg{Color: lipgloss.Color("#ffffff")})
	m = pump(t, m, docMsg{key: k, out: "dark", style: glamourStyle(true, false)})
	// justified: the cache of rendered documents; a stale entry shows only on a later frame of that document
	if _, ok := m.docs[k]; ok {
		t.Error("a document rendered for the dark background was kept on a light one")
	}
}

// TestFocusVisibleWithoutColour: with colours stripped (NO_COLOR) the
// focused pane still stands out: its border alone is heavy, and it moves
// with the focus.
func TestFocusVisibleWithoutColour(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 140, 45)
	col := func(m Model) int {
		text := screenText(m, f.proj)
		if strings.Count(text, "┏") != 1 {
			t.Fatalf("want one heavy-bordered pane:\n%s", text)
		}
		for _, l := range strings.Split(text, "\n") {
			if i := strings.Index(l, "┏"); i >= 0 {
				return len([]rune(l[:i]))
			}
		}
		return -1
	}
	before := col(m)
	m = keys(t, m, "right")
	if after := col(m); after <= before {
		t.Errorf("the heavy border did not follow the focus: column %d → %d", before, after)
	}
}

// TestZoomScrollKeptThroughFinish: a zoom the user scrolled up stays at
// its offset while text streams in, when the call finishes and when the
// formatted rendering replaces the text; up at the top holds too.
func TestZoomScrollKeptThroughFinish(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	m, _ := liveModel(t, f, 80, 24)
	m = keys(t, m, "right", "enter") // agente-2, running
	if z := screenText(m, f.proj); !strings.HasPrefix(z, "agente-2 ·") {
		t.Fatalf("the zoom is not over agente-2:\n%s", z)
	}
	out := func(n int) engineMsg {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "line %d of the stream\n", i)
		}
		return engineMsg{events: []engine.Event{{Type: engine.EvOutput, Round: 0, SolverID: "agente-2", Role: bugfolder.RoleSolver, Text: b.String()}}}
	}
	shown := func(m Model) []string {
		return regexp.MustCompile(`line \d+ of the stream`).FindAllString(screenText(m, f.proj), -1)
	}
	m = pump(t, m, out(100))
	if !strings.Contains(screenText(m, f.proj), "line 99 of the stream") {
		t.Fatalf("the zoom does not follow the stream at its end:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "up", "up")
	at := shown(m)
	off := m.zm.vp.YOffset() // for the finish below
	m = pump(t, m, out(50))
	if got := shown(m); len(at) == 0 || !slices.Equal(got, at) {
		t.Errorf("text arriving moved the scrolled zoom: it showed %v, now %v", at, got)
	}
	m = pump(t, m, engineMsg{events: []engine.Event{{Type: engine.EvCallFinished, Round: 0, SolverID: "agente-2", Role: bugfolder.RoleSolver, Status: "ok"}}})
	// the rendered document replaces the text on screen: only the offset
	// can say the place was kept
	k := m.dv.zoomDocKey(&m.frame)
	var doc strings.Builder
	for i := range 200 {
		fmt.Fprintf(&doc, "rendered %d\n", i)
	}
	m = pump(t, m, docMsg{key: k, out: doc.String(), style: glamourStyle(m.dark, m.opts.NoColor)})
	// justified: the scroll offset itself is what the test is about
	if got := m.zm.vp.YOffset(); got != off {
		t.Errorf("the finish moved the scrolled zoom: %d → %d", off, got)

	}
	m = pump(t, m, engineMsg{then: runDoneMsg{res: &engine.Result{Outcome: engine.OutcomeDone}}})
	if z := screenText(m, f.proj); !strings.HasPrefix(z, "agente-2 ·") {
		t.Errorf("the end replaced the user's zoom:\n%s", z)
	}
}
