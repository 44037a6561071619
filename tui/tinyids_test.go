package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/protocol/review"
)

// TestTinyBrowserNeverCutsTwoIDsAlike: at 20×5 and 30×8 the browser's
// list is narrower than a review's ID; each ID is cut in its middle
// (internal/midcut), keeping its end, so two reviews started a second
// apart never read the same.
func TestTinyBrowserNeverCutsTwoIDsAlike(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{20, 5}, {30, 8}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			dir := filepath.Join(f.proj, review.ReviewsDir)
			a := newReviewFixture(t, dir, fixedNow, review.State{Contract: envelope.Contract{Intent: "a"}, Lenses: lenses("defect"), Status: review.StatusRefused})
			b := newReviewFixture(t, dir, fixedNow.Add(time.Second), review.State{Contract: envelope.Contract{Intent: "b"}, Lenses: lenses("defect"), Status: review.StatusRefused})
			m := sized(t, f.options(), sz[0], sz[1])
			// every row as the list draws it at this width (at 20×5 two fit
			// the window at once)
			rows := m.browser.renderRows(m.st, sz[0], len(m.browser.visible))
			drawn := map[string]string{}
			for _, id := range []string{a.f.ID, b.f.ID} {
				for _, fd := range strings.Fields(ansi.Strip(rows)) {
					if fd = strings.TrimSuffix(fd, "…"); strings.HasSuffix(fd, id[len(id)-4:]) {
						drawn[id] = fd // the ID as drawn, its end kept
					}
				}
				if drawn[id] == "" {
					t.Fatalf("review %s's row does not keep its ID's end:\n%s", id, rows)
				}
			}
			if drawn[a.f.ID] == drawn[b.f.ID] {
				t.Errorf("%s and %s both read %q", a.f.ID, b.f.ID, drawn[a.f.ID])
			}
		})
	}
}
