package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/humantime"
	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/internal/safefs"
)

// Tabs of the debate screen: the problem, each round that runs (those up
// to a recorded stop: the rounds after it never run), convergence, final.
func (d debateState) tabNames() []string {
	names := []string{"Problem"}
	for k := 0; k <= d.deb.lastRound(); k++ {
		names = append(names, fmt.Sprintf("Round %d", k))
	}
	return append(names, "Convergence", "Final")
}

// shortTabNames are the tabs' names when they do not fit the width: P,
// R0…Rk, Conv, Final.
func shortTabNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		switch {
		case n == "Problem":
			out[i] = "P"
		case strings.HasPrefix(n, "Round "):
			out[i] = "R" + strings.TrimPrefix(n, "Round ")
		case n == "Convergence":
			out[i] = "Conv"
		default:
			out[i] = n
		}
	}
	return out
}

// renderTabs styles the tab names, the active one marked.
func (d debateState) renderTabs(f *frame, names []string) []string {
	var tabs []string
	for i, t := range names {
		if i == d.tab {
			tabs = append(tabs, f.st.TabActive.Render(t))
		} else {
			tabs = append(tabs, f.st.Tab.Render(t))
		}
	}
	return tabs
}

func (d debateState) finalTab() int { return d.deb.lastRound() + 3 }
func (d debateState) convTab() int  { return d.deb.lastRound() + 2 }

// roundOfTab is the round a tab shows, or -1.
func (d debateState) roundOfTab() int {
	if d.tab >= 1 && d.tab <= d.deb.lastRound()+1 {
		return d.tab - 1
	}
	return -1
}

// focusedPanes are the panes of the tab on screen.
func (d debateState) focusedPanes() []*pane {
	if k := d.roundOfTab(); k >= 0 && k < len(d.deb.rounds) {
		return d.deb.rounds[k].panes
	}
	if d.tab == d.finalTab() {
		return []*pane{d.deb.judge}
	}
	return nil
}

// zoomable reports whether there is a focused pane or a tab's document
// to zoom into.
func (d debateState) zoomable(f *frame) bool {
	return d.zoomPane(f) != nil || d.tab == 0 || d.tab == d.convTab() || d.tab == d.finalTab()
}

// start shows the zoom, filled by refresh, at its top, with no
// search.
func (z *zoomState) start(f *frame, d *debateState, r *reviewState) {
	z.on = true
	clear(f.unread) // a file missing before may be written now
	z.layoutZoom(f)
	z.find = find{}
	z.set(f, d, "")
	z.hold = false
	z.refresh(f, d, r)
	z.vp.GotoTop() // each zoom starts at the top
}

// older shows the bug's debate before the one on screen (from the
// oldest it wraps to the newest): archived debates are reachable.
func (d debateState) older(f *frame, bug *bugfolder.Bug) tea.Cmd {
	if f.run.on || bug == nil {
		return statusCmd("a shows a bug's earlier debates once this one stops")
	}
	nth := 0 // the newest's predecessor when the count is not known yet
	if d.deb.of == 1 {
		return statusCmd(bug.ID + " has no earlier debate")
	}
	if d.deb.of > 0 {
		nth = d.deb.nth - 1
		if nth < 1 {
			nth = d.deb.of
		}
		return loadNthDebateCmd(bug, nth)
	}
	return loadNthDebateCmd(bug, nth-1)
}

// resumeShown resumes the debate on screen when it is unfinished and no
// other process runs it; a pending decision opens its menu again.
func (s debateState) resumeShown(f *frame, bug *bugfolder.Bug) tea.Cmd {
	d := s.deb
	switch {
	case f.run.on:
		return statusCmd("the debate is running")
	case d.heldBy != "":
		return statusCmd("another moot process runs this debate: " + d.heldBy)
	case bug == nil || bug.Done:
		return statusCmd("the bug is closed by DONE.md: moot writes nothing there")
	case !s.canResume(bug):
		return statusCmd(s.noResumeWhy(bug) + ": it cannot be resumed")
	case d.state == "done" || d.state == "no-debate" || d.dir == "":
		return statusCmd("nothing to resume: the debate is " + d.state)
	}
	f.opts.Resume = true
	return loadDebateCmd(bug)
}

