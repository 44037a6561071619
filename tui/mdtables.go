package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/internal/lazyre"
)

// glamour lays a Markdown table out at the window's width and cuts every
// heading that does not fit its column to one line ("confian…",
// "disper…"): a heading is never wrapped. A table wider than the room is
// therefore written, before glamour sees it, as one list item per row,
// each cell after its heading, so no heading is ever cut; a table that
// fits stays a table.

// docMargin is what glamour's document style takes of the width (its
// margin on both sides).
const docMargin = 4

// tableRule is a table's second line: its cells' alignment rule.
var tableRule = lazyre.New(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)

// fitTables rewrites every table of md wider than width cells as a list
// (fenced code is left as it is).
func fitTables(md string, width int) string {
	lines := strings.Split(md, "\n")
	out := make([]string, 0, len(lines))
	var code fences
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		switch {
		case code.follow(t):
		case strings.HasPrefix(t, "|") && i+1 < len(lines) && tableRule.MatchString(lines[i+1]) && !strings.Contains(l, `\|`):
			end := i + 2
			for end < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[end]), "|") {
				end++
			}
			out = append(out, tableOrList(lines[i], lines[i+1], lines[i+2:end], width)...)
			i = end - 1
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// tableCells splits a table row into its trimmed cells.
func tableCells(row string) []string {
	t := strings.TrimSpace(row)
	t = strings.TrimSuffix(strings.TrimPrefix(t, "|"), "|")
	cells := strings.Split(t, "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return cells
}

// tableOrList is the table as written when it fits width (each column as
// wide as its widest cell, with glamour's padding and rule), else a list:
// each row one item, its first cell after its heading, then every other
// cell as "heading: cell"; a table of two columns (a key, its value: moot
// show's summary) is read as pairs, its heading the first, each item
// "key: value".
func tableOrList(head, rule string, rows []string, width int) []string {
	heads := tableCells(head)
	cols := make([]int, len(heads))
	for i, h := range heads {
		cols[i] = ansi.StringWidth(h)
	}
	cells := make([][]string, len(rows))
	for r, row := range rows {
		cells[r] = tableCells(row)
		for i, c := range cells[r] {
			if i < len(cols) {
				cols[i] = max(cols[i], ansi.StringWidth(c))
			}
		}
	}
	natural := 0
	for _, c := range cols {
		natural += c + 3 // a cell's padding and its rule
	}
	if natural <= width {
		return append([]string{head, rule}, rows...)
	}
	var list []string
	if len(heads) == 2 { // a two-column table is a key and its value, the heading its first pair
		for _, row := range append([][]string{heads}, cells...) {
			key, val := row[0], ""
			if len(row) > 1 {
				val = strings.Join(row[1:], " · ")
			}
			list = append(list, "- **"+key+"**: "+val)
		}
		return list
	}
	for _, row := range cells {
		var parts []string
		for i, c := range row {
			if i >= len(heads) || heads[i] == "" {
				parts = append(parts, c)
				continue
			}
			if i == 0 {
				parts = append(parts, "**"+heads[i]+" "+c+"**")
				continue
			}
			parts = append(parts, heads[i]+": "+c)
		}
		list = append(list, "- "+strings.Join(parts, " · "))
	}
	return list
}
