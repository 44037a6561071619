package tui

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/par"
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
	// stamp is what its debate folder looked like at the last look.
	stamp string
	// rev is set on a review's row (dir.Dir is its folder): its record,
	// as its keeper reads it (engine.RecordKeeper).
	rev *engine.Record
}

// over names what the browser lists: the register, else (a project with
// reviews only) its .moot/reviews/, else (a project with
// questions only) the project's .moot/debates/.
func (b *browser) over() string {
	project := filepath.Base(b.reg.Project)
	if b.reg.Root == "" && b.questions() == 0 && b.reviews() > 0 {
		return filepath.Join(project, b.keeper.Holder(""))
	}
	if b.reg.Root == "" {
		return filepath.Join(project, bugfolder.QuestionsDir)
	}
	return filepath.Join(project, bugfolder.RootName)
}

// questions counts the rows that are questions.
func (b *browser) questions() int {
	q := 0
	for _, r := range b.rows {
		if r.dir.Question {
			q++
		}
	}
	return q
}

// countWords counts the rows: "12 bugs", "12 bugs, 2 questions" when the
// project has some, "2 questions" without a register ("1 bug", "1 question"),
// then the reviews when there are some ("12 bugs, 1 review").
func (b *browser) countWords() string {
	q, rv := b.questions(), b.reviews()
	n := len(b.rows) - q - rv
	var words []string
	if b.reg.Root != "" || q+rv == 0 {
		words = append(words, fmt.Sprintf("%d %s", n, plural(n, "bug", "bugs")))
	}
	if q > 0 {
		words = append(words, fmt.Sprintf("%d %s", q, plural(q, "question", "questions")))
	}
	if rv > 0 {
		words = append(words, fmt.Sprintf("%d %s", rv, plural(rv, "review", "reviews")))
	}
	return strings.Join(words, ", ")
}

// recordPath is what o opens: bug.md, or a question's problem (its
// folder before one is written).
func (r *browserRow) recordPath() string {
	switch {
	case r.rev != nil:
		return r.rev.File
	case !r.dir.Question:
		return filepath.Join(r.dir.Dir, bugfolder.BugFile)
	case r.sum != nil && r.sum.Latest != nil && r.sum.Latest.Problem != nil:
		return r.sum.Latest.Problem.Path
	}
	return r.dir.Dir
}

// name is what identifies a row before its bug.md is read.
func (r *browserRow) name() string {
	if r.rev != nil {
		return r.rev.ID
	}
	if r.sum != nil {
		return r.sum.Bug.ID
	}
	return filepath.Base(r.dir.Dir)
}

// questionID is a question's ID (its folder's name), "" for a bug.
func (r *browserRow) questionID() string {
	if r.dir.Question || r.rev != nil {
		return filepath.Base(r.dir.Dir)
	}
	return ""
}

// context is the row's CONTEXT cell: the bug's context, or "question"
// for a question (it has none).
func (r *browserRow) context() string {
	if r.rev != nil {
		return cmp.Or(r.rev.BugID, r.rev.Protocol)
	}
	if r.dir.Question {
		return bugfolder.KindQuestion
	}
	return r.dir.Context
}

// browser is the list of bugs and questions, and their debates.
type browser struct {
	// keeper reads the reviews listed (nil: none are).
	keeper  engine.RecordKeeper
	reg     *bugfolder.Register
	rows    []*browserRow
	loaded  int
	loading bool
	visible []int
	cursor  int
	offset  int
	// moved: the cursor was moved by a key, the wheel or a click; until
	// then it stays on the top row, where a pending decision is listed
	// (the bugs and the reviews arrive by separate commands, in any order)
	moved     bool
	filter    textinput.Model
	filtering bool
	// sortBy is the list's order: "" (the register's), date, status, cost
	// or health.
	sortBy string
	errs   []error
	// pending counts the rows whose latest result waits for a human
	// decision (setSum and addRow keep it): a batch of the index costs
	// its own rows, not a scan of every row.
	pending int
	// watch follows the folders new bugs and questions appear in;
	// contexts are the register's contexts and their bugs/ folders
	// (listContextsCmd).
	watch    *holderWatch
	contexts []string
}

func newBrowser(reg *bugfolder.Register, k engine.RecordKeeper) browser {
	ti := textinput.New()
	ti.Prompt = "/ "
	ti.Placeholder = "filter by id, title, context, status"
	return browser{reg: reg, keeper: k, filter: ti, loading: true}
}

