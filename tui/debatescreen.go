package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// debateScreen is the live view of a debate (run here, run elsewhere or
// finished): its header, tabs (problem, rounds, convergence, final) and
// panes. Its state is the root's debate view (m.deb) and the tab, focus
// and zoom it shows; a zoom is zoomState (zoomscreen.go).
type debateScreen struct {
	NextTab, PrevTab, Round       key.Binding
	Left, Right, Up, Down         key.Binding
	Zoom, Search, Resume, Menu    key.Binding
	Older, OpenFile, Copy, Decide key.Binding
	Edit                          key.Binding
	StopArgue, Mouse, Help        key.Binding
	Back, Quit, ForceQuit         key.Binding
}

func newDebateScreen() debateScreen {
	return debateScreen{
		NextTab:   bind("tab / shift+tab", "next / previous tab", "tab", "]"),
		PrevTab:   silent("shift+tab", "["),
		Round:     bind("0–9", "round tab", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
		Left:      bind("←/→/↑/↓", "move between panes", "left", "h"),
		Right:     silent("right", "l"),
		Up:        silent("up", "k"),
		Down:      silent("down", "j"),
		Zoom:      bind("enter", "zoom the pane or document", "enter"),
		Search:    bind("/", "search in a zoom; n/N next/previous match", "/"),
		Resume:    bind("r", "resume an unfinished debate (a pending menu opens again)", "r"),
		Menu:      bind("m", "back to a decision that waits (esc steps its menu aside)", "m"),
		Older:     bind("a", "the bug's earlier debate (archived ones too)", "a"),
		OpenFile:  bind("o", "open the focused file in $PAGER (else $EDITOR)", "o"),
		Edit:      bind("e", "edit the bug's bug.md in $VISUAL (else $EDITOR)", "e"),
		Copy:      bind("y", "copy the focused file's path", "y"),
		Mouse:     said("mouse", "wheel scrolls a zoom, click focuses a pane"),
		Decide:    bind("d", "on the Final tab: record the human decision (approve, decline, revise + note)", "d"),
		StopArgue: bind(argueStopKey, "stop after the round in flight and synthesize it (argue)", argueStopKey),
		Help:      bind("?", "this help", "?"),
		Back:      bind("esc", "back to the browser (when opened from it)", "esc"),
		Quit:      bind("q", "leave (asks first while a debate runs)", "q"),
		ForceQuit: bind("ctrl+c", "leave now, resumable", "ctrl+c"),
	}
}

// ShortHelp is the live view's footer, every key it names.
func (k debateScreen) ShortHelp() []key.Binding {
	return []key.Binding{labelled(k.NextTab, "tab", "next tab"), labelled(k.Left, "←/h", "left"), labelled(k.Right, "→/l", "right"),
		labelled(k.Zoom, "enter", "open"), labelled(k.Help, "?", "keys"), labelled(k.Quit, "q", "quit")}
}

// footer is the live view's footer for what it shows: no pane moves on
// one pane or a document; a running argue debate's stop always in sight.
func (k debateScreen) footer(m Model) []key.Binding {
	bs := k.ShortHelp()
	if len(m.dv.focusedPanes()) < 2 { // one pane or a document: nothing to move between
		bs = []key.Binding{bs[0], bs[3], bs[4], bs[5]}
	}
	if m.run.canStopArgue(&m.frame) && !m.dv.deb.stopAsked(m) {
		bs = append([]key.Binding{labelled(k.StopArgue, argueStopKey, "stop & synthesize")}, bs...)
	}
	return bs
}

// FullHelp is the live view's help; the argue stop only while it can.
func (k debateScreen) FullHelp() [][]key.Binding {
	z := zoomKeyMap
	return [][]key.Binding{{k.NextTab, k.Round, k.Left, k.Zoom, k.Search, labelled(z.Back, "esc", "back from a search, then a zoom"),
		labelled(z.Top, "g/G home/end", "in a zoom: its top / its end"), k.Resume, k.Menu, k.Older, k.OpenFile, k.Edit, k.Copy, k.Mouse, k.Decide,
		k.Help, k.Back, k.Quit, k.ForceQuit}}
}

// help is the live view's help for what it shows (the argue stop while a
// running argue debate can stop).
func (k debateScreen) help(m Model) [][2]string {
	rows := helpRows(k)
	if m.run.canStopArgue(&m.frame) {
		rows = append(rows, [2]string{argueStopKey, k.StopArgue.Help().Desc})
	}
	if d := m.dv.deb; d != nil && (d.stopped() || d.cut) { // the header's compact form marks it
		rows = append(rows, [2]string{"r2■/3", "in a narrow header: the rounds ended at round 2 of a cap of 3 (stopped, or cut by the budget)"})
	}
	return rows
}

// debateAction is what a live view's key does.
type debateAction func(m *Model, msg tea.KeyPressMsg) tea.Cmd

// table is the live view's keys, each with its action; a key whose action
// answers no is passed on to the rows below it (m with a decision
// waiting, q with a run on).
func (k debateScreen) table() []keyRoute[debateAction] {
	focus := func(by func(m *Model, panes, cols int) int) debateAction {
		return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
			panes := len(m.dv.focusedPanes())
			cols, _ := gridShape(panes, m.lay.bodyW, m.lay.bodyH)
			m.dv.focus = max(0, min(panes-1, by(m, panes, cols)))
			return nil
		}
	}
	tab := func(by int) debateAction {
		return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
			n := len(m.dv.tabNames())
			m.dv.tab, m.dv.focus = (m.dv.tab+n+by)%n, 0
			return nil
		}
	}
	return []keyRoute[debateAction]{
		{k.Quit, k.quit},
		{k.Back, k.quit},
		{k.Menu, k.backToMenu},
		{k.Help, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.helpv.on = true; return nil }},
		{k.Resume, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.dv.resumeShown(&m.frame, m.subj.bug) }},
		{k.StopArgue, func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
			if m.run.canStopArgue(&m.frame) {
				m.stopArgue()
			}
			return nil
		}},
		{k.Decide, k.decide},
		{k.OpenFile, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.openFile(m.dv.focusedPath(&m.frame)) }},
		{k.Edit, func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
			if m.subj.bug == nil {
				return nil
			}
			return m.editBug(m.subj.bug.Dir, m.subj.bug.IsQuestion)
		}},
		{k.Copy, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.copyPath(m.dv.focusedPath(&m.frame)) }},
		{k.Older, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.dv.older(&m.frame, m.subj.bug) }},
		{k.NextTab, tab(1)},
		{k.PrevTab, tab(-1)},
		{k.Right, focus(func(m *Model, _, _ int) int { return m.dv.focus + 1 })},
		{k.Left, focus(func(m *Model, _, _ int) int { return m.dv.focus - 1 })},
		{k.Down, focus(func(m *Model, _, cols int) int { return m.dv.focus + cols })},
		{k.Up, focus(func(m *Model, _, cols int) int { return m.dv.focus - cols })},
		{k.Zoom, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { m.zm.open(&m.frame, &m.dv, &m.rv); return nil }},
		{k.Search, func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
			if m.zm.open(&m.frame, &m.dv, &m.rv) { // search the focused pane or document
				return m.zm.openFind(&m.frame)
			}
			return nil
		}},
		{k.Round, func(m *Model, msg tea.KeyPressMsg) tea.Cmd {
			if r, err := strconv.Atoi(msg.String()); err == nil && r <= m.dv.deb.lastRound() {
				m.dv.tab, m.dv.focus = r+1, 0
			}
			return nil
		}},
	}
}

