package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// reviewFixture writes a review folder as moot review writes it (through
// protocol/review's Folder): its record, events and, per seated lens, its
// verdict file.
type reviewFixture struct {
	f  *review.Folder
	st *review.State
}

func newReviewFixture(t *testing.T, parent string, at time.Time, st review.State) *reviewFixture {
	t.Helper()
	f, err := review.NewFolder(parent, at)
	if err != nil {
		t.Fatal(err)
	}
	st.ID, st.Protocol, st.Lang, st.StartedAt, st.UpdatedAt = f.ID, review.Name, "en", at, at
	rf := &reviewFixture{f: f, st: &st}
	rf.save(t)
	return rf
}

func (rf *reviewFixture) save(t *testing.T) {
	t.Helper()
	if err := rf.f.WriteJSON(review.StateFile, rf.st); err != nil {
		t.Fatal(err)
	}
}

func (rf *reviewFixture) event(t *testing.T, e engine.Event) {
	t.Helper()
	e.Role = review.Role
	if err := rf.f.Append(e); err != nil {
		t.Fatal(err)
	}
}

func (rf *reviewFixture) seat(t *testing.T, s review.Seat) {
	t.Helper()
	if err := rf.f.WriteSeat(s); err != nil {
		t.Fatal(err)
	}
}

func lenses(names ...string) []bugfolder.Lens {
	var out []bugfolder.Lens
	for _, n := range names {
		out = append(out, bugfolder.Lens{Name: n})
	}
	return out
}

// reviewsFor writes two reviews in the sample register: a refused one on
// a bug (its review/ folder) and a stalled one of the project
// (.moot/reviews/) waiting for a decision.
func reviewsFor(t *testing.T, f *fixture) (bugReview, projReview *reviewFixture) {
	t.Helper()
	bug := f.bug(t, "BUG-20260702-Q2R8")
	bugReview = newReviewFixture(t, filepath.Join(bug.Dir, review.BugReviewDir), fixedNow.Add(-2*time.Hour), review.State{
		BugID: bug.ID, Contract: envelope.Contract{Intent: "round shipping to the cent"}, Lenses: lenses("defect", "security", "tests"),
		Status: review.StatusRefused, Calls: 4, CostUSD: 0.42,
		Rounds: []review.RoundRecord{{Round: 1, Gate: review.Gate{Outcome: review.OutcomeRefuse, Passes: 1, Holds: 1, Refuses: 1}}},
	})
	bugReview.event(t, engine.Event{Type: engine.EvRoundStarted, Round: 1})
	bugReview.seat(t, review.Seat{Lens: "defect", Round: 1, Outcome: review.OutcomeRefuse, Engine: "juror-a", Family: "anthropic",
		Reason: "a blocker finding", Findings: []review.Finding{{Severity: review.SevBlocker, Claim: "rounds half down", Evidence: "calc.go:12"}, {Severity: review.SevMinor, Claim: "no doc comment", Evidence: "calc.go:3"}},
		Attempts: []review.Attempt{{Rung: review.Rung{Engine: "juror-x"}, Status: review.StatusWrongLens, Reason: "answered for security"}, {Rung: review.Rung{Engine: "juror-a"}, Status: review.StatusSat}}})
	bugReview.seat(t, review.Seat{Lens: "security", Round: 1, Outcome: review.OutcomePass, Engine: "juror-a", Family: "anthropic", Checked: []string{"read calc.go"}})
	bugReview.seat(t, review.Seat{Lens: "tests", Round: 1, Outcome: review.OutcomeHold, Engine: "local-q", Family: "qwen", Unverified: true, Reason: "local pass, no external verifier"})
	projReview = newReviewFixture(t, filepath.Join(f.proj, review.ReviewsDir), fixedNow.Add(-time.Hour), review.State{
		Contract: envelope.Contract{Intent: "document Total"}, Lenses: lenses("defect", "spec"),
		Status: review.StatusStalled, Decision: bugfolder.DecisionPending, Calls: 6, CostUSD: 1.5,
		Rounds: []review.RoundRecord{{Round: 1, Gate: review.Gate{Outcome: review.OutcomeRefuse, Passes: 1, Refuses: 1}}, {Round: 2, Gate: review.Gate{Outcome: review.OutcomeRefuse, Passes: 1, Refuses: 1}}},
	})
	return bugReview, projReview
}

// TestReviewBrowserGolden: the browser lists the reviews as rows of their
// own — a marker, the ID, status (and a stalled one's decision), lenses ×
// rounds, calls and cost — the stalled one first, as a pending decision.
func TestReviewBrowserGolden(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			f := newFixture(t)
			br, pr := reviewsFor(t, f)
			m := sized(t, f.options(), sz.w, sz.h)
			text := checkFrame(t, m, sz.w, sz.h, f.proj, []string{br.f.ID, pr.f.ID, "stalled", "refuse", "2 reviews"})
			if !strings.HasPrefix(lineWith(text, pr.f.ID), "▸") {
				t.Errorf("the stalled review waiting for a decision is not the first row:\n%s", text)
			}
			goldenScreen(t, m, f.proj)
		})
	}
}

