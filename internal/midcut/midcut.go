// Package midcut shortens identifiers and paths by cutting their middle,
// the same way in the command line and the TUI: "20261202-should…-forever"
// keeps the start and the end a reader tells two of them apart by.
package midcut

import "github.com/mattn/go-runewidth"

// Cut fits plain text to w cells by cutting its middle (a path or an
// address keeps its start and its end, joined by …); text of w cells or
// fewer is returned as is.
func Cut(s string, w int) string {
	if runewidth.StringWidth(s) <= w || w < 5 {
		return runewidth.Truncate(s, max(0, w), "…")
	}
	head := (w - 1) / 2
	r := []rune(s)
	from := len(r) // the end kept: the most runes that fit w-1-head cells
	for room := w - 1 - head; from > 0 && runewidth.RuneWidth(r[from-1]) <= room; from-- {
		room -= runewidth.RuneWidth(r[from-1])
	}
	return runewidth.Truncate(s, head, "") + "…" + string(r[from:])
}

// DistinctWidth is the narrowest width, from w up, at which no two of ids,
// each Cut to it, read the same (at most the longest id: whole ids are
// distinct when the ids are).
func DistinctWidth(ids []string, w int) int {
	longest := 0
	for _, id := range ids {
		longest = max(longest, runewidth.StringWidth(id))
	}
	for ; w < longest; w++ {
		seen := make(map[string]bool, len(ids))
		clash := false
		for _, id := range ids {
			c := Cut(id, w)
			clash = clash || seen[c]
			seen[c] = true
		}
		if !clash {
			break
		}
	}
	return w
}

// IDColumn is the width of a listing's ID column (the browser's and moot
// list's on a terminal): a bug's ID (BUG-20260715-A7K3) whole, a longer
// one (a question's, a review's) cut in its middle to it.
const IDColumn = 17

// ColumnWidth is the ID column's width for ids: IDColumn (or the longest
// id, when narrower), wider only as far as two ids would read the same.
func ColumnWidth(ids []string) int {
	longest := 0
	for _, id := range ids {
		longest = max(longest, runewidth.StringWidth(id))
	}
	return DistinctWidth(ids, min(IDColumn, longest))
}
