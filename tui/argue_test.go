package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/argue"
)

// pts are values of rounds 0, 1, …
func pts(vals ...float64) []argue.Point {
	out := make([]argue.Point, len(vals))
	for i, v := range vals {
		out[i] = argue.Point{Round: i, Value: v}
	}
	return out
}

// argueView is a two-persona argue stopped by convergence after round 2.
func argueView() *argue.View {
	return &argue.View{MaxScore: 80, Rounds: 3, Cap: 3, Rule: "convergence", Reason: "convergence: every persona's confidence moved less than 0.1 in rounds 1 and 2",
		Personas: []argue.ViewPersona{
			{ID: "agente-1", Name: "pragmatist", Confidence: pts(0.7, 0.72, 0.74), Scores: pts(55.5, 58, 61)},
			{ID: "agente-2", Name: "skeptic", Confidence: pts(0.65, 0.62, 0.66), Scores: []argue.Point{{Round: 0, Value: 60}, {Round: 2, Value: 52}}}},
		Concessions: []argue.ViewConcession{
			{Round: 0, Name: "pragmatist", Text: "Expected: staleness is real for revoked coupons."},
			{Round: 1, Name: "pragmatist", Text: "Caching usage limits would over-redeem; that part of my first proposal was wrong."},
			{Round: 1, Name: "skeptic", Text: "Caching definitions keeps the saving; I no longer object to it."},
			{Round: 2, Name: "pragmatist", Text: "A plain read is not enough under concurrency."}}}
}