// fromBrowser reports whether the UI opened on the browser: a debate
// opened, resumed or started from it goes back to it when left.
func (f frame) fromBrowser() bool { return f.opts.Bug == nil }

// zoomPane is the pane the zoom shows (the focused one of a round tab, or
// the judge while it runs on the final tab).
func (d debateState) zoomPane(f *frame) *pane {
	if f.screen == scrReview {
		return nil // the review view's zoom shows a lens or a document, not a call
	}
	panes := d.focusedPanes()
	if d.tab == d.finalTab() && d.deb.judge.path != "" && !f.run.on {
		return nil // the final answer is a document
	}
	if d.focus < len(panes) {
		return panes[d.focus]
	}
	return nil
}

// zoomDocKey names the document the zoom renders ("" path when plain text).
func (d debateState) zoomDocKey(f *frame) docKey {
	if f.screen == scrReview {
		return docKey{} // the review's documents are its own (reviewZoomDoc)
	}
	w := f.w - 2
	switch {
	case d.tab == 0:
		return docKey{path: d.deb.problemDoc(), width: w}
	case d.tab == d.convTab() && d.argueView != nil:
		return docKey{} // argue's own view (argueZoom), read from its files
	case d.tab == d.convTab():
		return docKey{path: d.deb.convDoc(), width: w}
	case d.tab == d.finalTab() && d.deb.judge.path != "" && !f.run.on:
		return docKey{path: d.deb.judge.path, width: w}
	}
	if p := d.zoomPane(f); p != nil && p.path != "" && p.status != "running" {
		return docKey{path: p.path, width: w}
	}
	return docKey{}
}

func (z *zoomState) layoutZoom(f *frame) {
	if z.vp.Width() == 0 {
		z.vp = viewport.New()
	}
	z.vp.SetWidth(f.lay.w)
	z.vp.SetHeight(f.lay.zoomH)
}

// refresh fills the zoom with the rendered document, or the pane's
// plain text while it streams.
func (z *zoomState) refresh(f *frame, d *debateState, r *reviewState) {
	if f.screen == scrReview {
		z.set(f, d, r.reviewZoom(f))
		return
	}
	if d.tab == d.convTab() && d.argueView != nil {
		z.set(f, d, f.argueZoom(d.argueView))
		return
	}
	k := d.zoomDocKey(f)
	if out, ok := f.docs[k]; ok && k.path != "" {
		z.set(f, d, out)
		return
	}
	if p := d.zoomPane(f); p != nil { // plain text until the rendering arrives
		follow := !z.hold && z.vp.AtBottom() && z.vp.TotalLineCount() > 0
		z.set(f, d, strings.Join(p.lines(f.w-2), "\n"))
		if follow {
			z.vp.GotoBottom() // at the end: follow the stream; scrolled up: stay put
		}
	}
}

// holdZoom records a scroll of the zoom by the user: up, or anywhere but
// the end, holds it in place; back at the end it follows the stream again.
func (z *zoomState) holdZoom(up bool) { z.hold = up || !z.vp.AtBottom() }

// gridShape lays n panes out in columns and rows for a width and height:
// as many columns of at least 34 cells as fit, more when rows get too short.
func gridShape(n, w, h int) (cols, rows int) {
	if n <= 0 {
		return 1, 1
	}
	cols = max(1, min(n, w/34))
	rows = (n + cols - 1) / cols
	for rows > 1 && h/rows < 6 && cols < n {
		cols++
		rows = (n + cols - 1) / cols
	}
	return cols, rows
}

