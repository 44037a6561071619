package tui

import (
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
)

// TestReviewViewAnswersTheDebateViewsKeys: on the review view ←/→ (and
// h/l) move between the lenses as they move between a debate's panes,
// never changing the tab; tab and [ ] change the tab; / opens the search
// over the zoomed lens; and every key the debate view uses for panes,
// tabs, zoom and search is a key of the review view too.
func TestReviewViewAnswersTheDebateViewsKeys(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	br, _ := reviewsFor(t, f)
	for _, tc := range []struct {
		name      string
		keys      []string
		tab, focs int
		zoom, typ bool
	}{
		{"right moves to the next lens", []string{"right"}, 0, 1, false, false},
		{"l moves as right does", []string{"l", "l"}, 0, 2, false, false},
		{"left moves back", []string{"right", "right", "left"}, 0, 1, false, false},
		{"h stops at the first lens", []string{"h"}, 0, 0, false, false},
		{"tab changes the tab", []string{"tab"}, 1, 0, false, false},
		{"] and [ change the tab", []string{"]", "]", "["}, 1, 0, false, false},
		{"shift+tab goes back round", []string{"shift+tab"}, 2, 0, false, false},
		{"/ searches the focused lens", []string{"right", "/"}, 0, 1, true, true},
		{"enter zooms", []string{"enter"}, 0, 0, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sized(t, f.options(), 140, 45)
			m = openReviewRow(t, m, br.f.ID)
			m = keys(t, m, tc.keys...)
			if m.rv.view.tab != tc.tab || m.rv.view.focus != tc.focs || m.zm.on != tc.zoom || m.zm.find.typing != tc.typ {
				t.Errorf("after %v: tab %d focus %d zoom %v search %v; want tab %d focus %d zoom %v search %v",
					tc.keys, m.rv.view.tab, m.rv.view.focus, m.zm.on, m.zm.find.typing, tc.tab, tc.focs, tc.zoom, tc.typ)
			}
		})
	}
	d, r := debatePage, reviewPage
	for _, pair := range [][2]key.Binding{{d.NextTab, r.NextTab}, {d.PrevTab, r.PrevTab}, {d.Left, r.Left}, {d.Right, r.Right},
		{d.Up, r.Up}, {d.Down, r.Down}, {d.Zoom, r.Zoom}, {d.Search, r.Search}, {d.Help, r.Help}, {d.Quit, r.Quit}, {d.Back, r.Back}} {
		if !slices.Equal(pair[0].Keys(), pair[1].Keys()) {
			t.Errorf("the review view answers %v where the debate view answers %v", pair[1].Keys(), pair[0].Keys())
		}
	}
}
