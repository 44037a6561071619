package tui

// layout is every region of every screen at one window size. It is
// computed once per resize (and when the banner changes), so views and key
// handlers read the same figures instead of each doing its own arithmetic.
type layout struct {
	w, h int
	// top is the number of lines above every screen (the banner).
	top int

	// browser: the list region (header line plus rows) and the preview.
	browseMode string // "side", "stacked" or "none"
	// browseAbove is how many of the title and count lines the browser
	// draws above its list: 2, fewer on a window under 8 lines (the title
	// goes first, then the count), so the selected row stays on screen
	browseAbove  int
	listW, listH int // the list region, its header line included
	rows         int // bug rows on screen
	prevW, prevH int // the preview's box, border included
	prevInnerW   int // the width documents are rendered at in the preview

	// debate: the region under the header and tabs, above the footer.
	bodyW, bodyH int
	// docW is the width documents render at inside the body and the zoom.
	docW int
	// zoomH is the height of a zoomed pane or document.
	zoomH int

	// menuBoxW is the width of a menu's box; menuFormW of its form.
	menuBoxW, menuFormW int
	// wizW and wizH size the setup wizard's form.
	wizW, wizH int
	// costH is the height of the cost screen above its footer.
	costH int
}

// Browser lines: title, count (or filter), the body, the footer.
const browserChrome = 3

// Debate lines: header, tabs, the body, the footer.
const debateChrome = 3

// newLayout computes the regions for a window of w×h cells, with a banner
// line above every screen when banner is set; bugs is the register's size
// (a short list leaves the rest of the screen to the preview).
func newLayout(w, h int, banner bool, bugs int) layout {
	l := layout{w: max(w, 20), h: max(h, 8)}
	if banner {
		l.top = 1
	}
	avail := l.h - l.top

	body := max(4, avail-browserChrome)
	l.browseAbove = 2
	if real := max(h, 1) - l.top; real < 8 {
		// the window's own height, not the 8 lines other screens assume:
		// the title, then the count give way; the list's heading, one row
		// and the footer stay while they fit
		l.browseAbove = max(0, min(2, real-5))
		body = max(2, real-l.browseAbove-1)
	}
	switch {
	case l.w >= 170:
		l.browseMode = "side"
		l.listW, l.listH = max(110, l.w*2/3), body
		l.prevW, l.prevH = l.w-l.listW-1, body
	case body >= 16:
		l.browseMode = "stacked"
		l.listW, l.listH = l.w, max(5, min(body/2, bugs+2))
		l.prevW, l.prevH = l.w, body-l.listH
	default:
		l.browseMode = "none"
		l.listW, l.listH = l.w, body
	}
	l.rows = max(1, l.listH-1)
	if l.prevW > 0 {
		l.prevInnerW = l.prevW - 2
	}

	l.bodyW, l.bodyH = l.w, max(3, avail-debateChrome)
	l.docW = l.w - 2
	l.zoomH = max(1, avail-2)

	l.menuBoxW = min(l.w-4, 90)
	l.menuFormW = min(l.w-8, 86)
	l.wizW, l.wizH = min(l.w-4, 100), max(8, avail-4)
	l.costH = max(4, avail-1)
	return l
}