// TestArgueLiveView: the Convergence tab of an argue debate draws each
// persona's confidence trajectory and round scores, the concession log
// (the latest that fit) and the stop reason, within the width; at 60×12 the
// oldest concessions give way.
func TestArgueLiveView(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, size := range []struct {
		name string
		w, h int
	}{{"100x20", 100, 20}, {"60x12", 60, 12}} {
		t.Run(size.name, func(t *testing.T) {
			m := sized(t, f.options(), size.w, size.h)
			lines := m.renderArgue(argueView(), size.w, size.h)
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size.w {
					t.Errorf("line wider than %d (%d): %q", size.w, w, ansi.Strip(l))
				}
			}
			out := ansi.Strip(strings.Join(lines, "\n")) + "\n"
			for _, want := range []string{"stopped — convergence", "r0 0.70 → 0.72 → 0.74", "r0 60.0  r2 52.0", "Round scores (of 80", "r2 pragmatist: A plain read"} {
				if !strings.Contains(out, want) {
					t.Errorf("view lacks %q:\n%s", want, out)
				}
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

// A debate that is not argue has no argue view: the Convergence tab keeps
// debate's chart.
func TestArgueViewOnlyForArgue(t *testing.T) {
	t.Parallel()
	if v, ok := argue.ReadView(t.TempDir()); ok || v != nil {
		t.Errorf("a folder without scoring/summary.json has an argue view: %+v", v)
	}
}

// argueLive is a live argue run of n personas and its scorer, cap R=3, at
// w×h: the model runs it (its bridge set), round 0 under way.
func argueLive(t *testing.T, n, w, h int) Model {
	t.Helper()
	f := newFixture(t)
	bug := f.bug(t, "7")
	var solvers []string
	for range n {
		solvers = append(solvers, "scripted")
	}
	s := engine.Setup{Protocol: argue.Protocol{}, Bug: bug, Lang: bugfolder.EN, N: n, R: 3, Solvers: solvers, Critics: []string{"scripted"}, Judge: "scripted"}
	opts := f.options()
	opts.Protocol, opts.Bug, opts.Setup = argue.Protocol{}, bug, s
	m := sized(t, opts, w, h)
	m.run.bridge, m.run.on = newBridge(), true
	m.dv.deb = newLiveView(s)
	m.now = fixedNow
	m.screen, m.dv.tab = scrDebate, 1
	return m
}

// TestArgueLiveHeader: an argue run's header counts the scorer of every
// round, round 0's included (N personas and a scorer for each of the R+1
// rounds, and the synthesizer); after an early stop it says where the
// rounds stopped and the cap, and counts no call of the rounds the stop
// cut off; the footer shows the S key while the run can stop.
func TestArgueLiveHeader(t *testing.T) {
	t.Parallel()
	m := argueLive(t, 2, 160, 30)
	if got := headerFigure(m, "calls"); !strings.Contains(got, "calls 0/13") {
		t.Errorf("header before the run %q, want 2×4 + 4 + 1 = 13 calls planned", got)
	}
	if view := ansi.Strip(m.View().Content); !strings.Contains(view, "S stop & synthesize") {
		t.Errorf("the footer lacks the S key:\n%s", view)
	}
	for k := 0; k <= 2; k++ {
		for _, id := range []string{"agente-1", "agente-2", "critic-1"} {
			m.dv.deb.apply(engine.Event{Type: engine.EvCallFinished, Round: k, SolverID: id, Status: "ok"})
		}
	}
	m.dv.deb.apply(engine.Event{Type: engine.EvDecision, Point: engine.PointStop, Choice: "convergence", By: "moot", Round: 2, Reason: "convergence: test"})
	m.dv.deb.apply(engine.Event{Type: engine.EvJudgeStarted, Attempt: 1})
	got := headerLine(m)
	for _, want := range []string{"stopped at round 2, cap 3", "calls 9/10"} {
		if !strings.Contains(got, want) {
			t.Errorf("header after the stop lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "round 3 of 3") {
		t.Errorf("header says the cap's round after an early stop:\n%s", got)
	}
}

// TestArgueViewFitsManyPersonas: sixteen personas at 80×24 fit the view —
// one line a persona, as many as fit and how many more, the concession log
// still in sight — and the Convergence zoom shows argue's whole view (the
// stop reason, every persona), not "not written yet".
func TestArgueViewFitsManyPersonas(t *testing.T) {
	t.Parallel()
	m := argueLive(t, 16, 80, 24)
	v := argueView()
	v.Personas = nil
	for i := range 16 {
		v.Personas = append(v.Personas, argue.ViewPersona{ID: fmt.Sprintf("agente-%d", i+1), Name: fmt.Sprintf("persona-%02d", i+1), Confidence: pts(0.5, 0.6), Scores: pts(40, 50)})
	}
	m.dv.argueView = v
	m.dv.tab = m.dv.convTab()
	view := m.View().Content
	lines := strings.Split(view, "\n")
	if len(lines) > 24 {
		t.Errorf("%d lines at 80×24:\n%s", len(lines), ansi.Strip(view))
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("line wider than 80 (%d): %q", w, ansi.Strip(l))
		}
	}
	plain := ansi.Strip(view)
	for _, want := range []string{"persona-01", "more personas: enter zooms", "Concession log (4)"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the view lacks %q:\n%s", want, plain)
		}
	}
	if m = pump(t, m, keyMsg("enter")); !zoomShown(m) {
		t.Fatalf("the Convergence tab does not zoom:\n%s", screenText(m, ""))
	}
	// justified: the zoom's whole text, of which an 80×24 frame shows a window
	zoom := ansi.Strip(m.zm.vp.GetContent())
	for _, want := range []string{"stopped — convergence", "persona-16", "r2 pragmatist: A plain read"} {
		if !strings.Contains(zoom, want) {
			t.Errorf("the zoom lacks %q:\n%s", want, zoom)
		}
	}
	if strings.Contains(zoom, "not written yet") {
		t.Errorf("the zoom says not written yet:\n%s", zoom)
	}
}

// TestConcessionLogSaysWhatIsAbove: a concession log longer than its room
// shows the newest entries under a line counting the earlier ones, so
// "(12)" never sits above nine entries with nothing said of the rest.
func TestConcessionLogSaysWhatIsAbove(t *testing.T) {
	t.Parallel()
	m := argueLive(t, 2, 80, 24)
	v := argueView()
	v.Concessions = nil
	for i := range 12 {
		v.Concessions = append(v.Concessions, argue.ViewConcession{Round: i / 4, Name: "skeptic", Text: fmt.Sprintf("concession number %02d", i+1)})
	}
	m.dv.argueView = v
	m.dv.tab = m.dv.convTab()
	plain := ansi.Strip(m.View().Content)
	shown := strings.Count(plain, "concession number")
	var earlier int
	at := strings.Index(plain, "… ")
	for at >= 0 && !strings.HasPrefix(strings.TrimLeft(plain[at+len("… "):], "0123456789"), " earlier") {
		next := strings.Index(plain[at+1:], "… ")
		if next < 0 {
			at = -1
			break
		}
		at += 1 + next
	}
	if at < 0 {
		t.Fatalf("no line counts the earlier concessions:\n%s", plain)
	}
	fmt.Sscanf(plain[at+len("… "):], "%d", &earlier)
	if shown+earlier != 12 || !strings.Contains(plain, "concession number 12") || shown == 0 {
		t.Errorf("%d shown + %d earlier, want 12 with the newest shown:\n%s", shown, earlier, plain)
	}
}

// TestArgueViewKeepsTheNewerRead: reads of argue's files run concurrently;
// one begun before the stop was written that lands after a later one must
// not put "running" back over the stop reason.
func TestArgueViewKeepsTheNewerRead(t *testing.T) {
	t.Parallel()
	m := argueLive(t, 2, 80, 24)
	stopped, running := argueView(), argueView()
	running.Rule, running.Reason = "", ""
	t0 := time.Now()
	m = pump(t, m, argueMsg{dir: m.dv.deb.dir, view: stopped, at: t0.Add(time.Second)})
	m = pump(t, m, argueMsg{dir: m.dv.deb.dir, view: running, at: t0})
	for i := 0; i < 8 && activeTab(m) != "Convergence"; i++ {
		m = keys(t, m, "tab")
	}
	if plain := ansi.Strip(m.View().Content); !strings.Contains(plain, "stopped — convergence") {
		t.Errorf("an older read replaced the stop: the Convergence tab does not say why it stopped:\n%s", plain)
	}
}
