package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/internal/termsafe"
)

// reviewScreen is the review view: one pane per lens of a round, the
// route table and the summary (reviewView holds what it shows).
type reviewScreen struct {
	NextTab, PrevTab, Up, Down, Zoom key.Binding
	Earlier, Later, Decide, Help     key.Binding
	Back, ForceQuit                  key.Binding
}

func newReviewScreen() reviewScreen {
	return reviewScreen{
		NextTab:   bind("tab / ←→", "panes · route table · summary", "tab", "right", "l"),
		PrevTab:   silent("shift+tab", "left", "h"),
		Down:      bind("↑/↓ j/k", "move between lenses", "down", "j"),
		Up:        silent("up", "k"),
		Zoom:      bind("enter", "zoom the lens or document whole (esc back to the panes)", "enter"),
		Earlier:   bind("[ / ]", "an earlier / a later round", "["),
		Later:     silent("]"),
		Decide:    bind("d", "on a stalled review: record the human decision (approve, decline, revise + note)", "d"),
		Help:      bind("?", "this help", "?"),
		Back:      bind("esc / q", "back to the list", "esc", "q"),
		ForceQuit: bind("ctrl+c", "quit", "ctrl+c"),
	}
}

// ShortHelp is the review view's footer.
func (k reviewScreen) ShortHelp() []key.Binding {
	return []key.Binding{labelled(k.Down, "↑↓", "lens"), labelled(k.Zoom, "enter", "zoom"), labelled(k.NextTab, "tab/←→", "panes·routes·summary"),
		labelled(k.Earlier, "[ ]", "earlier/later round"), labelled(k.Back, "esc", "back"), labelled(k.Help, "?", "keys"), labelled(k.Back, "q", "back")}
}

// FullHelp is the review view's help: its keys, what a lens's status
// says, and how to leave.
func (k reviewScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.NextTab, k.Down, k.Zoom, k.Earlier, k.Decide},
		{said("waiting", "the lens's juror is not called yet"), said("running", "its juror is being called"),
			said("pass/refuse/hold", "its verdict (a hold: no answer, or no rung left)"),
			said("pass (dry)", "a pass with no finding and nothing named as checked: low information"),
			said("UNVERIFIED", "a local pass no external juror of another family verified: a hold"), said("rejected", "a rung that did not sit, and why")},
		{k.Help, k.Back, k.ForceQuit},
	}
}

// reviewKey handles a key on the review view: tab/←→ change the tab, [ ]
// an earlier or later round, esc/q back to the list.
func (k reviewScreen) handleKey(m Model, msg tea.KeyPressMsg) (Model, tea.Cmd) {
	r := m.rv.view
	if r == nil { // not read yet: only leaving works
		if key.Matches(msg, k.Back) && m.rv.alone != "" {
			return m, tea.Quit
		}
		if key.Matches(msg, k.Back) {
			m.screen = scrBrowser
		}
		return m, nil
	}
	if m.zm.on {
		return zoomPage.handleKey(m, msg) // esc comes back here, to the panes
	}
	switch {
	case key.Matches(msg, k.Zoom):
		if r.tab == 0 && len(r.panes) == 0 {
			return m, nil
		}
		m.startZoom()
	case key.Matches(msg, k.Down):
		r.focus = min(len(r.panes)-1, r.focus+1)
	case key.Matches(msg, k.Up):
		r.focus = max(0, r.focus-1)
	case key.Matches(msg, k.Back):
		if m.rv.alone != "" && !m.rv.done && r.st.Running {
			m.dlg.ask = newStopReviewAsk(r.st.ID) // as a debate's q: ask before stopping it
			return m, nil
		}
		if m.rv.alone != "" {
			return m, tea.Quit // moot review: the run has ended
		}
		m.rv.view, m.screen = nil, scrBrowser
		return m, listReviewsCmd(m.opts.keeper(), m.opts.Register)
	case key.Matches(msg, k.NextTab):
		r.tab = (r.tab + 1) % len(reviewTabs)
	case key.Matches(msg, k.PrevTab):
		r.tab = (r.tab + len(reviewTabs) - 1) % len(reviewTabs)
	case key.Matches(msg, k.Earlier):
		if r.round > 1 {
			return m, loadReviewCmd(m.opts.keeper(), r.dir, r.round-1)
		}
	case key.Matches(msg, k.Later):
		if r.round < r.rounds {
			return m, loadReviewCmd(m.opts.keeper(), r.dir, r.round+1)
		}
	case key.Matches(msg, k.Decide):
		if r.awaitsDecision() {
			return m, m.dlg.openMenu(&m.frame, decideMenu(r.st.ID))
		}
		return m, statusCmd(fmt.Sprintf("review %s is %s and waits for no human decision (only a stalled review does)", r.st.ID, reviewStatus(r.st)))
	case key.Matches(msg, k.Help):
		m.helpv.on = true
	}
	return m, nil
}

// viewReview lays out the review screen: a header (ID, status, round,
// calls, cost), the tabs, the body (panes, routes or summary) and the
// footer, in the debate view's regions (layout's bodyW×bodyH).
func (k reviewScreen) render(m Model) string {
	r := m.rv.view
	if r == nil {
		return m.st.Subtle.Render("reading the review…") + "\n" + m.toast.footer(&m.frame, "q back")
	}
	if m.zm.on {
		return zoomPage.render(m)
	}
	s := r.st
	head := fmt.Sprintf("review %s · %s · round %d of %d · %d %s · %s", s.ID, reviewStatus(s), r.round, r.rounds,
		r.calls, plural(r.calls, "call", "calls"), reviewCost(s))
	if s.Intent != "" {
		head += " · " + termsafe.Line(s.Intent)
	}
	var tabs []string
	for i, t := range reviewTabs {
		if i == r.tab {
			tabs = append(tabs, m.st.TabActive.Render(t))
		} else {
			tabs = append(tabs, m.st.Tab.Render(t))
		}
	}
	var body string
	switch r.tab {
	case 0:
		body = m.rv.renderLensPanes(&m.frame, r.panes, m.lay.bodyW, m.lay.bodyH)
	case 1:
		body = m.rv.reviewDoc(&m.frame, r.routes, m.lay.bodyH)
	default:
		body = m.rv.reviewDoc(&m.frame, r.sum, m.lay.bodyH)
	}
	help := footerHelp(k.ShortHelp()...)
	switch {
	case m.rv.alone != "" && m.rv.done:
		help = "the review ended · enter zoom · tab/←→ panes·routes·summary · [ ] rounds · q leave"
	case m.rv.alone != "":
		help = "enter zoom · tab/←→ panes·routes·summary · [ ] rounds · q stop the review (asks first)"
	}
	if r.awaitsDecision() {
		help = "d decide (stalled: a human decision waits) · " + help
	}
	if m.dlg.menu != nil {
		help = m.dlg.menuKeys()
	}
	out := strings.Join([]string{m.st.Header.Render(ansi.Truncate(head, m.w, "…")), strings.Join(tabs, "  "), body, m.toast.footer(&m.frame, help)}, "\n")
	if m.dlg.menu != nil {
		box, _ := menuWindow(m.dlg.menu.form.WithWidth(m.lay.menuFormW).View()+"\n"+m.st.Subtle.Render(fitHelp(m.dlg.menuKeys(), m.lay.menuFormW)), m.menuRows(), m.dlg.off)
		out = m.overlay(out, m.st.Box.Width(m.lay.menuBoxW).Render(box))
	}
	return out
}