// renderPanes draws the panes of a round as a grid. Each pane is an
// exact w×h block, so rows are joined by concatenating lines.
func (d debateState) renderPanes(f *frame, panes []*pane, w, h int) string {
	cols, rows := gridShape(len(panes), w, h)
	paneW, paneH := w/cols, h/rows
	var out []string
	for r := 0; r < rows; r++ {
		row := make([][]string, 0, cols)
		for c := 0; c < cols; c++ {
			i := r*cols + c
			if i >= len(panes) {
				break
			}
			row = append(row, d.renderPane(f, panes[i], paneW, paneH, i == d.focus))
		}
		for l := 0; l < paneH; l++ {
			var b strings.Builder
			for _, p := range row {
				b.WriteString(p[l])
			}
			out = append(out, b.String())
		}
	}
	return strings.Join(out, "\n")
}

// cellWidth is a string's width in cells, as ansi.StringWidth counts it,
// without its grapheme segmentation for what a frame mostly draws: ASCII,
// SGR styling, accented Latin letters, box drawing and the spinner's
// braille. Anything else goes to ansi.StringWidth.
func cellWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b:
			j := skipCSI(s, i)
			if j < 0 {
				return ansi.StringWidth(s)
			}
			i = j
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !narrowRune(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// skipCSI returns the index after the control sequence ESC [ params
// intermediates final at s[i], or -1 when s[i:] starts anything else.
func skipCSI(s string, i int) int {
	if i+1 >= len(s) || s[i+1] != '[' {
		return -1
	}
	j := i + 2
	for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
		j++
	}
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		return j + 1
	}
	return -1
}

// narrowRune: a rune one cell wide that never joins its neighbours into a
// grapheme cluster (no combining marks, no joiners, no soft hyphen).
func narrowRune(r rune) bool {
	switch {
	case r >= 0xa0 && r <= 0x24f:
		return r != 0xad
	case r >= 0x2010 && r <= 0x2027, r >= 0x2500 && r <= 0x257f, r >= 0x2800 && r <= 0x28ff:
		return true
	}
	return false
}

// fitCells pads or cuts a line to exactly w cells.
func fitCells(s string, w int) string {
	n := cellWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "")
		n = cellWidth(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// renderPane draws one call as w×h lines: a rounded box whose first line
// says the status, engine, time and tokens, then the tail of its text.
func (dv debateState) renderPane(f *frame, p *pane, w, h int, focused bool) []string {
	innerW, innerH := max(4, w-2), max(1, h-2)
	status := p.status
	content := make([]string, 0, innerH)
	content = append(content, ansi.Truncate(dv.paneMeta(f, p), innerW, "…"))
	bodyH := innerH - 1
	if p.err != "" && status != "running" && status != "ok" && bodyH > 0 {
		// the reason wraps, up to half the pane; the zoom shows it whole
		why := strings.Split(wrapLines(clipLine(p.err, 400), innerW), "\n")
		if n := max(1, bodyH/2); len(why) > n {
			why = append(why[:n-1], ansi.Truncate(why[n-1], innerW-1, "")+"…")
		}
		for _, l := range why {
			content = append(content, f.st.Warning.Render(l))
		}
		bodyH -= len(why)
	}
	if bodyH > 0 {
		lines := p.lastLines(innerW, bodyH)
		for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) > bodyH {
			lines = lines[len(lines)-bodyH:]
		}
		content = append(content, lines...)
	}
	border := f.st.Pane
	if focused {
		border = f.st.PaneFocus
	}
	fg := border.GetBorderTopForeground()
	edge := lipgloss.NewStyle().Foreground(fg)
	// the focused pane's border is heavy: seen without colour (NO_COLOR)
	tl, tr, bl, br, hz, vt := "╭", "╮", "╰", "╯", "─", "│"
	if focused {
		tl, tr, bl, br, hz, vt = "┏", "┓", "┗", "┛", "━", "┃"
	}
	bar := edge.Render(vt)
	out := make([]string, 0, h)
	out = append(out, edge.Render(tl+strings.Repeat(hz, innerW)+tr))
	for i := 0; i < innerH; i++ {
		line := ""
		if i < len(content) {
			line = content[i]
		}
		out = append(out, bar+fitCells(line, innerW)+bar)
	}
	out = append(out, edge.Render(bl+strings.Repeat(hz, innerW)+br))
	for len(out) < h {
		out = append(out, strings.Repeat(" ", w))
	}
	return out[:h]
}

