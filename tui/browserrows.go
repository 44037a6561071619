package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/internal/midcut"
	"github.com/reversa/moot/internal/money"
	"github.com/reversa/moot/internal/termsafe"
)

// How the browser draws its list: the columns a width has room for and
// one row's cells.

// browserCol is one column of the list: its heading, its width, and the
// order in which a narrow window gives it up (0: never).
type browserCol struct {
	head  string
	width int
	drop  int
	right bool
}

// browserCols are the list's columns in screen order; the title takes what
// is left, and the marks (closed, restricted, held) come first and are
// never cut.
var browserCols = []browserCol{
	{"BUG", midcut.IDColumn, 0, false}, {"#", 4, 6, true}, {"CONTEXT", 8, 2, false}, {"STATUS", 12, 0, false},
	{"PROTOCOL", protocolW, 0, false}, {"MODE", 9, 1, false}, {"N×R", 4, 5, false}, {"WINNER", 13, 4, false}, {"COST", 7, 8, true},
	{"DATE", 10, 7, true}, {"HEALTH", 6, 3, true},
}

// minTitle is the width the title keeps before columns are given up.
const minTitle = 24

// marksW is the width of the marks column: closed, restricted, held,
// then a space, so no mark touches the ID.
const marksW = 4

// columnsFor picks the columns that leave the title minTitle cells at a
// width (the cursor and the marks included).
func columnsFor(width int) []bool { return columnsBeside(width, 0) }

// columns are columnsFor the list's rows: its ID column as wide as tells
// their IDs apart (distinctIDWidth), which the title does not give up.
func (b *browser) columns(width int) []bool {
	return columnsBeside(width, b.distinctIDWidth(browserCols[0].width)-browserCols[0].width)
}

// columnsBeside is columnsFor with the ID column wider by idMore cells.
func columnsBeside(width, idMore int) []bool {
	on := make([]bool, len(browserCols))
	used := 2 + marksW + idMore
	for i, c := range browserCols {
		on[i] = true
		used += c.width + 1
	}
	for drop := 1; used+1+minTitle > width && drop <= 8; drop++ {
		for i, c := range browserCols {
			if c.drop == drop && on[i] {
				on[i] = false
				used -= c.width + 1
			}
		}
	}
	return on
}

