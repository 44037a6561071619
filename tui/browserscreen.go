package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// browserScreen is the browser: the list of bugs, questions and reviews,
// with a preview. It owns its state (browser.go), its keys and its view;
// the frame (size, styles, options, status line) is handed to it by the
// root, which holds it. It reaches no other screen: it asks the root to
// move (open the wizard, resume a debate, show the help) with a
// transition message (transitions.go).
type browserScreen struct {
	browser
	keys browserKeys
}

// browserKeys are the browser's key bindings.
type browserKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Filter, Clear, Sort                     key.Binding
	Open, New, Resume, OpenFile, Copy, Edit key.Binding
	Decide                                  key.Binding
	Mouse, Help, Quit                       key.Binding
}

func newBrowserScreen(reg *bugfolder.Register, k engine.RecordKeeper) browserScreen {
	return browserScreen{browser: newBrowser(reg, k), keys: newBrowserKeys()}
}

func newBrowserKeys() browserKeys {
	return browserKeys{
		Up:       bind("↑/↓ j/k", "move", "up", "k"),
		Down:     silent("down", "j"),
		PageUp:   bind("pgup/pgdn", "page", "pgup", "b"),
		PageDown: silent("pgdown", "f", "space"),
		Top:      bind("g/G home/end", "first / last bug", "g", "home"),
		Bottom:   silent("G", "end"),
		Filter:   bind("/", "filter by id, title, context, status", "/"),
		Clear:    bind("esc", "clear the filter (q quits)", "esc"),
		Sort:     bind("s", "sort: register order, newest, status, cost, health", "s"),
		Open:     bind("enter", "open the latest debate", "enter"),
		New:      bind("n", "start a new debate on the bug", "n"),
		Resume:   bind("r", "resume its unfinished debate", "r"),
		Decide:   bind("d", "decide what waits for you (◆ its result, ◈ the archived one)", "d"),
		OpenFile: bind("o", "open bug.md (a question: its problem)", "o"),
		Edit:     bind("e", "edit bug.md in $VISUAL (else $EDITOR)", "e"),
		Copy:     bind("y", "copy the bug's folder path", "y"),
		Mouse:    said("mouse", "wheel moves, click selects"),
		Help:     bind("?", "this help", "?"),
		Quit:     bind("q", "quit", "q"),
	}
}

// ShortHelp is the browser's footer.
func (k browserKeys) ShortHelp() []key.Binding {
	return []key.Binding{labelled(k.Up, "↑↓", "move"), labelled(k.Open, "enter", "open"), labelled(k.Filter, "/", "filter"),
		labelled(k.Sort, "s", "sort"), labelled(k.New, "n", "new"), labelled(k.Resume, "r", "resume"), labelled(k.Help, "?", "keys"), k.Quit}
}

// FullHelp is the browser's help: its keys, then what its marks mean.
func (k browserKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.PageUp, k.Top, k.Filter, k.Clear, k.Sort, k.Open, k.New, k.Resume, k.Decide, k.OpenFile, k.Edit, k.Copy, k.Mouse, k.Help, k.Quit},
		{said("⊘", "closed by DONE.md: read-only, no new debate"), said("◆", "waits for a human decision (listed first, with ◈)"),
			said("◈", "an archived result still waits for a human decision"),
			said("⚑", "visibility: restricted: never sent to an external engine"), said("?", "a question (moot ask), not a bug"),
			said("◇", "a review (moot review): enter shows its panel"), said("●", "a moot process is running it now")},
	}
}

// browserAction is what a browser key does.
type browserAction func(b *browserScreen, f *frame) tea.Cmd