// TestReviewBrowserFilterSort: the filter finds reviews by status and
// intent, and sorting by cost puts the costlier review before the other.
func TestReviewBrowserFilterSort(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	br, pr := reviewsFor(t, f)
	m := sized(t, f.options(), 140, 45)
	m = keys(t, m, "/", "r", "o", "u", "n", "d", " ", "s", "h", "i", "p", "enter")
	if text := screenText(m, ""); !strings.Contains(text, " 1 of 8 match") || !strings.HasPrefix(lineWith(text, br.f.ID), "▸") {
		t.Fatalf("filter 'round ship': want the bug's review, alone and selected:\n%s", text)
	}
	m = keys(t, m, "esc")
	for i := 0; i < 5 && !strings.Contains(lineWith(screenText(m, ""), "/8"), "costliest first"); i++ {
		m = keys(t, m, "s")
	}
	var order []string // the reviews' rows, top to bottom, as drawn
	for _, l := range strings.Split(screenText(m, ""), "\n") {
		for _, id := range []string{pr.f.ID, br.f.ID} {
			if strings.Contains(l, id) && !slices.Contains(order, id) {
				order = append(order, id)
			}
		}
	}
	if strings.Join(order, ",") != pr.f.ID+","+br.f.ID {
		t.Errorf("reviews by cost: %v, want %s ($1.50) before %s ($0.42)", order, pr.f.ID, br.f.ID)
	}
}

// openReviewRow opens the review row with ID from the browser.
func openReviewRow(t *testing.T, m Model, id string) Model {
	t.Helper()
	m = selectRow(t, m, id)
	m = keys(t, m, "enter")
	if drawnScreen(m) != "review" {
		t.Fatalf("enter on review %s did not open the review view", id)
	}
	return m
}

// TestReviewViewGolden: the review view shows one pane per lens — its
// status, the rung that sat (engine and family), the findings with their
// severities, a rejected rung's reason, UNVERIFIED — and its tabs show the
// route table and the summary.
func TestReviewViewGolden(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			br, _ := reviewsFor(t, f)
			m := sized(t, f.options(), sz.w, sz.h)
			m = openReviewRow(t, m, br.f.ID)
			checkFrame(t, m, sz.w, sz.h, f.proj, []string{"defect", "security", "tests", "refuse", "pass", "UNVERIFIED", "juror-a (anthropic)", "blocker"})
			goldenScreen(t, m, f.proj)
		})
	}
}

// TestReviewViewTabs: the browser previews a review's summary; in the
// view, tab shows the route table, then the summary, as documents; esc
// goes back to the list.
func TestReviewViewTabs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	br, _ := reviewsFor(t, f)
	if err := br.f.Write(filepath.Join(review.RoundDir(1), review.RoutesFile), []byte("# Routes, round 1\n\n| lens | rung |\n|---|---|\n| defect | juror-a |\n")); err != nil {
		t.Fatal(err)
	}
	if err := br.f.Write("summary.md", []byte("# Review summary\n\nRefused by defect.\n")); err != nil {
		t.Fatal(err)
	}
	m := sized(t, f.options(), 100, 30)
	m = keys(t, selectRow(t, m, br.f.ID), "up", "down")                                 // the row above it, then down: the preview follows
	checkFrame(t, m, 100, 30, f.proj, []string{"Review summary", "Refused by defect."}) // the browser's preview: the summary
	m = openReviewRow(t, m, br.f.ID)
	m = keys(t, m, "tab")
	checkFrame(t, m, 100, 30, f.proj, []string{"Routes, round 1", "juror-a"})
	m = keys(t, m, "tab")
	checkFrame(t, m, 100, 30, f.proj, []string{"Review summary", "Refused by defect."})
	m = keys(t, m, "esc")
	if drawnScreen(m) != "browser" {
		t.Errorf("esc left the review view on screen %d", m.screen)
	}
}

