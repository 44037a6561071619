package tui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/reversa/moot/bugfolder"
)

// browserScreen is the browser: the list of bugs, questions and reviews,
// with a preview. It owns its keys; its state is the root's browser
// (browser.go), which other screens read (a debate opened from it goes
// back to it).
type browserScreen struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Filter, Clear, Sort                     key.Binding
	Open, New, Resume, OpenFile, Copy, Edit key.Binding
	Mouse, Help, Quit                       key.Binding
}

func newBrowserScreen() browserScreen {
	return browserScreen{
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
		OpenFile: bind("o", "open bug.md (a question: its problem)", "o"),
		Edit:     bind("e", "edit bug.md in $VISUAL (else $EDITOR)", "e"),
		Copy:     bind("y", "copy the bug's folder path", "y"),
		Mouse:    said("mouse", "wheel moves, click selects"),
		Help:     bind("?", "this help", "?"),
		Quit:     bind("q", "quit", "q"),
	}
}

// ShortHelp is the browser's footer.
func (k browserScreen) ShortHelp() []key.Binding {
	return []key.Binding{labelled(k.Up, "↑↓", "move"), labelled(k.Open, "enter", "open"), labelled(k.Filter, "/", "filter"),
		labelled(k.Sort, "s", "sort"), labelled(k.New, "n", "new"), labelled(k.Resume, "r", "resume"), labelled(k.Help, "?", "keys"), k.Quit}
}

// FullHelp is the browser's help: its keys, then what its marks mean.
func (k browserScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.PageUp, k.Top, k.Filter, k.Clear, k.Sort, k.Open, k.New, k.Resume, k.OpenFile, k.Edit, k.Copy, k.Mouse, k.Help, k.Quit},
		{said("⊘", "closed by DONE.md: read-only, no new debate"), said("◆", "waits for a human decision (listed first): enter, then d on the Final tab"),
			said("⚑", "visibility: restricted: never sent to an external engine"), said("?", "a question (moot ask), not a bug"),
			said("◇", "a review (moot review): enter shows its panel"), said("●", "a moot process is running this debate now")},
	}
}

func (k browserScreen) handleKey(m Model, msg tea.KeyPressMsg) (Model, tea.Cmd) {
	b := &m.browser
	listH := m.lay.rows
	if b.filtering {
		if key.Matches(msg, k.Open, k.Clear) {
			b.filtering = false
			b.filter.Blur()
			if key.Matches(msg, k.Clear) {
				b.filter.SetValue("")
				b.refilter()
				b.keepVisible(listH)
			}
			return m, nil
		}
		var c tea.Cmd
		b.filter, c = b.filter.Update(msg)
		b.refilter()
		b.keepVisible(listH)
		return m, c
	}
	switch {
	case key.Matches(msg, k.Clear):
		// esc clears an applied filter; on the plain list it does nothing
		// (q quits)
		if b.filter.Value() != "" {
			b.filter.SetValue("")
			b.refilter()
			b.keepVisible(listH)
		}
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.helpv.on = true
	case key.Matches(msg, k.Up):
		b.move(-1, listH)
	case key.Matches(msg, k.Down):
		b.move(1, listH)
	case key.Matches(msg, k.PageUp):
		b.move(-listH, listH)
	case key.Matches(msg, k.PageDown):
		b.move(listH, listH)
	case key.Matches(msg, k.Top):
		b.move(-len(b.visible), listH)
	case key.Matches(msg, k.Bottom):
		b.move(len(b.visible), listH)
	case key.Matches(msg, k.OpenFile):
		if r := b.selected(); r != nil {
			return m, m.openFile(r.recordPath())
		}
	case key.Matches(msg, k.Edit):
		if r := b.selected(); r != nil && r.rev == nil {
			return m, m.editBug(r.dir.Dir, r.dir.Question)
		}
	case key.Matches(msg, k.Copy):
		return m, m.copyPath(m.browser.focusedPath())
	case key.Matches(msg, k.Sort):
		b.cycleSort(listH)
		return m, statusCmd("sorted: " + b.sortName())
	case key.Matches(msg, k.Filter):
		b.filtering = true
		return m, b.filter.Focus()
	case key.Matches(msg, k.Open):
		if r := b.selected(); r != nil && r.rev != nil {
			return m, loadReviewCmd(m.opts.keeper(), r.dir.Dir, 0)
		}
		if r := b.selected(); r != nil && r.sum == nil && r.err == nil {
			// not read yet: read it now, then open it
			return m, indexAndLoadCmd(m.opts.Register, r.dir)
		}
		if r := b.selected(); r != nil && r.sum != nil {
			if r.sum.Count == 0 {
				return m, statusCmd(fmt.Sprintf("%s has no debate yet: n starts one", r.sum.Bug.ID))
			}
			return m, loadNthDebateCmd(r.sum.Bug, 0) // the newest, archived or not
		}
	case key.Matches(msg, k.New):
		r := b.selected()
		switch {
		case r == nil || r.sum == nil:
		case r.sum.Bug.Done:
			return m, statusCmd(fmt.Sprintf("%s is closed by DONE.md: moot starts no debate there", r.sum.Bug.ID))
		case r.dir.Question:
			var p *bugfolder.ProblemFile
			if r.sum.Latest != nil {
				p = r.sum.Latest.Problem
			}
			return m, statusCmd(questionNewAdvice(r.sum.Bug.Title, p))
		case r.resumable():
			return m, statusCmd(fmt.Sprintf("%s has an unfinished debate: r resumes it", r.sum.Bug.ID))
		case r.pendingDecision(): // its result is read off the UI goroutine (pendingReadMsg)
			return m, readPendingCmd(r.sum.Bug)
		default:
			m.next = openSetupMsg{bug: r.sum.Bug}
			return m, nil
		}
	case key.Matches(msg, k.Resume):
		r := b.selected()
		if r != nil && r.held() {
			m.toast.text, m.toast.until = fmt.Sprintf("%s is run by %s: enter watches it", r.sum.Bug.ID, holderLine(r.sum.Latest.Holder)), m.clock().Add(4*time.Second)
			m.toast.held = r.dir.Dir // the line goes when that run ends
			return m, nil
		}
		if r == nil || !r.resumable() {
			return m, notResumableCmd(r)
		}
		m.subj.bug = r.sum.Bug
		m.opts.Resume = true
		return m, loadDebateCmd(m.subj.bug)
	}
	return m, nil
}