// table is the browser's keys, each with its action (the first binding
// that matches acts).
func (k browserKeys) table() []keyRoute[browserAction] {
	move := func(by func(b *browserScreen, listH int) int) browserAction {
		return func(b *browserScreen, f *frame) tea.Cmd { b.move(by(b, f.lay.rows), f.lay.rows); return nil }
	}
	return []keyRoute[browserAction]{
		{k.Clear, (*browserScreen).clearFilter},
		{k.Quit, func(*browserScreen, *frame) tea.Cmd { return tea.Quit }},
		{k.Help, func(_ *browserScreen, f *frame) tea.Cmd { f.next = openHelpMsg{}; return nil }},
		{k.Up, move(func(*browserScreen, int) int { return -1 })},
		{k.Down, move(func(*browserScreen, int) int { return 1 })},
		{k.PageUp, move(func(_ *browserScreen, h int) int { return -h })},
		{k.PageDown, move(func(_ *browserScreen, h int) int { return h })},
		{k.Top, move(func(b *browserScreen, _ int) int { return -len(b.visible) })},
		{k.Bottom, move(func(b *browserScreen, _ int) int { return len(b.visible) })},
		{k.OpenFile, (*browserScreen).openFile},
		{k.Edit, (*browserScreen).edit},
		{k.Copy, func(b *browserScreen, f *frame) tea.Cmd { return f.copyPath(b.focusedPath()) }},
		{k.Sort, func(b *browserScreen, f *frame) tea.Cmd {
			b.cycleSort(f.lay.rows)
			return statusCmd("sorted: " + b.sortName())
		}},
		{k.Filter, func(b *browserScreen, _ *frame) tea.Cmd { b.filtering = true; return b.filter.Focus() }},
		{k.Open, (*browserScreen).open},
		{k.New, (*browserScreen).startNew},
		{k.Resume, (*browserScreen).resume},
		{k.Decide, (*browserScreen).decide},
	}
}

// Update answers the browser's keys and the messages of its list (its
// folders, their index, the reviews, rows read again, new folders).
func (b browserScreen) Update(f *frame, msg tea.Msg) (browserScreen, tea.Cmd) {
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		if b.filtering {
			return b, b.filterKey(f, msg)
		}
		if do, ok := matchKey(b.keys.table(), msg); ok {
			return b, do(&b, f)
		}
		return b, nil
	}
	return b, b.listData(f, msg)
}

// relayout recomputes the frame's regions for the list's size.
func (b *browserScreen) relayout(f *frame) {
	f.lay = newLayout(f.w, f.h, f.opts.Banner != "", len(b.rows))
	b.keepVisible(f.lay.rows)
}

// filterKey is a key while the filter is typed: enter accepts it, esc
// clears it, any other key is the query's.
func (b *browserScreen) filterKey(f *frame, msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, b.keys.Open, b.keys.Clear) {
		b.filtering = false
		b.filter.Blur()
		if key.Matches(msg, b.keys.Clear) {
			b.filter.SetValue("")
			b.refilter()
			b.keepVisible(f.lay.rows)
		}
		return nil
	}
	var c tea.Cmd
	b.filter, c = b.filter.Update(msg)
	b.refilter()
	b.keepVisible(f.lay.rows)
	return c
}

// clearFilter is esc: it clears an applied filter; on the plain list it
// does nothing (q quits).
func (b *browserScreen) clearFilter(f *frame) tea.Cmd {
	if b.filter.Value() != "" {
		b.filter.SetValue("")
		b.refilter()
		b.keepVisible(f.lay.rows)
	}
	return nil
}

func (b *browserScreen) openFile(f *frame) tea.Cmd {
	if r := b.selected(); r != nil {
		return f.openFile(r.recordPath())
	}
	return nil
}

func (b *browserScreen) edit(f *frame) tea.Cmd {
	if r := b.selected(); r != nil && r.rev == nil {
		return f.editBug(r.dir.Dir, r.dir.Question)
	}
	return nil
}

// open is enter: a review's view, else the row's newest debate (read
// first when its row is not read yet).
func (b *browserScreen) open(f *frame) tea.Cmd {
	r := b.selected()
	switch {
	case r == nil:
		return nil
	case r.rev != nil:
		return loadReviewCmd(f.opts.keeper(), r.dir.Dir, 0)
	case r.sum == nil && r.err == nil:
		// not read yet: read it now, then open it
		return indexAndLoadCmd(f.opts.Register, r.dir)
	case r.sum == nil:
		return nil
	case r.sum.Count == 0:
		return statusCmd(fmt.Sprintf("%s has no debate yet: n starts one", r.sum.Bug.ID))
	}
	return loadNthDebateCmd(r.sum.Bug, 0) // the newest, archived or not
}