// listBugDirsCmd finds the bug folders and the project's questions (fast:
// directory names only).
func listBugDirsCmd(reg *bugfolder.Register) tea.Cmd {
	return func() tea.Msg {
		dirs, errs := bugfolder.SubjectDirs(reg)
		return bugDirsMsg{dirs, errs}
	}
}

// indexWorkers is how many goroutines read the index (moot list's
// par.Workers reads on as many, at least two).
const indexWorkers = 4

// startIndexing reads every row's summary with a few workers, in an order
// that serves the rows on screen first, and streams them back. The
// stream holds every row, so a worker never waits for the UI to take
// the last batch.
func startIndexing(reg *bugfolder.Register, dirs []bugfolder.BugDir, first []int) tea.Cmd {
	ch := make(chan indexItem, max(1, len(dirs)))
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
		par.Each(len(order), indexWorkers, func(k int) {
			i := order[k]
			s, err := bugfolder.IndexSubject(reg, dirs[i])
			ch <- indexItem{i: i, sum: s, err: err}
		})
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
	b.pending = 0
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
			b.setSum(b.rows[it.i], it.sum)
			b.rows[it.i].err = it.err
			b.loaded++
			if it.err != nil {
				b.errs = append(b.errs, it.err)
			}
		}
	}
	if b.filter.Value() != "" || b.sortBy != "" || b.hasPending() {
		b.refilter() // before loading ends: the last batch may bring a pending decision
	}
	if m.done {
		b.loading = false
	}
}

// refilter recomputes which rows match the filter, in the list's order,
// keeping the selected bug under the cursor.
func (b *browser) refilter() {
	keep := -1
	if b.cursor >= 0 && b.cursor < len(b.visible) {
		keep = b.visible[b.cursor]
	}
	q := strings.ToLower(strings.TrimSpace(b.filter.Value()))
	b.visible = b.visible[:0]
	for i, r := range b.rows {
		if q == "" || strings.Contains(strings.ToLower(r.haystack()), q) {
			b.visible = append(b.visible, i)
		}
	}
	if b.sortBy != "" {
		slices.SortFunc(b.visible, b.less)
	} else {
		slices.SortFunc(b.visible, b.registerOrder) // a folder found later takes its place
	}
	b.pendingFirst()
	if b.topUntilMoved() {
		keep = -1 // the first screen opens on the first row: a pending decision
	}
	if i := slices.Index(b.visible, keep); i >= 0 {
		b.cursor = i
	}
	if b.cursor >= len(b.visible) {
		b.cursor = max(0, len(b.visible)-1)
	}
}

