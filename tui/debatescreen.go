package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/reversa/moot/bugfolder"
)

// debateScreen is the live view of a debate (run here, run elsewhere or
// finished): its header, tabs (problem, rounds, convergence, final) and
// panes. Its state is the root's debate view (m.deb) and the tab, focus
// and zoom it shows; a zoom is zoomScreen.
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
	z := zoomPage
	return [][]key.Binding{{k.NextTab, k.Round, k.Left, k.Zoom, k.Search, labelled(z.Back, "esc", "back from a search, then a zoom"),
		labelled(z.Top, "g/G home/end", "in a zoom: its top / its end"), k.Resume, k.Menu, k.Older, k.OpenFile, k.Edit, k.Copy, k.Mouse, k.Decide,
		k.Help, k.Back, k.Quit, k.ForceQuit}}
}

// help is the live view's help for what it shows (the argue stop while a
// running argue debate can stop).
func (k debateScreen) help(m Model) [][2]string {
	rows := slices.DeleteFunc(helpRows(k), func(r [2]string) bool { return slices.Contains(k.idleKeys(m), r[0]) })
	if m.run.canStopArgue(&m.frame) {
		rows = append(rows, [2]string{argueStopKey, k.StopArgue.Help().Desc})
	}
	if d := m.dv.deb; d != nil && (d.stopped() || d.cut) { // the header's compact form marks it
		rows = append(rows, [2]string{"r2■/3", "in a narrow header: the rounds ended at round 2 of a cap of 3 (stopped, or cut by the budget)"})
	}
	return rows
}

// idleKeys are the help's keys that do nothing on the debate shown: on a
// question, a, e (one debate, no bug.md); under a protocol whose result
// waits for no decision (argue), d.
func (k debateScreen) idleKeys(m Model) []string {
	var idle []string
	if m.subj.bug != nil && m.subj.bug.IsQuestion {
		idle = append(idle, k.Older.Help().Key, k.Edit.Help().Key)
	}
	if m.dv.deb != nil && m.dv.words(&m.frame).NoDecision {
		idle = append(idle, k.Decide.Help().Key)
	}
	return idle
}

// handleKey handles a key on the live view (a zoom answers its own).
func (k debateScreen) handleKey(m Model, msg tea.KeyPressMsg) (Model, tea.Cmd) {
	if m.dv.deb == nil {
		if key.Matches(msg, k.Quit) || key.Matches(msg, k.Back) {
			m.next = backToBrowserMsg{}
			return m, nil
		}
		return m, nil
	}
	if m.zm.on {
		return zoomPage.handleKey(m, msg)
	}
	panes := m.dv.focusedPanes()
	cols, _ := gridShape(len(panes), m.lay.bodyW, m.lay.bodyH)
	switch {
	case m.dlg.menu != nil && m.run.on && key.Matches(msg, k.Quit):
		// leaving asks first, the decision waiting under the question
		m.dlg.aside = m.dlg.menu
		cmd := m.dlg.openMenu(&m.frame, quitMenu(m.dv.deb.bugID, m.fromBrowser()))
		return m, cmd
	case m.dlg.menu != nil && (key.Matches(msg, k.Menu, k.Back)):
		m.dlg.hidden = false // back to the decision that waits
		return m, nil
	case key.Matches(msg, k.Quit), key.Matches(msg, k.Back):
		if m.run.on {
			cmd := m.dlg.openMenu(&m.frame, quitMenu(m.dv.deb.bugID, m.fromBrowser()))
			return m, cmd
		}
		m.next = backToBrowserMsg{}
		return m, nil
	case key.Matches(msg, k.Help):
		m.helpv.on = true
	case key.Matches(msg, k.Resume):
		cmd := m.dv.resumeShown(&m.frame, m.subj.bug)
		return m, cmd
	case key.Matches(msg, k.StopArgue) && m.run.canStopArgue(&m.frame):
		m.stopArgue()
		return m, nil
	case key.Matches(msg, k.Decide) && m.dv.tab == m.dv.finalTab() && !m.run.on && m.dv.deb.awaitsDecision():
		return decideDialog{}.open(m)
	case key.Matches(msg, k.OpenFile):
		return m, m.openFile(m.dv.focusedPath(&m.frame))
	case key.Matches(msg, k.Edit) && m.subj.bug != nil:
		return m, m.editBug(m.subj.bug.Dir, m.subj.bug.IsQuestion)
	case key.Matches(msg, k.Copy):
		return m, m.copyPath(m.dv.focusedPath(&m.frame))
	case key.Matches(msg, k.Older):
		return m, m.dv.older(&m.frame, m.subj.bug)
	case key.Matches(msg, k.NextTab):
		m.dv.tab = (m.dv.tab + 1) % len(m.dv.tabNames())
		m.dv.focus = 0
	case key.Matches(msg, k.PrevTab):
		m.dv.tab = (m.dv.tab + len(m.dv.tabNames()) - 1) % len(m.dv.tabNames())
		m.dv.focus = 0
	case key.Matches(msg, k.Right):
		m.dv.focus = min(len(panes)-1, m.dv.focus+1)
	case key.Matches(msg, k.Left):
		m.dv.focus = max(0, m.dv.focus-1)
	case key.Matches(msg, k.Down):
		m.dv.focus = min(len(panes)-1, m.dv.focus+cols)
	case key.Matches(msg, k.Up):
		m.dv.focus = max(0, m.dv.focus-cols)
	case key.Matches(msg, k.Zoom):
		m.zm.open(&m.frame, &m.dv, &m.rv)
	case key.Matches(msg, k.Search):
		if m.zm.open(&m.frame, &m.dv, &m.rv) { // search the focused pane or document
			return m, m.zm.openFind(&m.frame)
		}
	case key.Matches(msg, k.Round):
		if r := msg.String(); len(r) == 1 {
			if k, _ := strconv.Atoi(r); k <= m.dv.deb.lastRound() {
				m.dv.tab, m.dv.focus = k+1, 0
			}
		}
	}
	return m, nil
}