// newWithoutBug reports whether n may set up something with no bug: a
// question of its own (moot ask's) or a review of a change.
func (b *browserScreen) newWithoutBug(f *frame) bool {
	ch := f.opts.choices()
	return (ch.ask != nil && len(ch.questions) > 0) || ch.review != nil
}

// startNew is n: the wizard on the bug (with no bug selected, or on a
// question, a question of its own or a review), unless it is closed,
// unfinished (argue and review only, the rest refused on the wizard's
// first page), or waits for a decision (asked first).
func (b *browserScreen) startNew(f *frame) tea.Cmd {
	r := b.selected()
	switch {
	case (r == nil || r.rev != nil) && b.newWithoutBug(f): // no bug (an empty register, a review's row): a question of its own, or a review
		f.next = openSetupMsg{}
		return nil
	case r == nil || r.sum == nil: // a bug not read yet
		return nil
	case r.sum.Bug.Done:
		return statusCmd(fmt.Sprintf("%s is closed by DONE.md: moot starts no debate there", r.sum.Bug.ID))
	case r.dir.Question && b.newWithoutBug(f): // a question holds one debate: a new one, its text to start from
		f.next = openSetupMsg{question: r.sum.Bug.Title}
		return nil
	case r.dir.Question:
		var p *bugfolder.ProblemFile
		if r.sum.Latest != nil {
			p = r.sum.Latest.Problem
		}
		return statusCmd(questionNewAdvice(r.sum.Bug.Title, p))
	case r.resumable():
		// argue and a review leave the unfinished debate be: the wizard
		// offers them, and says why the bug's own protocols are left out
		why := fmt.Sprintf("%s has an unfinished debate: r resumes it", r.sum.Bug.ID)
		if _, offered := f.opts.choices().withoutBugProtocols(why); !offered {
			return statusCmd(why)
		}
		f.next = openSetupMsg{bug: r.sum.Bug, unfinished: why + " from the list"}
		return nil
	case r.pendingDecision(): // its result is read off the UI goroutine (pendingReadMsg)
		return readPendingCmd(r.sum.Bug)
	}
	f.next = openSetupMsg{bug: r.sum.Bug}
	return nil
}

// resume is r: the row's unfinished debate, or why it cannot be.
func (b *browserScreen) resume(f *frame) tea.Cmd {
	r := b.selected()
	if r != nil && r.held() {
		f.toast.text, f.toast.until = fmt.Sprintf("%s is run by %s: enter watches it", r.sum.Bug.ID, holderLine(r.sum.Latest.Holder)), f.clock().Add(4*time.Second)
		f.toast.held = r.dir.Dir // the line goes when that run ends
		return nil
	}
	if r == nil || !r.resumable() {
		return notResumableCmd(r)
	}
	f.next = resumeDebateMsg{bug: r.sum.Bug}
	return nil
}

// decide is d: the result that waits for a human decision on the row —
// its latest (◆) or the archived one (◈) — opened with the decision form,
// as Decide it now opens it; the form records it as moot decide does.
func (b *browserScreen) decide(f *frame) tea.Cmd {
	r := b.selected()
	switch {
	case r == nil || r.sum == nil && r.rev == nil:
		return nil
	case r.rev != nil && r.pendingDecision():
		return statusCmd(r.rev.ID + " waits for a human decision: enter opens it, then d on its summary")
	case r.pendingDecision():
		f.next = decideRowMsg{bug: r.sum.Bug, dir: r.sum.Bug.DebateFolder()}
		return nil
	case r.archivedPending():
		f.next = decideRowMsg{bug: r.sum.Bug, dir: r.sum.ArchivedPending}
		return nil
	}
	return statusCmd(r.name() + " waits for no human decision")
}

