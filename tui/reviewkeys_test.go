package tui

import (
	"slices"
	"strings"
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
	// the lenses drawn left to right: defect, security, tests; a tab other
	// than the panes draws no lens
	for _, tc := range []struct {
		name      string
		keys      []string
		tab, lens string
		zoom, typ bool
	}{
		{"right moves to the next lens", []string{"right"}, "panes", "security", false, false},
		{"l moves as right does", []string{"l", "l"}, "panes", "tests", false, false},
		{"left moves back", []string{"right", "right", "left"}, "panes", "security", false, false},
		{"h stops at the first lens", []string{"h"}, "panes", "defect", false, false},
		{"tab changes the tab", []string{"tab"}, "routes", "", false, false},
		{"] and [ change the tab", []string{"]", "]", "["}, "routes", "", false, false},
		{"shift+tab goes back round", []string{"shift+tab"}, "summary", "", false, false},
		{"/ searches the focused lens", []string{"right", "/"}, "panes", "security", true, true},
		{"enter zooms", []string{"enter"}, "panes", "defect", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sized(t, f.options(), 140, 45)
			m = openReviewRow(t, m, br.f.ID)
			m = keys(t, m, tc.keys...)
			if tab, lens, zoom, typ := reviewDrawn(m); tab != tc.tab || lens != tc.lens || zoom != tc.zoom || typ != tc.typ {
				t.Errorf("after %v: tab %q lens %q zoom %v search %v drawn; want tab %q lens %q zoom %v search %v\n%s",
					tc.keys, tab, lens, zoom, typ, tc.tab, tc.lens, tc.zoom, tc.typ, screenText(m, ""))
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

// reviewDrawn is what the review view draws of where its keys led: the
// tab marked on its row of tabs, the lens drawn with the heavy border
// ("" on another tab); in a zoom, the tab and lens its header names
// ("review ID · round 1 · security", "review ID · routes") and whether
// its search prompt is open.
func reviewDrawn(m Model) (tab, lens string, zoom, typing bool) {
	text := screenText(m, "")
	if zoom = zoomShown(m); zoom {
		typing = strings.Contains(footer(m), "enter find · esc close")
		head := strings.Split(text, "\n")[0]
		i := strings.LastIndex(head, " · ")
		if i < 0 {
			return "", "", zoom, typing
		}
		if strings.Contains(head, " · round ") {
			return "panes", head[i+len(" · "):], zoom, typing
		}
		return head[i+len(" · "):], "", zoom, typing
	}
	if _, after, ok := strings.Cut(lineWith(text, "┃"), "┃"); ok {
		lens, _, _ = strings.Cut(strings.TrimSpace(after), " ·")
	}
	return activeTab(m), lens, false, false
}