// viewDebate draws the header, the tabs, the tab's body and the footer.
func (k debateScreen) render(m Model) string {
	if m.dv.deb == nil {
		return m.st.Subtle.Render("reading the debate…") + "\n" + m.toast.footer(&m.frame, "q back")
	}
	d := m.dv.deb
	if m.zm.on {
		return zoomPage.render(m)
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
		body = m.dv.viewDoc(&m.frame, docKey{path: bugfolder.DocPath(d.dir, d.lang.Names().Problem), width: m.w - 2}, bodyH)
	case m.dv.tab == m.dv.convTab() && m.dv.argueView != nil:
		body = strings.Join(m.renderArgue(m.dv.argueView, m.w, bodyH), "\n")
	case m.dv.tab == m.dv.convTab():
		chart := m.dv.renderChart(&m.frame, m.w)
		if chart != "" {
			chart += "\n\n"
		}
		body = chart + m.dv.viewDoc(&m.frame, docKey{path: bugfolder.DocPath(d.dir, d.lang.Names().Convergence), width: m.w - 2}, bodyH-lipgloss.Height(chart))
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
		body, _ := menuWindow(m.dlg.menu.form.WithWidth(m.lay.menuFormW).View()+"\n"+m.st.Subtle.Render(fitHelp(m.dlg.menuKeys(), m.lay.menuFormW)), m.menuRows(), m.dlg.off)
		out = m.overlay(out, m.st.Box.Width(m.lay.menuBoxW).Render(body))
	}
	return out
}

// zoomScreen is one pane or document full screen (a debate's or a
// review's): scroll, search, open or copy its file, back.
type zoomScreen struct {
	Up, PageUp, Top, Bottom, Search, Next, Prev key.Binding
	OpenFile, Copy, Menu, Back, Close, Help     key.Binding
}

