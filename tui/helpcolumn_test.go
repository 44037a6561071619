package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestReviewHelpKeysStayInTheirColumn: the review view's help, generated
// from its bindings, starts every description in one column — the widest
// key ("tab / shift+tab") included — at 80 and 140 columns.
func TestReviewHelpKeysStayInTheirColumn(t *testing.T) {
	t.Parallel()
	for _, sz := range []struct{ w, h int }{{80, 45}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			br, _ := reviewsFor(t, f)
			m := openReviewRow(t, sized(t, f.options(), sz.w, sz.h), br.f.ID)
			m = keys(t, m, "?")
			text := checkFrame(t, m, sz.w, sz.h, f.proj, []string{"Keys"})
			col := -1
			for _, desc := range []string{"next / previous tab", "round k of the review", "move between lenses", "its juror's verdict", "this help", "leave now, resumable"} {
				l := lineWith(text, desc)
				if l == "" {
					t.Fatalf("the help lacks %q:\n%s", desc, text)
				}
				at := ansi.StringWidth(l[:strings.Index(l, desc)])
				if col < 0 {
					col = at
				}
				if at != col {
					t.Errorf("%q starts at column %d, the others at %d:\n%s", desc, at, col, text)
				}
			}
		})
	}
}