func (r *browserRow) haystack() string {
	s := filepath.Base(r.dir.Dir) + " " + r.context()
	if r.rev != nil {
		return s + " " + r.rev.Protocol + " " + reviewStatus(r.rev) + " " + r.rev.Intent
	}
	if r.sum != nil {
		s += " " + r.sum.Bug.Title + " " + r.status() + " " + string(r.sum.Mode) + " " + fmt.Sprint(r.sum.Bug.DisplayNumber)
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

// move moves the cursor by delta rows and keeps it on a screen of rows.
func (b *browser) move(delta, rows int) {
	b.cursor, b.moved = max(0, min(len(b.visible)-1, b.cursor+delta)), true
	b.keepVisible(rows)
}

// keepVisible scrolls the least needed for the cursor to be on screen.
func (b *browser) keepVisible(rows int) {
	b.offset = visibleOffset(b.offset, b.cursor, rows, len(b.visible))
}

// sortKeys are the orders the list cycles through with s.
var sortKeys = []string{"", "date", "status", "cost", "health"}

// sortName says the list's order in words.
func (b *browser) sortName() string {
	switch b.sortBy {
	case "date":
		return "newest first"
	case "status":
		return "by status"
	case "cost":
		return "costliest first"
	case "health":
		return "worst health first"
	}
	return "register order"
}

// hiddenSortValue is, when the list is sorted by a column the width
// hides (HEALTH at 80 columns), the selected row's value of it — the
// order is never by a figure the engineer cannot see; "" otherwise.
func (b *browser) hiddenSortValue(width int) string {
	col := map[string]string{"health": "HEALTH", "cost": "COST", "date": "DATE"}[b.sortBy]
	i := slices.IndexFunc(browserCols, func(c browserCol) bool { return c.head == col })
	r := b.selected()
	if i < 0 || b.columns(width)[i] || r == nil || r.sum == nil {
		return ""
	}
	v := "—"
	switch s := r.sum; b.sortBy {
	case "health":
		if s.Health > 0 {
			v = fmtTokens(int(s.Health)) + " tokens/accepted contribution"
		}
	case "cost":
		v = r.cost()
	case "date":
		if !s.StartedAt.IsZero() {
			v = s.StartedAt.Format("2006-01-02")
		}
	}
	return " (" + strings.ToLower(col) + " here: " + v + ")"
}

// cycleSort moves to the next order, keeping the selected bug selected.
func (b *browser) cycleSort(rows int) {
	i := slices.Index(sortKeys, b.sortBy)
	b.sortBy = sortKeys[(i+1)%len(sortKeys)]
	b.refilter()
	b.keepVisible(rows)
}

// statusRank orders statuses from what needs attention to what is settled.
var statusRank = map[bugfolder.State]int{
	bugfolder.StateWaiting: 0, bugfolder.StateJudgeFailed: 1, bugfolder.StateRunning: 2,
	bugfolder.StateCancelled: 3, bugfolder.StateDone: 4, bugfolder.StateNoDebate: 5,
}

// less orders two rows by the list's sort key; unread rows go last and
// ties keep the register's order.
func (b *browser) less(i, j int) int {
	ri, rj := b.rows[i], b.rows[j]
	if ri.rev != nil || rj.rev != nil {
		return cmp.Or(b.keyLess(ri, rj), b.registerOrder(i, j))
	}
	if (ri.sum == nil) != (rj.sum == nil) {
		if ri.sum == nil {
			return 1
		}
		return -1
	}
	c := 0
	if ri.sum != nil {
		si, sj := ri.sum, rj.sum
		switch b.sortBy {
		case "date":
			c = sj.StartedAt.Compare(si.StartedAt)
		case "status":
			c = cmp.Compare(statusRank[si.State], statusRank[sj.State])
		case "cost": // rows with no known cost ("—", unknown) go last
			c = cmp.Or(cmpBool(si.Count == 0 || si.CostUnknown, sj.Count == 0 || sj.CostUnknown), cmp.Compare(sj.CostUSD, si.CostUSD))
		case "health": // rows with no health ("—") go last
			c = cmp.Or(cmpBool(si.Health == 0, sj.Health == 0), cmp.Compare(sj.Health, si.Health))
		}
	}
	if c == 0 {
		c = b.registerOrder(i, j)
	}
	return c
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
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
	case bugfolder.StateInterrupted: // a killed moot run; a hand-run one cannot be continued
		return r.sum.Latest != nil && !r.sum.Latest.HandRun()
	}
	return false
}

// notResumableCmd says why r does not resume the row, read off the UI
// goroutine (a hand-run debate's gap is read from its files) from a copy
// of the row as it is now.
func notResumableCmd(r *browserRow) tea.Cmd {
	var row *browserRow
	if r != nil {
		c := *r
		row = &c
	}
	return func() tea.Msg { return noteMsg(notResumable(row)) }
}

// notResumable says why r resumes nothing on a row, truly: a closed bug,
// no debate, a finished one, or a debate written by hand (no moot event
// log, no lock) that stopped midway — what it lacks, and that moot cannot
// continue it call by call (moot resume refuses it too) while n starts a
// new debate, archiving it.
func notResumable(r *browserRow) string {
	const generic = "nothing to resume here: r resumes an interrupted, waiting, cancelled or judge-failed debate"
	if r == nil || r.sum == nil {
		return generic
	}
	id := r.sum.Bug.ID
	switch {
	case r.sum.Bug.Done:
		return fmt.Sprintf("%s is closed by DONE.md: moot resumes nothing there", id)
	case r.sum.State == bugfolder.StateNoDebate:
		return fmt.Sprintf("%s has no debate to resume", id)
	case r.sum.State == bugfolder.StateDone:
		return fmt.Sprintf("%s's debate is finished: there is nothing to resume", id)
	case r.sum.State == bugfolder.StateInterrupted && r.sum.Latest != nil && r.sum.Latest.HandRun():
		gap := ""
		if d, err := bugfolder.ReadDebate(r.sum.Latest.Dir, r.sum.Latest.Lang); err == nil {
			if g := d.HandRunGap(); g != "" {
				gap = " (" + g + ")"
			}
		}
		next := "n starts a new debate and archives this one"
		if r.dir.Question {
			next = "moot ask starts a new one"
		}
		return fmt.Sprintf("%s's debate was written by hand and stopped midway%s: with no moot event log, moot cannot continue it call by call, so r and moot resume refuse it; %s", id, gap, next)
	}
	return generic
}
