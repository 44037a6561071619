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
)

// debateScreen is the live view of a debate (run here, run elsewhere or
// finished): its header, tabs (problem, rounds, convergence, final) and
// panes. These are its bindings; its state is debateState (the debate
// view, the tab and the focus), with Update and View; a zoom over it is
// zoomState (zoomscreen.go), routed by the root.
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
func (k debateScreen) footer(f *frame, d *debateState) []key.Binding {
	bs := k.ShortHelp()
	if len(d.focusedPanes()) < 2 { // one pane or a document: nothing to move between
		bs = []key.Binding{bs[0], bs[3], bs[4], bs[5]}
	}
	if f.run.canStopArgue(f) && !f.run.stopAsked() {
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
func (k debateScreen) help(f *frame, d *debateState) [][2]string {
	rows := slices.DeleteFunc(helpRows(k), func(r [2]string) bool { return slices.Contains(k.idleKeys(f, d), r[0]) })
	if f.run.canStopArgue(f) { // first, as in the footer: at 80×24 it is in sight unscrolled
		rows = append([][2]string{{argueStopKey, k.StopArgue.Help().Desc}}, rows...)
	}
	if d := d.deb; d != nil && (d.stopped() || d.cut) { // the header's compact form marks it
		rows = append(rows, [2]string{"r2■/3", "in a narrow header: the rounds ended at round 2 of a cap of 3 (stopped, or cut by the budget)"})
	}
	return rows
}

// debateAction is what a live view's key does.
type debateAction func(d *debateState, f *frame, msg tea.KeyPressMsg) tea.Cmd

// table is the live view's keys, each with its action; q and esc ask the
// root (quitDebateMsg), which knows the menus over the view.
func (k debateScreen) table() []keyRoute[debateAction] {
	focus := func(by func(d *debateState, cols int) int) debateAction {
		return func(d *debateState, f *frame, _ tea.KeyPressMsg) tea.Cmd {
			panes := len(d.focusedPanes())
			cols, _ := gridShape(panes, f.lay.bodyW, f.lay.bodyH)
			d.focus = max(0, min(panes-1, by(d, cols)))
			return nil
		}
	}
	tab := func(by int) debateAction {
		return func(d *debateState, _ *frame, _ tea.KeyPressMsg) tea.Cmd {
			n := len(d.tabNames())
			d.tab, d.focus = (d.tab+n+by)%n, 0
			return nil
		}
	}
	to := func(t tea.Msg) debateAction {
		return func(_ *debateState, f *frame, _ tea.KeyPressMsg) tea.Cmd { f.next = t; return nil }
	}
	zoom := func(find bool) debateAction {
		return func(d *debateState, f *frame, _ tea.KeyPressMsg) tea.Cmd {
			if d.zoomable(f) { // the focused pane or document
				f.next = openZoomMsg{find: find}
			}
			return nil
		}
	}
	return []keyRoute[debateAction]{
		{k.Quit, to(quitDebateMsg{})},
		{k.Back, to(quitDebateMsg{esc: true})},
		{k.Menu, to(backToDecisionMsg{})},
		{k.Help, to(openHelpMsg{})},
		{k.Resume, func(d *debateState, f *frame, _ tea.KeyPressMsg) tea.Cmd { return d.resumeShown(f, f.subj.bug) }},
		{k.StopArgue, func(_ *debateState, f *frame, _ tea.KeyPressMsg) tea.Cmd {
			if f.run.canStopArgue(f) {
				f.stopArgue()
			}
			return nil
		}},
		{k.Decide, k.decide},
		{k.OpenFile, func(d *debateState, f *frame, _ tea.KeyPressMsg) tea.Cmd { return f.openFile(d.focusedPath(f)) }},
		{k.Edit, func(_ *debateState, f *frame, _ tea.KeyPressMsg) tea.Cmd {
			if f.subj.bug == nil {
				return nil
			}
			return f.editBug(f.subj.bug.Dir, f.subj.bug.IsQuestion)
		}},
		{k.Copy, func(d *debateState, f *frame, _ tea.KeyPressMsg) tea.Cmd { return f.copyPath(d.focusedPath(f)) }},
		{k.Older, func(d *debateState, f *frame, _ tea.KeyPressMsg) tea.Cmd { return d.older(f, f.subj.bug) }},
		{k.NextTab, tab(1)},
		{k.PrevTab, tab(-1)},
		{k.Right, focus(func(d *debateState, _ int) int { return d.focus + 1 })},
		{k.Left, focus(func(d *debateState, _ int) int { return d.focus - 1 })},
		{k.Down, focus(func(d *debateState, cols int) int { return d.focus + cols })},
		{k.Up, focus(func(d *debateState, cols int) int { return d.focus - cols })},
		{k.Zoom, zoom(false)},
		{k.Search, zoom(true)},
		{k.Round, func(d *debateState, _ *frame, msg tea.KeyPressMsg) tea.Cmd {
			if r, err := strconv.Atoi(msg.String()); err == nil && r <= d.deb.lastRound() {
				d.tab, d.focus = r+1, 0
			}
			return nil
		}},
	}
}

// idleKeys are the help's keys that do nothing on the debate shown: on a
// question, a, e (one debate, no bug.md); under a protocol whose result
// waits for no decision (argue), d.
func (k debateScreen) idleKeys(f *frame, d *debateState) []string {
	var idle []string
	if f.subj.bug != nil && f.subj.bug.IsQuestion {
		idle = append(idle, k.Older.Help().Key, k.Edit.Help().Key)
	}
	if d.deb != nil && d.words(f).NoDecision {
		idle = append(idle, k.Decide.Help().Key)
	}
	return idle
}

// Update answers a key on the live view (a zoom over it answers its own,
// routed by the root).
func (d debateState) Update(f *frame, msg tea.Msg) (debateState, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	if d.deb == nil {
		if key.Matches(k, debatePage.Quit) || key.Matches(k, debatePage.Back) {
			f.next = backToBrowserMsg{}
		}
		return d, nil
	}
	if do, ok := matchKey(debatePage.table(), k); ok {
		return d, do(&d, f, k)
	}
	return d, nil
}

// decide is d on the Final tab of a finished debate that waits for
// a human decision: the decision form.
func (debateScreen) decide(d *debateState, f *frame, _ tea.KeyPressMsg) tea.Cmd {
	if d.tab == d.finalTab() && !f.run.on && d.deb.awaitsDecision() {
		f.next = openMenuMsg{decideMenu(d.deb.bugID, d.deb)}
	}
	return nil
}

// menuOver is what the live view is told of a menu over it: whether one
// is open, whether it stepped aside, and its keys.
type menuOver struct {
	open, hidden bool
	keys         string
}

// View draws the header, the tabs, the tab's body and the footer (the
// root draws a zoom instead, and the menu over it).
func (d debateState) View(f *frame, over menuOver) string {
	if d.deb == nil {
		return f.st.Subtle.Render("reading the debate…") + "\n" + f.toast.footer(f, "q back")
	}
	deb := d.deb
	head := d.debateHeader(f)
	tabs := d.renderTabs(f, d.tabNames())
	if ansi.StringWidth(strings.Join(tabs, "  ")) > f.w {
		tabs = d.renderTabs(f, shortTabNames(d.tabNames())) // many rounds: every tab stays in sight
	}
	bodyH := f.lay.bodyH
	var body string
	switch {
	case d.tab == 0:
		body = d.viewDoc(f, docKey{path: deb.problemDoc(), width: f.w - 2}, bodyH)
	case d.tab == d.convTab() && d.argueView != nil:
		body = strings.Join(f.renderArgue(d.argueView, f.w, bodyH), "\n")
	case d.tab == d.convTab():
		chart := d.renderChart(f, f.w)
		if chart != "" {
			chart += "\n\n"
		}
		body = chart + d.viewDoc(f, docKey{path: deb.convDoc(), width: f.w - 2}, bodyH-lipgloss.Height(chart))
	case d.tab == d.finalTab():
		body = d.viewFinal(f, f.subj.bug, over.open, bodyH)
	default:
		body = d.renderPanes(f, d.focusedPanes(), f.w, bodyH)
	}
	body = padLines(body, bodyH)
	help := footerHelp(debatePage.footer(f, &d)...)
	if deb.reason != "" && !f.run.on && deb.state != "done" {
		help = deb.reason
	}
	if note := d.stateNote(f, f.subj.bug); note != "" {
		help = note
	}
	tabLine := strings.Join(tabs, "  ")
	if deb.of > 1 {
		tabLine += f.st.Subtle.Render(fmt.Sprintf("   debate %d of %d · a older", deb.nth, deb.of))
	}
	if over.open && over.hidden {
		return head + "\n" + ansi.Truncate(tabLine, f.w, "…") + "\n" + body + "\n" +
			f.st.Warning.Render(ansi.Truncate(fitHelp("a decision waits: m opens the menu · tab tabs · ←/→ panes · enter zoom · ? keys · q quit", f.w), f.w, "…"))
	}
	if over.open {
		help = over.keys // the panes' keys do not work while it is open
	}
	return head + "\n" + ansi.Truncate(tabLine, f.w, "…") + "\n" + body + "\n" + f.toast.footer(f, help)
}