// paneMeta is a pane's first line: its name, its status, its engine, its
// time and its tokens.
func (dv debateState) paneMeta(f *frame, p *pane) string {
	status := p.status
	badge := ""
	switch status {
	case "":
		badge = f.st.Subtle.Render("waiting")
	case "running":
		badge = f.spin.View() + " " + f.st.Badge("running")
	case "dropped":
		badge = f.st.Subtle.Render("out of the debate")
	default:
		badge = f.st.Badge(status)
	}
	d := p.dur
	if status == "running" && !p.started.IsZero() {
		d = f.now.Sub(p.started).Truncate(time.Second)
		if d < 0 {
			d = 0
		}
	}
	meta := []string{p.paneName(dv.words(f)), badge}
	if p.engine != "" {
		meta = append(meta, f.st.Subtle.Render(p.engine))
	}
	if d > 0 {
		meta = append(meta, humantime.Duration(d))
	}
	if p.tokensIn+p.tokensOut > 0 {
		meta = append(meta, fmtTokens(p.tokensIn)+"→"+fmtTokens(p.tokensOut))
	}
	return strings.Join(meta, " · ")
}

// wantDocs asks for the documents the screen shows that are not rendered
// yet (rendering runs in commands, never in Update or View).
func (m *Model) wantDocs() []tea.Cmd {
	switch m.screen {
	case scrBrowser:
		return m.browser.wantPreview(&m.frame)
	case scrReview:
		return m.rv.wantDoc(&m.frame, &m.zm)
	case scrDebate:
		return m.dv.wantDocs(&m.frame, m.zm.on)
	}
	return nil
}

// wantDocs asks for the document the live view shows (zoomOn: in the
// zoom over it) when it is not rendered yet.
func (d debateState) wantDocs(f *frame, zoomOn bool) []tea.Cmd {
	if d.deb == nil || d.deb.dir == "" {
		return nil
	}
	var k docKey
	switch {
	case zoomOn:
		k = d.zoomDocKey(f)
	case d.tab == 0:
		k = docKey{path: d.deb.problemDoc(), width: f.w - 2}
	case d.tab == d.convTab():
		k = docKey{path: d.deb.convDoc(), width: f.w - 2}
	case d.tab == d.finalTab() && d.deb.judge.path != "" && !f.run.on:
		k = docKey{path: d.deb.judge.path, width: f.finalDocWidth()}
	}
	if _, ok := f.docs[k]; ok || k.path == "" || f.pending[k] || f.unread[k] {
		return nil
	}
	f.pending[k] = true
	return []tea.Cmd{renderFileCmd(k, glamourStyle(f.dark, f.opts.NoColor), nil)}
}

// convRow is one row of convergencia.md.
type convRow struct {
	round        int
	valid, panel int
	agreement    float64 // -1 unknown
	movement     float64 // -1 unknown
}

var (
	convRound = lazyre.New(`^\s*(\d+)\s*$`)
	convValid = lazyre.New(`^\s*(\d+)\s*/\s*(\d+)\s*$`)
	leadFloat = lazyre.New(`^\s*([0-9]+(?:\.[0-9]+)?)`)
)

