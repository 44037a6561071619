package tui

import (
	"strings"
	"testing"
)

// TestReviewRowShowsItsWholeBugID: at 140 columns a review's CONTEXT, the
// bug it reviews, reads whole ("BUG-20260702-Q2R8", never "BUG-202…"):
// the title gives way first, then the MODE column, even beside a status
// that keeps its decision whole.
func TestReviewRowShowsItsWholeBugID(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	br, _ := reviewsFor(t, f)
	m := sized(t, f.options(), 140, 45)
	text := checkFrame(t, m, 140, 45, f.proj, []string{"stalled · decision pending"})
	if row := lineWith(text, br.f.ID); !strings.Contains(row, " BUG-20260702-Q2R8 ") {
		t.Errorf("the review's bug ID is cut:\n%s", row)
	}
}