func newZoomScreen() zoomScreen {
	return zoomScreen{
		Up:       bind("↑/↓/pgup/pgdn", "scroll", "up", "k"),
		PageUp:   silent("pgup", "b"),
		Top:      bind("g/G", "its top / its end", "g", "home"),
		Bottom:   silent("G", "end"),
		Search:   bind("/", "search", "/"),
		Next:     bind("n/N", "next / previous match", "n"),
		Prev:     silent("N"),
		OpenFile: bind("o", "open the file in $PAGER (else $EDITOR)", "o"),
		Copy:     bind("y", "copy the file's path", "y"),
		Menu:     bind("m", "back to a decision that waits", "m"),
		Back:     bind("esc", "back", "esc"),
		Close:    silent("esc", "enter", "q"),
		Help:     bind("?", "this help", "?"),
	}
}

// ShortHelp is the zoom's footer.
func (k zoomScreen) ShortHelp() []key.Binding {
	return []key.Binding{labelled(k.Up, "↑/↓/pgup/pgdn/g/G", "scroll"), k.Search, k.Back}
}

// FullHelp is the zoom's help.
func (k zoomScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Top, k.Search, k.Next, k.OpenFile, k.Copy, k.Menu, k.Back, k.Help}}
}

// zoomKey handles a key in a zoom (a debate's pane or document, or a
// review's lens): scroll, search, o/y, and esc/enter/q back to the panes.
func (k zoomScreen) handleKey(m Model, msg tea.KeyPressMsg) (Model, tea.Cmd) {
	if m.zm.find.typing { // letters are the query here, never commands
		return m, m.zm.findKey(&m.frame, msg)
	}
	switch {
	case key.Matches(msg, k.Back) && m.zm.find.query != "":
		m.zm.clearFind() // one step back: the search first, then the zoom
		return m, nil
	case key.Matches(msg, k.Close):
		m.zm.on = false
		m.zm.find = find{}
		return m, nil
	}
	switch {
	case m.dlg.menu != nil && key.Matches(msg, k.Menu):
		// back to the decision that waits, from the zoom as from the panes
		m.zm.on, m.zm.find, m.dlg.hidden = false, find{}, false
		return m, nil
	case key.Matches(msg, k.Top):
		m.zm.vp.GotoTop()
		m.zm.holdZoom(true)
		return m, nil
	case key.Matches(msg, k.Bottom):
		m.zm.vp.GotoBottom()
		m.zm.holdZoom(false) // at the end: it follows the stream again
		return m, nil
	case key.Matches(msg, k.Search):
		return m, m.zm.openFind(&m.frame)
	case key.Matches(msg, k.Help):
		m.helpv.on = true
		return m, nil
	case m.zm.find.query != "" && key.Matches(msg, k.Next, k.Prev):
		m.zm.stepMatch(map[bool]int{true: 1, false: -1}[key.Matches(msg, k.Next)])
		return m, nil
	case key.Matches(msg, k.OpenFile):
		return m, m.openFile(m.dv.focusedPath(&m.frame))
	case key.Matches(msg, k.Copy):
		return m, m.copyPath(m.dv.focusedPath(&m.frame))
	}
	var c tea.Cmd
	m.zm.vp, c = m.zm.vp.Update(msg)
	m.zm.holdZoom(key.Matches(msg, m.keys.Up, m.keys.PageUp, k.Top))
	return m, c
}

// viewZoom draws one pane or document full screen.
func (k zoomScreen) render(m Model) string {
	title := "zoom"
	if m.screen == scrReview {
		title = m.rv.reviewZoomTitle()
	} else if p := m.dv.zoomPane(&m.frame); p != nil {
		title = fmt.Sprintf("%s · %s · %s", p.paneName(m.dv.words(&m.frame)), p.status, p.engine)
	} else {
		title = m.dv.tabNames()[m.dv.tab]
	}
	keys := footerHelp(k.ShortHelp()...)
	if f := m.zm.findFooter(); f != "" {
		keys = f
	}
	if m.dlg.menu != nil {
		keys += decisionWaits
	}
	footer := m.toast.footer(&m.frame, keys)
	if m.zm.find.typing {
		// the prompt is never dropped to fit: what is typed must show
		footer = m.st.StatusBar.Render(ansi.Truncate(keys, m.w, "…"))
	}
	return m.st.Title.Render(title) + "\n" + m.zm.vp.View() + "\n" + footer
}