func (k browserScreen) render(m Model) string {
	b := &m.browser
	l := m.lay
	title := m.st.Title.Render("moot") + m.st.Subtle.Render(" · debates over "+b.over())
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
	second := m.st.Subtle.Render(count)
	if b.filtering || b.filter.Value() != "" {
		match := fmt.Sprintf(" %d of %d match", len(b.visible), len(b.rows))
		if !b.filtering && len(b.visible) > 0 { // accepted: where the selection is, too
			match = fmt.Sprintf(" %d/%d · %d of %d match", b.cursor+1, len(b.visible), len(b.visible), len(b.rows))
		}
		second = b.filter.View() + m.st.Subtle.Render(match)
	}
	list := b.renderRows(m.st, l.listW, l.rows)
	var body string
	switch l.browseMode {
	case "side":
		body = lipgloss.JoinHorizontal(lipgloss.Top, lipgloss.NewStyle().Width(l.listW).Height(l.listH).Render(list), " ", m.browser.viewPreview(&m.frame, l.prevW, l.prevH))
	case "stacked":
		body = padLines(list, l.listH) + "\n" + m.browser.viewPreview(&m.frame, l.prevW, l.prevH)
	default:
		body = list
	}
	help := footerHelp(k.ShortHelp()...)
	return ansi.Truncate(title, l.w, "…") + "\n" + ansi.Truncate(second, l.w, "…") + "\n" + padLines(body, l.listH+l.prevH*boolInt(l.browseMode == "stacked")) + "\n" + m.toast.footer(&m.frame, help)
}

// fromSetup leaves the wizard or a cost screen for the list (or quits,
// nothing started, when the UI opened on a bug).
func (k browserScreen) fromSetup(m Model) (Model, tea.Cmd) {
	if m.opts.Bug != nil {
		m.out.Cancelled = true // nothing started: a cancel, not a success
		return m, tea.Quit
	}
	m.screen, m.wiz, m.revCost = scrBrowser, nil, nil
	return m, nil
}

// reopen leaves a past debate (or quits when the UI opened on it); left
// names a running debate left from the list: everything is kept, r
// resumes it.
func (k browserScreen) reopen(m Model, left string) (Model, tea.Cmd) {
	if !m.fromBrowser() {
		return m, tea.Quit
	}
	m.screen, m.dv.deb, m.zm.on, m.zm.find = scrBrowser, nil, false, find{}
	m.dlg.menu, m.dlg.hidden, m.dlg.aside = nil, false, nil
	m.opts.Resume, m.dv.acceptEngines = false, false
	// the browser's exit is its own (the debate's outcome is on its row);
	// it still names the last debate shown
	m.out = Outcome{Dir: m.out.Dir}
	if left != "" {
		m.toast.text, m.toast.until = fmt.Sprintf("left %s: everything is kept; r resumes it", left), m.clock().Add(6*time.Second)
	}
	if i := m.browser.rowOf(m.subj.bug); i >= 0 {
		// the index stays: only the bug just left is read again
		return m, refreshRowCmd(m.opts.Register, i, m.browser.rows[i].dir)
	}
	return m, tea.Batch(listBugDirsCmd(m.opts.Register))
}
