package tui

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/termsafe"
)

// reviewScreen is the review view: one pane per lens of a round, the
// route table and the summary (reviewView holds what it shows). Its keys
// are the debate view's: tab and [ ] the tabs, ←/→/↑/↓ (h/l/k/j) move
// between the panes, enter zooms, / searches, a digit picks a round (as
// a digit picks a debate's round tab), q asks first while it runs.
type reviewScreen struct {
	NextTab, PrevTab, Round, Left, Right, Up, Down key.Binding
	Zoom, Search, Decide, Help                     key.Binding
	Back, Quit, ForceQuit                          key.Binding
}

func newReviewScreen() reviewScreen {
	return reviewScreen{
		NextTab:   bind("tab / shift+tab", "next / previous tab (panes, route table, summary)", "tab", "]"),
		PrevTab:   silent("shift+tab", "["),
		Round:     bind("1–9", "round k of the review", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
		Left:      bind("←/→/↑/↓", "move between lenses", "left", "h"),
		Right:     silent("right", "l"),
		Up:        silent("up", "k"),
		Down:      silent("down", "j"),
		Zoom:      bind("enter", "zoom the lens (every finding whole) or document", "enter"),
		Search:    bind("/", "search in a zoom; n/N next/previous match", "/"),
		Decide:    bind("d", "on a stalled review: record the human decision", "d"),
		Help:      bind("?", "this help", "?"),
		Back:      bind("esc", "back to the list (when opened from it)", "esc"),
		Quit:      bind("q", "leave (asks first while the review runs)", "q"),
		ForceQuit: bind("ctrl+c", "leave now, resumable", "ctrl+c"),
	}
}

// ShortHelp is the review view's footer, in the debate view's words.
func (k reviewScreen) ShortHelp() []key.Binding {
	return []key.Binding{labelled(k.NextTab, "tab", "next tab"), labelled(k.Left, "←/h", "left"), labelled(k.Right, "→/l", "right"),
		labelled(k.Zoom, "enter", "open"), labelled(k.Help, "?", "keys"), labelled(k.Quit, "q", "quit")}
}

// footer is the footer for what the view shows: no pane moves on a
// document or a single lens; a stalled review says d first.
func (k reviewScreen) footer(r *reviewView) []key.Binding {
	bs := k.ShortHelp()
	if r.tab != 0 || len(r.panes) < 2 {
		bs = []key.Binding{bs[0], bs[3], bs[4], bs[5]}
	}
	if r.rounds > 1 {
		bs = append(bs[:1], append([]key.Binding{labelled(k.Round, fmt.Sprintf("1–%d", min(9, r.rounds)), "round")}, bs[1:]...)...)
	}
	if r.awaitsDecision() {
		bs = append([]key.Binding{labelled(k.Decide, "d", "decide")}, bs...)
	}
	return bs
}

// FullHelp is the review view's help: its keys, what a lens's status
// says, and how to leave.
func (k reviewScreen) FullHelp() [][]key.Binding {
	z := zoomKeyMap
	return [][]key.Binding{
		{k.NextTab, k.Round, k.Left, k.Zoom, k.Search, labelled(z.Back, "esc", "back from a search, then a zoom"),
			labelled(z.Top, "g/G home/end", "in a zoom: its top / its end"), k.Decide},
		{said("waiting", "the lens's juror is not called yet"), said("running", "its juror is being called"),
			said("pass·refuse", "its juror's verdict"), said("hold", "no answer, or no rung left"),
			said("pass (dry)", "a pass with no finding and nothing named as checked"),
			said("UNVERIFIED", "a local pass no external juror of another family verified: a hold"), said("rejected", "a rung that did not sit, and why")},
		{k.Help, k.Back, k.Quit, k.ForceQuit},
	}
}

// Update answers a key on the review view, as the debate view answers
// its own (the root routes a key to the zoom while one is open). What
// stands outside its state it asks the root for: the zoom
// (openZoomMsg), the decision menu (openMenuMsg), the stop question
// (askStopReviewMsg), the list (leaveReviewMsg), the help.
func (s reviewState) Update(f *frame, msg tea.Msg) (reviewState, tea.Cmd) {
	k, r := reviewPage, s.view
	m, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
		return s, nil
	case r == nil: // not read yet: only leaving works
		if key.Matches(m, k.Back, k.Quit) && s.alone != "" {
			return s, tea.Quit
		}
		if key.Matches(m, k.Back, k.Quit) {
			f.next = leaveReviewMsg{}
		}
		return s, nil
	case r.move(f, k, m):
		return s, nil
	case key.Matches(m, k.Zoom, k.Search):
		if r.tab != 0 || len(r.panes) > 0 {
			f.next = openZoomMsg{find: key.Matches(m, k.Search)} // the focused lens or the document
		}
	case key.Matches(m, k.Back, k.Quit):
		return s, s.leave(f)
	case key.Matches(m, k.Round):
		if n := int(m.String()[0] - '0'); n != r.round && n <= r.rounds {
			return s, loadReviewCmd(f.opts.keeper(), r.dir, n)
		}
	case key.Matches(m, k.Decide):
		if r.awaitsDecision() {
			f.next = openMenuMsg{menu: decideMenu(r.st.ID, nil)}
			return s, nil
		}
		return s, statusCmd(fmt.Sprintf("review %s is %s and waits for no human decision (only a stalled review does)", r.st.ID, reviewStatus(r.st)))
	case key.Matches(m, k.Help):
		f.next = openHelpMsg{}
	}
	return s, nil
}