// TestReviewViewFollows: while another process runs the review, its
// panes follow the folder: a call_started shows the lens called, a
// verdict event its outcome, a verdict file its findings; a new round
// moves the view to it.
func TestReviewViewFollows(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rf := newReviewFixture(t, filepath.Join(f.proj, review.ReviewsDir), fixedNow, review.State{
		Contract: envelope.Contract{Intent: "live"}, Lenses: lenses("defect", "security"), Status: review.StatusRunning,
	})
	lockHeldBy(t, rf.f.Dir, os.Getpid()) // another process runs it: a live writer holds its lock
	rf.event(t, engine.Event{Type: engine.EvRoundStarted, Round: 1})
	m := sized(t, f.options(), 140, 45)
	m = openReviewRow(t, m, rf.f.ID)
	// status is the word a lens's pane draws after its name ("defect ·
	// refuse"; a lens being called draws "running" beside a spinner)
	status := func(lens string) string {
		line := lineWith(screenText(m, f.proj), lens+" · ")
		fields := strings.Fields(line[strings.Index(line, lens+" · ")+len(lens+" · "):])
		if len(fields) > 1 && fields[1] == "running" {
			return "called"
		}
		if len(fields) == 0 {
			return ""
		}
		return fields[0]
	}
	if s := status("defect"); s != "waiting" {
		t.Fatalf("defect before any call: %s\n%s", s, screenText(m, f.proj))
	}
	steps := []struct {
		write func()
		lens  string
		want  string
		shown string
	}{
		{func() {
			rf.event(t, engine.Event{Type: engine.EvRung, Round: 1, SolverID: "defect", Engine: "juror-x", Choice: string(review.StatusCapacity), Reason: "window too small"})
			rf.event(t, engine.Event{Type: engine.EvCallStarted, Round: 1, SolverID: "defect", Engine: "juror-a"})
		}, "defect", "called", "rejected juror-x: capacity"},
		{func() {
			rf.event(t, engine.Event{Type: engine.EvVerdict, Round: 1, SolverID: "security", Engine: "juror-o", Choice: string(review.OutcomePass)})
		}, "security", "pass", "juror-o"},
		{func() {
			rf.seat(t, review.Seat{Lens: "defect", Round: 1, Outcome: review.OutcomeRefuse, Engine: "juror-a", Family: "anthropic",
				Findings: []review.Finding{{Severity: review.SevMajor, Claim: "off by one", Evidence: "x"}}})
		}, "defect", "refuse", "1 finding: 1 major"},
		{func() {
			rf.event(t, engine.Event{Type: engine.EvRoundStarted, Round: 2})
		}, "defect", "waiting", "round 2 of 2"},
	}
	for i, s := range steps {
		s.write()
		m = pump(t, m, watchTickMsg{})
		if got := status(s.lens); got != s.want {
			t.Fatalf("step %d: %s's pane draws %q, want %q:\n%s", i, s.lens, got, s.want, screenText(m, f.proj))
		}
		checkFrame(t, m, 140, 45, f.proj, []string{s.shown})
	}
}

// TestReviewViewDecide: on a stalled review waiting for a human, d opens
// the decision form and approving writes decisao.md in the review's folder
// through review.DecideHuman (as moot decide does); the view then shows
// the decision and d opens nothing more.
func TestReviewViewDecide(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, pr := reviewsFor(t, f)
	if err := pr.f.Write("summary.md", []byte("# Review summary\n\nStalled.\n")); err != nil {
		t.Fatal(err)
	}
	fakeWho(f)
	m := sized(t, f.options(), 120, 40)
	m = openReviewRow(t, m, pr.f.ID)
	checkFrame(t, m, 120, 40, f.proj, []string{"d decide"})
	m = keys(t, m, "d")
	if !menuDrawn(m, menuDecide) {
		t.Fatalf("d opened no decision form:\n%s", screenText(m, f.proj))
	}
	m = keys(t, m, "enter", "enter")
	raw, err := os.ReadFile(filepath.Join(pr.f.Dir, review.DecisionFile))
	if err != nil {
		t.Fatalf("no decisao.md: %v (status %q)", err, m.toast.text)
	}
	if dec, err := bugfolder.ParseDecision("decisao.md", raw); err != nil || dec.Choice != bugfolder.ChoiceApprove || dec.By != "Ana <ana@example.org>" {
		t.Fatalf("decisao.md: %+v %v", dec, err)
	}
	checkFrame(t, m, 120, 40, f.proj, []string{"stalled · decision approve"})
	if m = keys(t, m, "d"); anyMenuDrawn(m) {

		t.Error("d opens the form again on a decided review")
	}
}

// TestReviewStandaloneView: NewReview (moot review on a terminal) opens on
// the review it follows with the debate view's footer, says when the run
// ended, and q quits the program.
func TestReviewStandaloneView(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	br, _ := reviewsFor(t, f)
	m := NewReview(br.f.Dir, Options{Now: func() time.Time { return fixedNow }, Records: []engine.RecordKeeper{review.Keeper{}}})
	m = pump(t, m, tea.WindowSizeMsg{Width: 100, Height: 30})
	for _, msg := range run(m.Init()) {
		m = pump(t, m, msg)
	}
	checkFrame(t, m, 100, 30, "", []string{"review " + br.f.ID, "defect · refuse", "←/h left", "→/l right", "q quit"})
	m = pump(t, m, ReviewDoneMsg{})
	checkFrame(t, m, 100, 30, "", []string{"the review ended", "q quit"})
	_, cmd := m.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q did nothing")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q does not quit the standalone review view")
	}
}