// handleKey handles a key on the live view (a zoom answers its own).
func (k debateScreen) handleKey(m Model, msg tea.KeyPressMsg) (Model, tea.Cmd) {
	switch {
	case m.dv.deb == nil:
		if key.Matches(msg, k.Quit) || key.Matches(msg, k.Back) {
			m.next = backToBrowserMsg{}
		}
		return m, nil
	case m.zm.on:
		var cmd tea.Cmd
		m.zm, cmd = m.zm.Update(&m.frame, msg)
		return m, cmd
	}
	if do, ok := matchKey(k.table(), msg); ok {
		cmd := do(&m, msg)
		return m, cmd
	}
	return m, nil
}

// quit is q or esc: with a run on, the quit question (over a
// decision that waits, which stays under it; esc goes back to that
// decision); else back to the list.
func (k debateScreen) quit(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.dlg.menu != nil && m.run.on && key.Matches(msg, k.Quit):
		// leaving asks first, the decision waiting under the question
		m.dlg.aside = m.dlg.menu
		return m.dlg.openMenu(&m.frame, quitMenu(m.dv.deb.bugID, m.fromBrowser()))
	case m.dlg.menu != nil && key.Matches(msg, k.Back):
		return k.backToMenu(m, msg)
	case m.run.on:
		return m.dlg.openMenu(&m.frame, quitMenu(m.dv.deb.bugID, m.fromBrowser()))
	}
	m.next = backToBrowserMsg{}
	return nil
}