// move answers the tab keys and, on the panes, the keys that move
// between lenses; it reports whether msg was one of them.
func (r *reviewView) move(f *frame, k reviewScreen, msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, k.NextTab):
		r.tab = (r.tab + 1) % len(reviewTabs)
		return true
	case key.Matches(msg, k.PrevTab):
		r.tab = (r.tab + len(reviewTabs) - 1) % len(reviewTabs)
		return true
	case r.tab != 0:
		return false
	}
	cols, _ := gridShape(len(r.panes), f.lay.bodyW, f.lay.bodyH)
	by := map[*key.Binding]int{&k.Right: 1, &k.Left: -1, &k.Down: cols, &k.Up: -cols}
	for b, d := range by {
		if key.Matches(msg, *b) {
			r.focus = max(0, min(len(r.panes)-1, r.focus+d))
			return true
		}
	}
	return false
}

// leave is q or esc on the review view: a review moot review runs
// here asks first while it runs (as a debate's q), one that ended quits,
// one opened from the list goes back to it.
func (s reviewState) leave(f *frame) tea.Cmd {
	r := s.view
	if s.runsHere() {
		f.next = askStopReviewMsg{id: r.st.ID}
		return nil
	}
	if s.alone != "" {
		return tea.Quit // moot review: the run has ended
	}
	f.next = leaveReviewMsg{relist: true}
	return nil
}

// runsHere reports whether the review on screen runs in this process
// (moot review's, or one started from the browser) and has not ended:
// leaving it asks first.
func (s reviewState) runsHere() bool {
	r := s.view
	if r == nil || s.done || !r.st.Running {
		return false
	}
	return s.alone != "" || (s.stop != nil && r.dir == s.ran)
}

// leaveReviewRun is Leave it on a review running here: moot review's
// view quits (its caller stops the run); one started from the browser is
// stopped (what it wrote is kept) and the list comes back, saying how to
// continue it.
func (m Model) leaveReviewRun() (Model, tea.Cmd) {
	if m.rv.alone != "" {
		return m, tea.Quit
	}
	id, stop, list := m.rv.view.st.ID, m.rv.stop, listReviewsCmd(m.opts.keeper(), m.opts.Register)
	m.rv.ran, m.rv.stop, m.rv.view, m.screen = "", nil, nil, scrBrowser
	m.toast.text, m.toast.until = fmt.Sprintf("left review %s: everything is kept; moot resume %s continues it", id, m.opts.resumeArgs(id)), m.clock().Add(6*time.Second)
	if stop == nil || list == nil {
		return m, list
	}
	return m, func() tea.Msg { // its row is listed once the review has stopped
		stop()
		return list()
	}
}