// parseConvRow reads one table row of a convergence file: the round, the
// valid count, and agreement and movement as its last two cells (written
// by moot, or by hand with fewer columns).
func parseConvRow(line string) (convRow, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "|") {
		return convRow{}, false
	}
	cells := strings.Split(strings.Trim(t, "|"), "|")
	if len(cells) < 4 {
		return convRow{}, false
	}
	rm, vm := convRound.FindStringSubmatch(cells[0]), convValid.FindStringSubmatch(cells[1])
	if rm == nil || vm == nil {
		return convRow{}, false
	}
	r := convRow{agreement: -1, movement: -1}
	r.round, _ = strconv.Atoi(rm[1])
	r.valid, _ = strconv.Atoi(vm[1])
	r.panel, _ = strconv.Atoi(vm[2])
	if f := leadFloat.FindStringSubmatch(cells[len(cells)-2]); f != nil {
		r.agreement, _ = strconv.ParseFloat(f[1], 64)
	}
	if f := leadFloat.FindStringSubmatch(cells[len(cells)-1]); f != nil {
		r.movement, _ = strconv.ParseFloat(f[1], 64)
	}
	return r, true
}

// loadConvergenceCmd reads the convergence table from disk.
func loadConvergenceCmd(dir string, l bugfolder.Lang) tea.Cmd {
	return func() tea.Msg {
		path := bugfolder.DocPath(dir, l.Names().Convergence)
		raw, err := safefs.ReadFile(path, 0)
		if err != nil {
			return convergenceMsg{dir: dir}
		}
		var rows []convRow
		for _, line := range strings.Split(bugfolder.NormalizeText(raw), "\n") {
			if r, ok := parseConvRow(line); ok {
				rows = append(rows, r)
			}
		}
		return convergenceMsg{dir: dir, rows: rows, path: path}
	}
}

// renderChart draws convergence per round as small bars.
func (d debateState) renderChart(f *frame, width int) string {
	if len(d.conv) == 0 && !d.words(f).Winner {
		return "" // council, tradeoff, argue: their own table (convergencia.md) says it
	}
	if len(d.conv) == 0 {
		n := d.deb.finishedRounds()
		if n == 0 {
			return f.st.Subtle.Render("convergence: no round finished yet")
		}
		// rounds finished, and no table measures them (a hand-run
		// debate, a missing or malformed file): say so, not "no round"
		return f.st.Subtle.Render(fmt.Sprintf("convergence: not recorded (%d %s finished; %s has no measure)",
			n, plural(n, "round", "rounds"), d.deb.lang.Names().Convergence))
	}
	blocks := []rune("▁▂▃▄▅▆▇█")
	bar := func(v float64) string {
		if v < 0 {
			return " "
		}
		i := int(v * float64(len(blocks)-1))
		return string(blocks[max(0, min(len(blocks)-1, i))])
	}
	var agree, valid, move strings.Builder
	for _, r := range d.conv {
		agree.WriteString(bar(r.agreement))
		if r.panel > 0 {
			valid.WriteString(bar(float64(r.valid) / float64(r.panel)))
		}
		move.WriteString(bar(r.movement))
	}
	var lines []string
	lines = append(lines, f.st.Bold.Render("Convergence per round"))
	lines = append(lines, fmt.Sprintf("  agreement  %s", f.st.Selected.Render(agree.String())))
	lines = append(lines, fmt.Sprintf("  valid      %s", f.st.Selected.Render(valid.String())))
	lines = append(lines, fmt.Sprintf("  movement   %s", f.st.Selected.Render(move.String())))
	var nums []string
	for _, r := range d.conv {
		a := "—"
		if r.agreement >= 0 {
			a = fmt.Sprintf("%.2f", r.agreement)
		}
		nums = append(nums, fmt.Sprintf("r%d %d/%d %s", r.round, r.valid, r.panel, a))
	}
	lines = append(lines, f.st.Subtle.Render("  "+ansi.Truncate(strings.Join(nums, " · "), width-2, "…")))
	return strings.Join(lines, "\n")
}

// zoomReason is the line that says why the zoomed call failed, wrapped to
// the window, above its text ("" when it did not fail).
func (d debateState) zoomReason(f *frame) string {
	p := d.zoomPane(f)
	if p == nil || p.err == "" || p.status == "running" || p.status == "ok" {
		return ""
	}
	return f.st.Warning.Render(wrapLines("why: "+clipLine(p.err, 2000), max(10, f.w-2))) + "\n\n"
}
