package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/review"
)

// longEvidence is a finding's evidence wider than any of the screens below.
const longEvidence = "internal/pricing/discounts/calculator_with_a_very_long_generated_name_for_the_running_total_of_every_batch.go:42 divides the running total by the count before checking that the count is above zero, so an empty batch panics with an integer divide by zero"

// quotedEvidence is a finding's evidence that opens with a quoted line of
// the change (Markdown would read it as a block quote).
const quotedEvidence = "> calc.go:5 return a + b\n> (no bound on either)\nso Total overflows on large inputs"

// longClaim is a finding's claim wider than a 60-column screen.
const longClaim = "the average of an empty batch divides by zero and panics the whole server"

// TestReviewZoomWrapsEachFindingWhole: on the review view of moot review
// (a finished review), enter zooms the lens with each finding whole: a
// claim and an evidence longer than the screen wrap at words, every word
// on screen, no line wider than the window (nothing to scroll sideways);
// an evidence opening with a "> " quoted line is drawn whole, its ">"
// kept.
func TestReviewZoomWrapsEachFindingWhole(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct {
		w, h     int
		evidence string
	}{{80, 24, longEvidence}, {60, 15, longEvidence}, {80, 24, quotedEvidence}, {140, 45, quotedEvidence}} {
		t.Run(fmt.Sprintf("%dx%d-%.6s", sz.w, sz.h, sz.evidence), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			rf := newReviewFixture(t, filepath.Join(f.proj, review.ReviewsDir), fixedNow, review.State{
				Contract: envelope.Contract{Intent: "zoom"}, Lenses: lenses("tests", "defect"), Status: review.StatusRefused,
			})
			rf.event(t, engine.Event{Type: engine.EvRoundStarted, Round: 1})
			rf.seat(t, review.Seat{Lens: "tests", Round: 1, Outcome: review.OutcomePass, Engine: "juror-a", Family: "anthropic", Findings: []review.Finding{}})
			rf.seat(t, review.Seat{Lens: "defect", Round: 1, Outcome: review.OutcomeRefuse, Engine: "juror-a", Family: "anthropic",
				Findings: []review.Finding{{Severity: review.SevMajor, Claim: longClaim, File: "calc.go", Evidence: sz.evidence}}})
			// moot review on a terminal: the cost screen, Start, the live view
			m := NewReviewCost(ReviewStart{Plan: reviewCostPlan(), Start: func() (string, error) { return rf.f.Dir, nil }},
				Options{Now: func() time.Time { return fixedNow }, Records: []engine.RecordKeeper{review.Keeper{}}})
			m = pump(t, m, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			for _, msg := range run(m.Init()) {
				m = pump(t, m, msg)
			}
			m = keys(t, m, "enter")
			for _, msg := range run(m.Init()) {
				m = pump(t, m, msg)
			}
			m = pump(t, m, ReviewDoneMsg{})
			if drawnScreen(m) != "review" {
				t.Fatalf("Start did not open the review view:\n%s", screenText(m, ""))
			}
			m = keys(t, m, "right", "enter")
			if !zoomShown(m) {
				t.Fatalf("enter did not zoom the lens:\n%s", screenText(m, ""))
			}
			screen := ansi.Strip(m.Render())
			for _, l := range strings.Split(screen, "\n") {
				if lipgloss.Width(l) > sz.w {
					t.Errorf("a line is %d cells wide on a %d-column screen: %q", lipgloss.Width(l), sz.w, l)
				}
			}
			flat := strings.Join(strings.Fields(screen), "") // a word longer than the screen is broken, not cut
			for _, want := range []string{"major: " + longClaim, "evidence: " + strings.ReplaceAll(sz.evidence, "\n", " ")} {
				if !strings.Contains(flat, strings.ReplaceAll(want, " ", "")) {
					t.Errorf("the zoom does not show %q whole:\n%s", want, screen)
				}
			}
			if l := lineWith(screen, "evidence:"); strings.Contains(l, "…") || strings.Contains(l, "divide by zero") {
				t.Errorf("the evidence is not wrapped: %q", l)
			}
		})
	}
}