// listData takes the list's data: its folders, their index, the
// reviews, rows read again and new folders (nil for another message).
func (b *browserScreen) listData(f *frame, msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case bugDirsMsg:
		b.setDirs(msg)
		b.relayout(f)
		if b.watch == nil {
			// its first wait goes out with the next watch tick: a wait sent
			// now would hold up whatever runs this batch's commands in turn
			b.watch = watchHolders(nil, b.holders())
		}
		var first []int
		for i := 0; i < min(len(msg.dirs), f.h); i++ {
			first = append(first, i)
		}
		cmds = append(cmds, startIndexing(f.opts.Register, msg.dirs, first), listReviewsCmd(f.opts.keeper(), f.opts.Register), listContextsCmd(f.opts.Register))
	case reviewsMsg:
		b.setReviews(msg)
		b.relayout(f) // the list's height follows its rows
	case indexMsg:
		b.addIndex(msg)
		if !msg.done {
			cmds = append(cmds, waitForIndex(msg.ch))
		}
	case rowsChangedMsg:
		for _, n := range b.applyRowChanges(msg) {
			cmds = append(cmds, notify(n))
		}
	case holderWatchMsg:
		if msg.hw == b.watch {
			// a new context's folders too, once listed
			cmds = append(cmds, listContextsCmd(f.opts.Register), scanNewDirsCmd(f.opts.Register, b.knownDirs()))
			if b.watch.arm() {
				cmds = append(cmds, b.watch.next())
			}
		}
	case contextsMsg:
		b.contexts = msg.dirs
		b.rewatch()
	case newRowsMsg:
		b.addRows(msg.items, f.lay.rows)
		b.relayout(f)
		b.rewatch()
	}
	return tea.Batch(cmds...)
}

// rewatch follows the folders the list now holds.
func (b *browserScreen) rewatch() {
	if b.watch != nil {
		watchHolders(b.watch, b.holders())
	}
}

// View draws the list, its preview and the footer.
func (b browserScreen) View(f *frame) string {
	l := f.lay
	title := f.st.Title.Render("moot") + f.st.Subtle.Render(" · debates over "+b.over())
	count := b.countWords()
	if len(b.visible) > 0 {
		count = fmt.Sprintf("%d/%d", b.cursor+1, len(b.rows))
		if b.questions()+b.reviews() > 0 {
			count += " · " + b.countWords()
		}
	}
	if b.loading {
		count += fmt.Sprintf(" · reading %d/%d…", b.loaded, len(b.rows)-b.reviews())
	}
	if b.sortBy != "" {
		count += " · " + b.sortName() + b.hiddenSortValue(l.listW)
	}
	if med, n := b.medianHealth(); n > 0 {
		count += fmt.Sprintf(" · median health %s tokens/accepted contribution over %d debates", fmtTokens(int(med)), n)
	}
	second := f.st.Subtle.Render(count)
	if b.filtering || b.filter.Value() != "" {
		match := fmt.Sprintf(" %d of %d match", len(b.visible), len(b.rows))
		if !b.filtering && len(b.visible) > 0 { // accepted: where the selection is, too
			match = fmt.Sprintf(" %d/%d · %d of %d match", b.cursor+1, len(b.visible), len(b.visible), len(b.rows))
		}
		second = b.filter.View() + f.st.Subtle.Render(match)
	}
	list := b.renderRows(f.st, l.listW, l.rows)
	var body string
	switch l.browseMode {
	case "side":
		body = lipgloss.JoinHorizontal(lipgloss.Top, lipgloss.NewStyle().Width(l.listW).Height(l.listH).Render(list), " ", b.viewPreview(f, l.prevW, l.prevH))
	case "stacked":
		body = padLines(list, l.listH) + "\n" + b.viewPreview(f, l.prevW, l.prevH)
	default:
		body = list
	}
	help := footerHelp(b.keys.ShortHelp()...)
	above := []string{ansi.Truncate(title, l.w, "…"), ansi.Truncate(second, l.w, "…")}
	above = above[len(above)-l.browseAbove:] // a short window gives up the title, then the count (newLayout)
	footer := f.toast.footer(f, help)
	if l.browseAbove == 0 && (b.filtering || b.filter.Value() != "") {
		footer = ansi.Truncate(second, l.w, "…") // the filter typed stays in sight, in the footer's place
	}
	return strings.Join(append(above, padLines(body, l.listH+l.prevH*boolInt(l.browseMode == "stacked")), footer), "\n")
}