// viewReview lays out the review screen: a header (ID, status, round,
// elapsed, calls, cost), the tabs, the body (panes, routes or summary) and the
// footer, in the debate view's regions (layout's bodyW×bodyH).
func (s reviewState) View(f *frame, menuKeys string) string {
	r := s.view
	if r == nil {
		return f.st.Subtle.Render("reading the review…") + "\n" + f.toast.footer(f, "q back")
	}
	head := s.header(f)
	var tabs []string
	for i, t := range reviewTabs {
		if i == r.tab {
			tabs = append(tabs, f.st.TabActive.Render(t))
		} else {
			tabs = append(tabs, f.st.Tab.Render(t))
		}
	}
	var body string
	switch r.tab {
	case 0:
		body = s.renderLensPanes(f, r.panes, f.lay.bodyW, f.lay.bodyH)
	case 1:
		body = s.reviewDoc(f, r.routes, f.lay.bodyH)
	default:
		body = s.reviewDoc(f, r.sum, f.lay.bodyH)
	}
	help := footerHelp(reviewPage.footer(r)...)
	if s.alone != "" && s.done {
		help = "the review ended · " + help
	}
	if menuKeys != "" {
		help = menuKeys // the panes' keys do not work while a menu is open
	}
	return strings.Join([]string{f.st.Header.Render(head), strings.Join(tabs, "  "), body, f.toast.footer(f, help)}, "\n")
}

// header is the review's header: its ID, status, round, elapsed, calls
// and money, then its intent. As a debate's header: the intent gives way
// first, then the figures take their short forms, then the least telling
// go (elapsed, the calls in flight, the round); the calls figure is the
// one every protocol shows (callsForms: done over the plan's count, the
// running apart), and a figure is never cut.
func (s reviewState) header(f *frame) string {
	r := s.view
	st := r.st
	planned := cmp.Or(st.Planned, r.calls)
	long, short, tight, bare := callsForms(r.calls-st.InFlight, planned, st.InFlight)
	round, rd := fmt.Sprintf("round %d of %d", r.round, r.rounds), fmt.Sprintf("r%d/%d", r.round, r.rounds)
	el, money := reviewElapsed(st, f.now), reviewMoney(st)
	id := "review " + st.ID + " · " + reviewStatus(st)
	for _, figs := range [][]string{
		{round, el, long, money},
		{rd, el, short, money},
		{rd, el, tight, money},
		{rd, tight, money},
		{rd, bare, money},
		{bare, money},
	} {
		head := id + " · " + strings.Join(figs, " · ")
		room := f.w - ansi.StringWidth(head)
		if room < 0 {
			continue
		}
		if intent := termsafe.Line(st.Intent); intent != "" && room >= 8 {
			head += " · " + ansi.Truncate(intent, room-3, "…")
		}
		return head
	}
	return ansi.Truncate(id+" · "+bare+" · "+money, f.w, "…")
}

// reviewMoney is a review's money as its header says it: its cost once a
// call was made (reviewCost); before, "unknown" when its plan priced not
// every engine, as the end will say, and $0.00 when it priced them all
// ("—" with no plan logged).
func reviewMoney(st *engine.Record) string {
	switch {
	case st.Paid:
		return reviewCost(st)
	case st.Planned == 0:
		return "—"
	}
	return moneyOf(0, st.PlanUnpriced)
}

// open shows a review read from disk (a reload keeps the tab).
func (k reviewScreen) open(m Model, msg reviewLoadedMsg) Model {
	if msg.err != nil {
		m.toast.text, m.toast.until = "cannot read the review: "+msg.err.Error(), m.clock().Add(4e9)
		return m
	}
	tab, focus := 0, 0
	same := m.rv.view != nil && m.rv.view.dir == msg.data.dir
	if same {
		tab, focus = m.rv.view.tab, m.rv.view.focus
	}
	rv := &reviewView{reviewData: msg.data, tab: tab, focus: min(focus, max(0, len(msg.data.panes)-1))}
	if same {
		rv.zoomed, rv.zoomWant = m.rv.view.zoomed, m.rv.view.zoomWant
	}
	m.rv.view = rv
	m.screen = scrReview
	if m.zm.on && same {
		m.zm.refresh(&m.frame, &m.dv, &m.rv) // the zoomed lens follows the folder too
	} else {
		m.zm.on = false
	}
	return m
}