// backToMenu is m: back to the decision that waits.
func (debateScreen) backToMenu(m *Model, _ tea.KeyPressMsg) tea.Cmd {
	if m.dlg.menu != nil {
		m.dlg.hidden = false
	}
	return nil
}

// decide is d on the Final tab of a finished debate that waits for
// a human decision: the decision form.
func (debateScreen) decide(m *Model, _ tea.KeyPressMsg) tea.Cmd {
	if m.dv.tab != m.dv.finalTab() || m.run.on || !m.dv.deb.awaitsDecision() {
		return nil
	}
	nm, cmd := decideDialog{}.open(*m)
	*m = nm
	return cmd
}

// viewDebate draws the header, the tabs, the tab's body and the footer.
func (k debateScreen) render(m Model) string {
	if m.dv.deb == nil {
		return m.st.Subtle.Render("reading the debate…") + "\n" + m.toast.footer(&m.frame, "q back")
	}
	d := m.dv.deb
	if m.zm.on {
		return m.zm.View(&m.frame, m.zm.title(&m.frame, &m.dv, &m.rv), m.dlg.menu != nil)
	}
	head := m.dv.debateHeader(&m.frame)
	tabs := m.dv.renderTabs(&m.frame, m.dv.tabNames())
	if ansi.StringWidth(strings.Join(tabs, "  ")) > m.w {
		tabs = m.dv.renderTabs(&m.frame, shortTabNames(m.dv.tabNames())) // many rounds: every tab stays in sight
	}
	bodyH := m.lay.bodyH
	var body string
	switch {
	case m.dv.tab == 0:
		body = m.dv.viewDoc(&m.frame, docKey{path: d.problemDoc(), width: m.w - 2}, bodyH)
	case m.dv.tab == m.dv.convTab() && m.dv.argueView != nil:
		body = strings.Join(m.renderArgue(m.dv.argueView, m.w, bodyH), "\n")
	case m.dv.tab == m.dv.convTab():
		chart := m.dv.renderChart(&m.frame, m.w)
		if chart != "" {
			chart += "\n\n"
		}
		body = chart + m.dv.viewDoc(&m.frame, docKey{path: d.convDoc(), width: m.w - 2}, bodyH-lipgloss.Height(chart))
	case m.dv.tab == m.dv.finalTab():
		body = m.dv.viewFinal(&m.frame, m.subj.bug, m.dlg.menu != nil, bodyH)
	default:
		body = m.dv.renderPanes(&m.frame, m.dv.focusedPanes(), m.w, bodyH)
	}
	body = padLines(body, bodyH)
	help := footerHelp(k.footer(m)...)
	if d.reason != "" && !m.run.on && d.state != "done" {
		help = d.reason
	}
	if note := m.dv.stateNote(&m.frame, m.subj.bug); note != "" {
		help = note
	}
	tabLine := strings.Join(tabs, "  ")
	if d.of > 1 {
		tabLine += m.st.Subtle.Render(fmt.Sprintf("   debate %d of %d · a older", d.nth, d.of))
	}
	if m.dlg.menu != nil && m.dlg.hidden {
		return head + "\n" + ansi.Truncate(tabLine, m.w, "…") + "\n" + body + "\n" +
			m.st.Warning.Render(ansi.Truncate(fitHelp("a decision waits: m opens the menu · tab tabs · ←/→ panes · enter zoom · ? keys · q quit", m.w), m.w, "…"))
	}
	if m.dlg.menu != nil && !m.dlg.hidden {
		help = m.dlg.menuKeys() // the panes' keys do not work while it is open
	}
	out := head + "\n" + ansi.Truncate(tabLine, m.w, "…") + "\n" + body + "\n" + m.toast.footer(&m.frame, help)
	if m.dlg.menu != nil && !m.dlg.hidden {
		out = m.dlg.over(&m.frame, out)
	}
	return out
}
