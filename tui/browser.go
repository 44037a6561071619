package tui

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/termsafe"
)

// Messages of the browser's background loading.
type (
	// bugDirsMsg lists the register's bug folders (nothing read yet).
	bugDirsMsg struct {
		dirs []bugfolder.BugDir
		errs []error
	}
	// indexMsg delivers summaries read in the background.
	indexMsg struct {
		ch   <-chan indexItem
		item []indexItem
		done bool
	}
)

type indexItem struct {
	i   int
	sum *bugfolder.Summary
	err error
}

// browserRow is one bug in the browser.
type browserRow struct {
	dir bugfolder.BugDir
	sum *bugfolder.Summary
	err error
}

// name is what identifies a row before its bug.md is read.
func (r *browserRow) name() string {
	if r.sum != nil {
		return r.sum.Bug.ID
	}
	return filepath.Base(r.dir.Dir)
}

// browser is the list of bugs and their debates.
type browser struct {
	reg       *bugfolder.Register
	rows      []*browserRow
	loaded    int
	loading   bool
	visible   []int
	cursor    int
	offset    int
	filter    textinput.Model
	filtering bool
	errs      []error
}

func newBrowser(reg *bugfolder.Register) browser {
	ti := textinput.New()
	ti.Prompt = "/ "
	ti.Placeholder = "filter by id, title, context, status"
	return browser{reg: reg, filter: ti, loading: true}
}

// listBugDirsCmd finds the bug folders (fast: directory names only).
func listBugDirsCmd(reg *bugfolder.Register) tea.Cmd {
	return func() tea.Msg {
		dirs, errs := bugfolder.BugDirs(reg)
		return bugDirsMsg{dirs, errs}
	}
}

// startIndexing reads every row's summary with a few workers, in an order
// that serves the rows on screen first, and streams them back.
func startIndexing(reg *bugfolder.Register, dirs []bugfolder.BugDir, first []int) tea.Cmd {
	ch := make(chan indexItem, 256)
	go func() {
		order := make([]int, 0, len(dirs))
		seen := make([]bool, len(dirs))
		for _, i := range first {
			if i >= 0 && i < len(dirs) && !seen[i] {
				seen[i] = true
				order = append(order, i)
			}
		}
		for i := range dirs {
			if !seen[i] {
				order = append(order, i)
			}
		}
		jobs := make(chan int)
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range jobs {
					s, err := bugfolder.IndexBug(reg, dirs[i])
					ch <- indexItem{i: i, sum: s, err: err}
				}
			}()
		}
		for _, i := range order {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		close(ch)
	}()
	return waitForIndex(ch)
}

// waitForIndex takes every summary already read (at least one).
func waitForIndex(ch <-chan indexItem) tea.Cmd {
	return func() tea.Msg {
		it, ok := <-ch
		if !ok {
			return indexMsg{ch: ch, done: true}
		}
		msg := indexMsg{ch: ch, item: []indexItem{it}}
		for len(msg.item) < 512 {
			select {
			case it, ok := <-ch:
				if !ok {
					msg.done = true
					return msg
				}
				msg.item = append(msg.item, it)
			default:
				return msg
			}
		}
		return msg
	}
}

// setDirs creates the rows, unread.
func (b *browser) setDirs(m bugDirsMsg) {
	b.rows = make([]*browserRow, len(m.dirs))
	for i, d := range m.dirs {
		b.rows[i] = &browserRow{dir: d}
	}
	b.errs = append(b.errs, m.errs...)
	b.refilter()
}

// addIndex fills rows with their summaries.
func (b *browser) addIndex(m indexMsg) {
	for _, it := range m.item {
		if it.i < len(b.rows) {
			b.rows[it.i].sum, b.rows[it.i].err = it.sum, it.err
			b.loaded++
			if it.err != nil {
				b.errs = append(b.errs, it.err)
			}
		}
	}
	if m.done {
		b.loading = false
	}
	if b.filter.Value() != "" {
		b.refilter()
	}
}

// refilter recomputes which rows match the filter.
func (b *browser) refilter() {
	q := strings.ToLower(strings.TrimSpace(b.filter.Value()))
	b.visible = b.visible[:0]
	for i, r := range b.rows {
		if q == "" || strings.Contains(strings.ToLower(r.haystack()), q) {
			b.visible = append(b.visible, i)
		}
	}
	if b.cursor >= len(b.visible) {
		b.cursor = max(0, len(b.visible)-1)
	}
}

func (r *browserRow) haystack() string {
	s := filepath.Base(r.dir.Dir) + " " + r.dir.Context
	if r.sum != nil {
		s += " " + r.sum.Bug.Title + " " + string(r.sum.State) + " " + string(r.sum.Mode) + " " + fmt.Sprint(r.sum.Bug.DisplayNumber)
	}
	return s
}

// selected is the row under the cursor, or nil.
func (b *browser) selected() *browserRow {
	if b.cursor < 0 || b.cursor >= len(b.visible) {
		return nil
	}
	return b.rows[b.visible[b.cursor]]
}

