package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// longReason is a rejected rung's reason too long for one line of a pane.
const longReason = "never answered within the deadline: the engine closed its stdout and kept running until killed"

// runningReview writes a review another process runs, in round 1: three
// calls started and not yet in the record (Calls 0), defect refused with
// more findings than an 80×24 pane holds and a rejected rung with a long
// reason, security a dry pass, tests still running.
func runningReview(t *testing.T, f *fixture) *reviewFixture {
	t.Helper()
	rf := newReviewFixture(t, filepath.Join(f.proj, review.ReviewsDir), fixedNow, review.State{
		Contract: envelope.Contract{Intent: "live"}, Lenses: lenses("defect", "security", "tests"), Status: review.StatusRunning,
	})
	lockHeldBy(t, rf.f.Dir, os.Getpid())
	rf.event(t, engine.Event{Type: engine.EvRoundStarted, Round: 1})
	for _, l := range []string{"defect", "security", "tests"} {
		rf.event(t, engine.Event{Type: engine.EvCallStarted, Round: 1, SolverID: l, Engine: "juror-a", Attempt: 1})
	}
	var fs []review.Finding
	for i := 1; i <= 7; i++ {
		fs = append(fs, review.Finding{Severity: review.SevMinor, Claim: fmt.Sprintf("finding number %d", i), Evidence: "calc.go"})
	}
	rf.seat(t, review.Seat{Lens: "defect", Round: 1, Outcome: review.OutcomeRefuse, Engine: "juror-a", Family: "anthropic", Findings: fs,
		Checked:  []string{"Total's rounding against calc_test.go", "the cap at its boundary"},
		Attempts: []review.Attempt{{Rung: review.Rung{Engine: "juror-x"}, Status: review.StatusHold, Reason: longReason}, {Rung: review.Rung{Engine: "juror-a"}, Status: review.StatusSat}}})
	rf.seat(t, review.Seat{Lens: "security", Round: 1, Outcome: review.OutcomePass, Engine: "juror-a", Family: "anthropic", Dry: true, Findings: []review.Finding{}})
	return rf
}

// TestReviewPanesShowTheirWholeText: the header counts the calls running
// (the debate header's rule), a dry pass says it is dry, a rejected rung's
// reason wraps at word boundaries, and a truncated pane opens whole on
// enter; esc comes back to the review view, then to the browser.
func TestReviewPanesShowTheirWholeText(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 24}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			rf := runningReview(t, f)
			m := sized(t, f.options(), sz.w, sz.h)
			m = openReviewRow(t, m, rf.f.ID)
			want := []string{"0/3 (3 running)", "security · pass (dry)", "rejected juror-x: hold"}
			if sz.w == 80 {
				want[2] = "… 7 more" // the defect pane is cut: enter shows it whole
			}
			text := checkFrame(t, m, sz.w, sz.h, f.proj, want)
			flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "┃", " ").Replace(text)), " ") // the focused lens has a heavy border
			if sz.w == 140 && !strings.Contains(flat, "rejected juror-x: hold — "+longReason) {
				t.Errorf("the rejected rung's reason is not whole at %d columns:\n%s", sz.w, text)
			}
			for _, w := range strings.Fields(longReason) {
				if sz.w == 140 && !strings.Contains(text, w) {
					t.Errorf("word %q of the reason is cut:\n%s", w, text)
				}
			}
			goldenScreenNamed(t, "panes", m, f.proj)
			m = keys(t, m, "enter")
			zoom := checkFrame(t, m, sz.w, sz.h, f.proj, []string{"defect", "finding number 7", "killed"})
			if !zoomShown(m) || drawnScreen(m) != "review" {
				t.Fatalf("enter did not zoom the lens:\n%s", zoom)
			}
			goldenScreenNamed(t, "zoom", m, f.proj)
			if m = keys(t, m, "esc"); zoomShown(m) || drawnScreen(m) != "review" {
				t.Fatalf("esc in the zoom should go back to the review view:\n%s", screenText(m, f.proj))
			}
			m = keys(t, m, "right", "enter") // → moves to the next lens, as in a debate
			checkFrame(t, m, sz.w, sz.h, f.proj, []string{"security", "pass (dry)"})
			if m = keys(t, m, "esc", "esc"); drawnScreen(m) != "browser" {
				t.Errorf("esc from the review view left screen %d, want the browser", m.screen)
			}
		})
	}
}

// TestReviewRowTitleIsWhatWasReviewed: a review's browser row shows, as
// its TITLE, its contract (what was reviewed), as a debate's row shows its
// bug's title; its figures (lenses × rounds, calls) stay out of the title,
// at 80 columns as at 140.
func TestReviewRowTitleIsWhatWasReviewed(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 140} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			br, pr := reviewsFor(t, f)
			m := sized(t, f.options(), w, 24)
			text := screenText(m, f.proj)
			for id, intent := range map[string]string{br.f.ID: "round shipping", pr.f.ID: "document Total"} {
				row := lineWith(text, id)
				// the TITLE column is its own width: the intent's start is enough
				if !strings.Contains(row, intent[:6]) || strings.Contains(row, " calls") || strings.Contains(row, "× ·") {
					t.Errorf("at %d columns review %s's row does not title its contract %q with its figures in their columns:\n%s", w, id, intent, row)
				}
			}
		})
	}
}

// TestReviewZoomShowsWholeDocuments: enter on the routes or the summary
// tab zooms the whole document, taller than the window, from its first
// line to its last (end scrolls there), never a "… N more lines" stub.
func TestReviewZoomShowsWholeDocuments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file string
		tabs       int
	}{
		{"routes", filepath.Join(review.RoundDir(1), review.RoutesFile), 1},
		{"summary", "summary.md", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			br, _ := reviewsFor(t, f)
			doc := "# The " + tc.name + " document\n\n"
			for i := 1; i <= 60; i++ {
				doc += fmt.Sprintf("- %s line %d\n", tc.name, i)
			}
			if err := br.f.Write(tc.file, []byte(doc)); err != nil {
				t.Fatal(err)
			}
			m := sized(t, f.options(), 100, 30)
			m = openReviewRow(t, m, br.f.ID)
			for range tc.tabs {
				m = keys(t, m, "tab")
			}
			m = keys(t, m, "enter")
			if !zoomShown(m) || drawnScreen(m) != "review" {
				t.Fatalf("enter on the %s tab did not zoom it:\n%s", tc.name, screenText(m, f.proj))
			}

			top := checkFrame(t, m, 100, 30, f.proj, []string{"The " + tc.name + " document", tc.name + " line 1"})
			if strings.Contains(top, "more lines") {
				t.Errorf("the zoom is cut to a stub:\n%s", top)
			}
			m = keys(t, m, "end")
			checkFrame(t, m, 100, 30, f.proj, []string{tc.name + " line 60"})
		})
	}
}

// TestRunningReviewRowCountsAsItsHeader: a running review's view header
// counts its calls (the calls started and not yet in the record
// included); its browser row titles it by its contract, with no second
// count of its own.
func TestRunningReviewRowCountsAsItsHeader(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rf := runningReview(t, f)
	m := sized(t, f.options(), 140, 45)
	text := checkFrame(t, m, 140, 45, f.proj, []string{rf.f.ID})
	if row := lineWith(text, rf.f.ID); !strings.HasSuffix(strings.TrimRight(row, " "), "live") || strings.Contains(row, "calls") {
		t.Errorf("the running review's row, want its contract as its title and no count:\n%s", row)
	}
	m = openReviewRow(t, m, rf.f.ID)
	checkFrame(t, m, 140, 45, f.proj, []string{"calls 0/3 (3 running)"})
}
