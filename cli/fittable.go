package cli

import (
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/internal/midcut"
	"github.com/reversa/moot/tui"
)

// table is a listing's header and rows, cell by cell, drawn one record per
// line: whole when piped (a script reads every cell), fitted to the width
// on a terminal — the flexible column (a title) is cut first, down to its
// floor, then the ID column (when idCut) is cut in its middle, never so
// far that two IDs read the same, then whole columns go in their drop
// order; a kept cell is never cut except these two.
type table struct {
	header []string
	rows   [][]string
	// flex is the column cut first (-1: none); flexMin its narrowest.
	flex, flexMin int
	// drop lists the columns that may go, the least telling first;
	// squeeze is cut when the columns left are still too wide.
	drop    []int
	squeeze int
	// idCut: column 0 holds IDs, cut in the middle to midcut.ColumnWidth
	// (a bug's ID whole; wider as long as two would read the same), given
	// back what the other columns leave.
	idCut bool
	// shorter holds, row by row, shorter forms of the squeezed column's
	// cell, longest first: a cell too wide for its column takes the first
	// that fits (the last, cut, when none does) instead of being cut
	// where its words tell rows apart.
	shorter [][]string
}

// render draws the table within width (0: no limit).
func (t table) render(width int) string {
	keep := make([]bool, len(t.header))
	for i := range keep {
		keep[i] = true
	}
	widths := make([]int, len(t.header))
	for _, r := range append([][]string{t.header}, t.rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	total := func() int {
		n := 0
		for i, w := range widths {
			if keep[i] {
				n += w + 2
			}
		}
		return n - 2
	}
	if width > 0 {
		if t.idCut { // the browser's rule: a long ID is cut in its middle to a bug ID's width
			w, _ := midcut.ColumnWidth(column(t, 0))
			widths[0] = min(widths[0], w)
		}
		if t.flex >= 0 && total() > width {
			widths[t.flex] = max(t.flexMin, widths[t.flex]-(total()-width))
		}
		if total() > width { // the squeezed column's first shorter forms say as much: before any column goes
			widths[t.squeeze] = min(widths[t.squeeze], t.squeezedWidth(1))
		}
		for _, c := range t.drop {
			if total() > width && c == t.flex { // before the title goes, the shortest forms of the squeezed column
				kept := widths[t.squeeze]
				widths[t.squeeze] = min(kept, t.squeezedWidth(math.MaxInt)) // each cell's shortest form
				if total() > width {                                        // the title goes all the same: the room is the column's again
					widths[t.squeeze] = kept
				}
			}
			if total() <= width {
				break
			}
			keep[c] = false
		}
		if total() > width {
			widths[t.squeeze] = max(4, widths[t.squeeze]-(total()-width))
		}
		if len(t.shorter) > 0 { // no wider than the forms it shows: the room goes to the title
			widths[t.squeeze] = min(widths[t.squeeze], t.shownWidth(widths[t.squeeze]))
		}
		if t.flex >= 0 && keep[t.flex] && total() < width {
			widths[t.flex] += width - total() // room given back by a column that went
			widths[t.flex] = min(widths[t.flex], maxWidth(t, t.flex))
		}
		if t.idCut && total() < width { // room the title left
			widths[0] = min(widths[0]+width-total(), maxWidth(t, 0))
		}
	}
	idHead := 0
	if t.idCut {
		_, idHead = midcut.Distinct(column(t, 0), widths[0])
	}
	var b strings.Builder
	for n, r := range append([][]string{t.header}, t.rows...) {
		var cells []string
		for i, c := range r {
			if !keep[i] {
				continue
			}
			if i == t.squeeze && n > 0 && n-1 < len(t.shorter) && ansi.StringWidth(c) > widths[i] {
				c = fitted(c, t.shorter[n-1], widths[i])
			}
			switch {
			case ansi.StringWidth(c) <= widths[i]:
			case i == 0 && t.idCut:
				c = midcut.CutHead(c, widths[i], idHead) // an ID keeps its end, and as much of its start as tells two apart
			default:
				c = ansi.Truncate(c, widths[i], "…")
			}
			cells = append(cells, c+strings.Repeat(" ", widths[i]-ansi.StringWidth(c)))
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, "  "), " ") + "\n")
	}
	return b.String()
}

// squeezedWidth is the squeezed column's width with each cell at its
// level-th shorter form (its last when it has fewer; whole when none).
func (t table) squeezedWidth(level int) int {
	w := ansi.StringWidth(t.header[t.squeeze])
	for n, r := range t.rows {
		c := r[t.squeeze]
		if n < len(t.shorter) && len(t.shorter[n]) > 0 {
			c = t.shorter[n][min(level, len(t.shorter[n]))-1]
		}
		w = max(w, ansi.StringWidth(c))
	}
	return w
}

// shownWidth is the widest the squeezed column's cells are drawn at width
// w (each the first of its forms that fits, or cut to w).
func (t table) shownWidth(w int) int {
	shown := ansi.StringWidth(t.header[t.squeeze])
	for n, r := range t.rows {
		c := r[t.squeeze]
		if n < len(t.shorter) && ansi.StringWidth(c) > w {
			c = fitted(c, t.shorter[n], w)
		}
		shown = max(shown, min(w, ansi.StringWidth(c)))
	}
	return shown
}

// fitted is the first of forms that fits width, else the last of them
// (cut by the caller), or cell itself when it has no shorter form.
func fitted(cell string, forms []string, width int) string {
	for _, f := range forms {
		if ansi.StringWidth(f) <= width {
			return f
		}
	}
	if len(forms) == 0 {
		return cell
	}
	return forms[len(forms)-1]
}

// column is the cells of column c, header and rows.
func column(t table, c int) []string {
	cells := []string{t.header[c]}
	for _, r := range t.rows {
		cells = append(cells, r[c])
	}
	return cells
}

// maxWidth is the widest cell of column c.
func maxWidth(t table, c int) int {
	w := 0
	for _, cell := range column(t, c) {
		w = max(w, ansi.StringWidth(cell))
	}
	return w
}

// wrapWords wraps text to lines of at most width columns, each line after
// the first indented by indent, by the TUI's one wrap rule (tui.WrapUnder:
// at spaces; a path or an ID wider than the line is cut after a '/' or a
// '-', never inside a name); width ≤ 0 (piped) leaves it one line.
func wrapWords(text string, width int, indent string) string {
	if width <= 0 {
		return text
	}
	line := indent + strings.Join(strings.Fields(text), " ") // indent stands for what the line opens with
	return strings.TrimPrefix(tui.WrapUnder(line, width+len(indent), len(indent)), indent)
}