// move moves the cursor and keeps it on screen.
func (b *browser) move(delta, height int) {
	b.cursor = max(0, min(len(b.visible)-1, b.cursor+delta))
	if b.cursor < b.offset {
		b.offset = b.cursor
	}
	if height > 0 && b.cursor >= b.offset+height {
		b.offset = b.cursor - height + 1
	}
}

// medianHealth is the median tokens-per-accepted-idea over finished debates.
func (b *browser) medianHealth() (float64, int) {
	var hs []float64
	for _, r := range b.rows {
		if r.sum != nil && r.sum.Health > 0 {
			hs = append(hs, r.sum.Health)
		}
	}
	if len(hs) == 0 {
		return 0, 0
	}
	sort.Float64s(hs)
	return hs[len(hs)/2], len(hs)
}

// resumable reports whether the row's latest debate can be resumed.
func (r *browserRow) resumable() bool {
	if r.sum == nil || r.sum.Bug.Done {
		return false
	}
	switch r.sum.State {
	case bugfolder.StateRunning, bugfolder.StateWaiting, bugfolder.StateJudgeFailed, bugfolder.StateCancelled:
		return true
	}
	return false
}

// renderRows draws the visible rows of the list at a width and height.
func (b *browser) renderRows(st *Styles, width, height int) string {
	var lines []string
	med, _ := b.medianHealth()
	head := fmt.Sprintf("%-17s %3s %-8s %-12s %-9s %-4s %-13s %7s %-10s %6s  %s", "BUG", "#", "CONTEXT", "STATUS", "MODE", "N×R", "WINNER", "COST", "DATE", "HEALTH", "TITLE")
	lines = append(lines, st.Subtle.Render(ansi.Truncate(head, width, "…")))
	if len(b.visible) == 0 {
		msg := "no bugs in this register"
		if b.filter.Value() != "" {
			msg = "no bug matches the filter"
		} else if b.loading {
			msg = "reading the register…"
		}
		return strings.Join(append(lines, st.Subtle.Render(msg)), "\n")
	}
	end := min(len(b.visible), b.offset+height-1)
	for vi := b.offset; vi < end; vi++ {
		r := b.rows[b.visible[vi]]
		line := r.line(st, med)
		line = ansi.Truncate(line, width-2, "…")
		if vi == b.cursor {
			line = st.Selected.Render("▸ ") + line
		} else {
			line = "  " + line
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// line is a row's text: status, mode, N×R, winner, cost, date, health.
func (r *browserRow) line(st *Styles, medianHealth float64) string {
	if r.sum == nil {
		if r.err != nil {
			return fmt.Sprintf("%-17s %s", ansi.Truncate(filepath.Base(r.dir.Dir), 17, "…"), st.Error.Render("cannot be read: "+r.err.Error()))
		}
		return st.Subtle.Render(fmt.Sprintf("%-17s     %-8s …", ansi.Truncate(filepath.Base(r.dir.Dir), 17, "…"), r.dir.Context))
	}
	s := r.sum
	num := ""
	if s.Bug.DisplayNumber > 0 {
		num = fmt.Sprint(s.Bug.DisplayNumber)
	}
	status := string(s.State)
	if s.State == bugfolder.StateRunning && s.Latest != nil && !s.Latest.HolderAlive {
		status = "interrupted"
	}
	mode, nr, winner, cost, date, health := "—", "—", "—", "—", "—", "—"
	if s.Mode != "" {
		mode = string(s.Mode)
	}
	if s.Count > 0 {
		nr = fmt.Sprintf("%d×%d", s.N, s.R)
		cost = engine.USD(s.CostUSD)
		if s.CostUnknown {
			cost = "unknown"
		}
	}
	if s.Winner != "" {
		winner = s.Winner[strings.LastIndexByte(s.Winner, ' ')+1:]
		if s.WinnerSolver != "" {
			winner += " (" + s.WinnerSolver + ")"
		}
	}
	if !s.StartedAt.IsZero() {
		date = s.StartedAt.Format("2006-01-02")
	}
	if s.Health > 0 {
		health = fmtTokens(int(s.Health))
	}
	lock := ""
	if s.Bug.Done {
		lock = " ⊘"
	}
	if s.Bug.Restricted() {
		lock += " ⚑"
	}
	healthCell := fmt.Sprintf("%6s", health)
	if medianHealth > 0 && s.Health > 2*medianHealth {
		healthCell = st.Warning.Render(healthCell)
	}
	return fmt.Sprintf("%-17s %3s %-8s %s %-9s %-4s %-13s %7s %-10s %s  %s%s",
		ansi.Truncate(s.Bug.ID, 17, "…"), num, ansi.Truncate(s.Bug.Context, 8, "…"),
		padRight(st.Badge(status), 12), mode, nr, ansi.Truncate(winner, 13, "…"), cost, date, healthCell, termsafe.Line(s.Bug.Title), lock)
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