// renderRows draws the list's heading and its rows at a width, rows tall
// (the heading not counted), the selected row always among them.
func (b *browser) renderRows(st *Styles, width, rows int) string {
	var lines []string
	med, _ := b.medianHealth()
	on := b.columns(width)
	widths := b.colWidths(on, width)
	if room := width - 2 - marksW - 1; widths[0] > room {
		// a list narrower than its ID column cuts each ID in its middle
		// (midcut) rather than the row at its end: two IDs never read the same
		widths[0] = b.distinctIDWidth(max(5, room))
	}
	head := b.idHead(widths[0])
	heads := make([]string, len(browserCols))
	for i, c := range browserCols {
		heads[i] = c.head
	}
	if b.questions()+b.reviews() > 0 {
		heads[0] = "ID" // a bug's or a question's
	}
	if b.reviews() > 0 { // a debate's winner or a review's verdict and lenses, as moot list says
		heads[winnerCol] = "OUTCOME"
	}
	heading := "  " + strings.Repeat(" ", marksW) + joinCells(on, widths, 0, heads) + " TITLE"
	lines = append(lines, st.Subtle.Render(ansi.Truncate(heading, width, "…")))
	if len(b.visible) == 0 {
		msg := "no bugs in this register"
		if b.filter.Value() != "" {
			msg = "nothing matches the filter"
		} else if b.loading {
			msg = "reading the register…"
		}
		return strings.Join(append(lines, "  "+st.Subtle.Render(msg)), "\n")
	}
	off := visibleOffset(b.offset, b.cursor, rows, len(b.visible))
	end := min(len(b.visible), off+rows)
	for vi := off; vi < end; vi++ {
		r := b.rows[b.visible[vi]]
		line := ansi.Truncate(r.line(st, med, on, widths, head), width-2, "…")
		if vi == b.cursor {
			line = st.Selected.Render("▸ ") + line
		} else {
			line = "  " + line
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// visibleOffset is the first row on screen: the stored offset, moved the
// least needed for the cursor to be on screen and the screen to be full.
func visibleOffset(off, cursor, rows, n int) int {
	rows = max(1, rows)
	if cursor < off {
		off = cursor
	}
	if cursor >= off+rows {
		off = cursor - rows + 1
	}
	return max(0, min(off, n-rows))
}

// contextCap is the widest the CONTEXT column grows to its contexts'
// natural width, idCap the widest the ID column grows to a question's
// folder name, and titleRoom what the title keeps before they grow.
const contextCap, idCap, titleRoom = 20, 40, minTitle

// contextTitleKeeps is the least the title keeps on a wide list when the
// CONTEXT column grows to a review's bug ID.
const contextTitleKeeps = 8

// colWidths are the columns' widths at a window width: their own, the
// CONTEXT column grown to its longest context (up to contextCap), then the
// ID column to its longest ID (up to idCap), where the title keeps
// titleRoom cells; on a wide list the title gives way to a review's bug
// ID in CONTEXT, then MODE does (on is changed).
func (b *browser) colWidths(on []bool, width int) []int {
	widths := b.fitWidths(on, width)
	ctx := slices.IndexFunc(browserCols, func(c browserCol) bool { return c.head == "CONTEXT" })
	mode := slices.IndexFunc(browserCols, func(c browserCol) bool { return c.head == "MODE" })
	if width >= wideList && on[ctx] && on[mode] && widths[ctx] < b.naturalWidth((*browserRow).context, contextCap) {
		on[mode] = false // the least telling column gives way to a review's whole bug ID
		widths = b.fitWidths(on, width)
	}
	return widths
}

// naturalWidth is the widest cell a column's rows hold, up to limit.
func (b *browser) naturalWidth(cell func(*browserRow) string, limit int) int {
	natural := 0
	for _, r := range b.rows {
		natural = max(natural, ansi.StringWidth(cell(r)))
	}
	return min(natural, limit)
}

// fitWidths is colWidths for one set of columns.
func (b *browser) fitWidths(on []bool, width int) []int {
	widths := make([]int, len(browserCols))
	used := 2 + marksW
	for i, c := range browserCols {
		widths[i] = c.width
		if i == 0 { // as wide as tells the IDs apart, before any column grows: the title keeps its room
			widths[i] = b.distinctIDWidth(c.width)
		}
		if on[i] {
			used += widths[i] + 1
		}
	}
	spare := width - used - 1 - titleRoom
	wideRoom, contextRoom := 0, 0
	if width >= wideList {
		wideRoom = protocolW // a wide list keeps a status's decision whole, as before the PROTOCOL column
		// and a review's bug ID whole in CONTEXT (the title, also in the
		// preview, gives way first: a cut ID names no bug)
		contextRoom = titleRoom - contextTitleKeeps
	}
	for _, g := range []struct {
		head string
		cap  int
		cell func(*browserRow) string
		// room is what the title may give up to this column: a cost is
		// never cut (its "+unknown" is part of the figure), a status
		// keeps its decision at 140 columns
		room int
	}{{"COST", costCap, (*browserRow).cost, titleRoom - costTitleRoom}, {"WINNER", outcomeCap, (*browserRow).reviewOutcome, outcomeTitleRoom}, {"STATUS", statusCap, (*browserRow).status, titleRoom - costTitleRoom + wideRoom},
		{"CONTEXT", contextCap, (*browserRow).context, contextRoom}, {"BUG", idCap, (*browserRow).questionID, 0}} {
		i := slices.IndexFunc(browserCols, func(c browserCol) bool { return c.head == g.head })
		grow := min(b.naturalWidth(g.cell, g.cap)-widths[i], spare+g.room)
		if i == 0 && widths[i]+grow < b.naturalWidth(g.cell, 1<<20) {
			grow = 0 // an ID column grows to show every ID whole, or not at all: a longer cut reads no better, and the title needs the room
		}
		if on[i] && grow > 0 {
			widths[i] += grow
			spare -= grow
		}
	}
	return widths // the ID column, as wide as tells the IDs apart, stays so grown (midcut.Distinct)
}

// distinctIDWidth is the narrowest ID column, from w up, at which no two
// IDs (a bug's, a question's, a review's), cut in the middle, read the
// same (the title gives up the room).
func (b *browser) distinctIDWidth(w int) int {
	w, _ = midcut.Distinct(b.rowIDs(), w)
	return w
}

// idHead is how much of each ID's start the ID column keeps at its width
// w (one distinctIDWidth gave): as much as tells two IDs apart
// (midcut.Distinct), so a cut ID reads as the column's others do.
func (b *browser) idHead(w int) int {
	_, head := midcut.Distinct(b.rowIDs(), w)
	return head
}

// rowIDs are the IDs the list's rows show.
func (b *browser) rowIDs() []string {
	var ids []string
	for _, r := range b.rows {
		if id := r.rowID(); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// rowID is the row's ID cell: a review's ID, a bug's or a question's.
func (r *browserRow) rowID() string {
	switch {
	case r.rev != nil:
		return r.rev.ID
	case r.sum != nil:
		return r.sum.Bug.ID
	}
	return ""
}

// protocolW is the PROTOCOL column's width ("tradeoff"): the title gives
// it up to keep a status's decision whole.
const protocolW = 8

// wideList is the width from which the title gives up protocolW more
// to the STATUS column.
const wideList = 120

// statusCap is the widest the STATUS column grows to its words
// ("done (closed) · decision pending").
const statusCap = 34

// status is the row's STATUS cell: the words moot list uses for it
// (bugfolder.StatusWord), "+◈ archived" after them when an archived
// result waits beside the latest.
func (r *browserRow) status() string {
	if r.rev != nil {
		return reviewStatus(r.rev)
	}
	if r.sum == nil {
		return ""
	}
	if r.alsoArchived() { // the latest's decision, and the archived one waiting too
		return r.sum.StatusWord() + " +◈ archived"
	}
	return r.sum.StatusWord()
}

// statusCol is the STATUS column's place in browserCols.
var statusCol = slices.IndexFunc(browserCols, func(c browserCol) bool { return c.head == "STATUS" })

// statusCell is the row's status as its column's width w lets it be said:
// its words whole (status) when they fit, else, on a row that waits for a
// human decision, the first of its shorter forms that fits — the mark
// and "decide", "(archived)" on an archived result's — so a ◆ row and a ◈
// row never read alike where the words are cut ("done · deci…" for both);
// a bug closed by DONE.md gives up its "(closed)", which its ⊘ mark says,
// before its state is cut ("done (close…").
func (r *browserRow) statusCell(w int) string {
	full := r.status()
	if ansi.StringWidth(full) <= w || r.sum == nil {
		return full
	}
	state := string(r.sum.State)
	var forms []string
	switch {
	case r.alsoArchived():
		forms = []string{state + " · ◆ decide +◈ archived", state + " · ◆ decide +◈", "◆ decide +◈ archived", "◆ decide +◈", "◆+◈ decide"}
	case r.pendingDecision():
		forms = []string{state + " · ◆ decide", "◆ decide"}
	case r.archivedPending():
		forms = []string{state + " · ◈ decide (archived)", "◈ decide (archived)", "◈ decide (arch.)", "◈ archived"}
	case r.sum.Bug.Done && !r.sum.Bug.Incomplete:
		forms = []string{state}
	default:
		return full
	}
	for _, f := range forms {
		if ansi.StringWidth(f) <= w {
			return f
		}
	}
	return forms[len(forms)-1]
}

// costCap is the widest the COST column grows ("$1234.56+unknown"), and
// costTitleRoom the least the title keeps for it (and for STATUS).
const costCap, costTitleRoom = 16, 16

// cost is the row's COST cell: "—" before any debate, else the latest
// debate's cost (money.Total: "$X", "$X+unknown", "unknown").
func (r *browserRow) cost() string {
	if r.rev != nil {
		return reviewCost(r.rev)
	}
	if r.sum == nil || r.sum.Count == 0 {
		return "—"
	}
	return money.Total(r.sum.CostUSD, r.sum.CostUnpriced)
}

// joinCells pads each enabled cell to its column's width; an ID too wide
// for its column keeps idHead cells of its start (browser.idHead).
func joinCells(on []bool, widths []int, idHead int, cells []string) string {
	var sb strings.Builder
	for i, c := range browserCols {
		if !on[i] {
			continue
		}
		cell, w := cells[i], widths[i]
		if ansi.StringWidth(cell) > w && c.head == "BUG" {
			cell = midcut.CutHead(ansi.Strip(cell), w, idHead) // an ID keeps its end: two IDs never read the same
		} else if ansi.StringWidth(cell) > w {
			cell = ansi.Truncate(cell, w, "…")
		}
		if c.right {
			cell = padLeft(cell, w)
		} else {
			cell = padRight(cell, w)
		}
		sb.WriteString(cell + " ")
	}
	return sb.String()
}

// marks are the row's markers: ⊘ closed by DONE.md (else ◆ a result
// that waits for a human decision, else ◈ an archived result that still
// does), ⚑ restricted (else ? a question, never restricted), ● a moot
// process is running its debate now.
func (r *browserRow) marks() string {
	if r.rev != nil {
		return r.reviewMarks()
	}
	m := []rune("    ")
	if r.sum == nil {
		return string(m)
	}
	if r.sum.Bug.Done {
		m[0] = '⊘'
	} else if r.pendingDecision() {
		m[0] = '◆'
	} else if r.archivedPending() {
		m[0] = '◈'
	}
	if r.sum.Bug.Restricted() {
		m[1] = '⚑'
	} else if r.dir.Question {
		m[1] = '?'
	}
	if r.held() {
		m[2] = '●'
	}
	return string(m)
}

// held reports whether a live moot process holds the row's debate.
func (r *browserRow) held() bool {
	return r.sum != nil && r.sum.Latest != nil && r.sum.Latest.Holder != nil && r.sum.Latest.HolderAlive
}

// line is a row's text: marks, the enabled columns, then the title.
func (r *browserRow) line(st *Styles, medianHealth float64, on []bool, widths []int, idHead int) string {
	if r.rev != nil {
		return r.reviewLine(st, on, widths, idHead)
	}
	if r.sum == nil {
		name := ansi.Truncate(filepath.Base(r.dir.Dir), 17, "…")
		if r.err != nil {
			return fmt.Sprintf("%s%-17s %s", strings.Repeat(" ", marksW), name, st.Error.Render("cannot be read: "+r.err.Error()))
		}
		return st.Subtle.Render(fmt.Sprintf("%s%-17s %s …", strings.Repeat(" ", marksW), name, r.context()))
	}
	s := r.sum
	num := ""
	if s.Bug.DisplayNumber > 0 {
		num = fmt.Sprint(s.Bug.DisplayNumber)
	}
	mode, nr, winner, date, health := "—", "—", "—", "—", "—"
	if s.Mode != "" && !r.dir.Question { // a question has no mode
		mode = string(s.Mode)
	}
	if s.Count > 0 {
		nr = fmt.Sprintf("%d×%d", s.N, s.R)
	}
	cost := r.cost()
	if s.Winner != "" {
		winner = s.Winner[strings.LastIndexByte(s.Winner, ' ')+1:]
		if s.WinnerSolver != "" {
			winner += " (" + s.WinnerSolver + ")"
		}
	} else if s.Latest != nil && s.Latest.Final != nil && s.Latest.Final.Synthesis {
		winner = "synthesis" // as list says: a host judge's synthesis, no single winner
	}
	if !s.StartedAt.IsZero() {
		date = s.StartedAt.Format("2006-01-02")
	}
	if s.Health > 0 {
		health = fmtTokens(int(s.Health))
		if medianHealth > 0 && s.Health > 2*medianHealth {
			health = st.Warning.Render(health)
		}
	}
	status := r.statusCell(widths[statusCol])
	if strings.HasPrefix(status, string(s.State)) {
		status = st.Badge(string(s.State)) + strings.TrimPrefix(status, string(s.State))
	}
	cells := []string{s.Bug.ID, num, r.context(), status, r.protocol(), mode, nr, winner, cost, date, health}
	return st.Warning.Render(r.marks()) + joinCells(on, widths, idHead, cells) + " " + termsafe.Line(s.Bug.Title)
}

// padLeft right-aligns a styled string to a display width.
func padLeft(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

// padRight pads a styled string to a display width.
func padRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// fmtTokens prints a token count compactly (12.3k).
func fmtTokens(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// protocol is the row's PROTOCOL cell: the protocol its latest debate ran
// (debate, council, tradeoff, argue), "—" before any.
func (r *browserRow) protocol() string {
	if r.sum == nil || r.sum.Latest == nil || r.sum.Latest.Problem == nil {
		return "—"
	}
	return r.sum.Latest.Problem.ProtocolName()
}
