// Package midcut shortens identifiers and paths by cutting their middle,
// the same way in the command line and the TUI: "20261202-should…-forever"
// keeps the start and the end a reader tells two of them apart by.
package midcut

import "github.com/mattn/go-runewidth"

// Cut fits plain text to w cells by cutting its middle (a path or an
// address keeps its start and its end, joined by …); text of w cells or
// fewer is returned as is.
func Cut(s string, w int) string { return CutHead(s, w, 0) }

// CutHead is Cut keeping at least head cells of s's start (a listing's
// ID column keeps as much of its IDs' starts as tells them apart:
// Distinct), and the even share of w when that is more.
func CutHead(s string, w, head int) string {
	if runewidth.StringWidth(s) <= w || w < 5 {
		return runewidth.Truncate(s, max(0, w), "…")
	}
	head = min(max(head, (w-1)/2), w-2) // an end of one cell at least
	r := []rune(s)
	from := len(r) // the end kept: the most runes that fit w-1-head cells
	for room := w - 1 - head; from > 0 && runewidth.RuneWidth(r[from-1]) <= room; from-- {
		room -= runewidth.RuneWidth(r[from-1])
	}
	return runewidth.Truncate(s, head, "") + "…" + string(r[from:])
}

// minTail is the least of its end a cut ID keeps when Distinct gives
// its start more than half the width ("…-forever").
const minTail = 7

// Distinct is the narrowest width, from w up, at which no two of ids read
// the same once cut, and the start each keeps there (CutHead): an even cut
// first, then more of the start, down to minTail cells of the end — two
// questions of a day differ in their first words more often than in
// their last, so a start kept longer tells them apart in fewer cells
// ("20261203-should-c…s-forever" beside "20261203-should-b…s-forever",
// not 35 cells of both halves). Whole ids (the longest's width) are
// distinct when the ids are.
func Distinct(ids []string, w int) (width, head int) {
	longest := 0
	for _, id := range ids {
		longest = max(longest, runewidth.StringWidth(id))
	}
	for ; w < longest; w++ {
		for head := (w - 1) / 2; head == (w-1)/2 || head <= w-1-minTail; head++ {
			if distinctAt(ids, w, head) {
				return w, head
			}
		}
	}
	return w, 0
}

// distinctAt reports whether no two ids read the same cut to w cells
// keeping head cells of their start.
func distinctAt(ids []string, w, head int) bool {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		c := CutHead(id, w, head)
		if seen[c] {
			return false
		}
		seen[c] = true
	}
	return true
}

// IDColumn is the width of a listing's ID column (the browser's and moot
// list's on a terminal): a bug's ID (BUG-20260715-A7K3) whole, a longer
// one (a question's, a review's) cut in its middle to it.
const IDColumn = 17

// ColumnWidth is the ID column's width for ids and the start its cuts
// keep (CutHead): IDColumn (or the longest id, when narrower), wider only
// as far as two ids would read the same (Distinct).
func ColumnWidth(ids []string) (width, head int) {
	longest := 0
	for _, id := range ids {
		longest = max(longest, runewidth.StringWidth(id))
	}
	return Distinct(ids, min(IDColumn, longest))
}
