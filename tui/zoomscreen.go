package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The zoom (zoomState) is one pane or document full screen, over a
// debate's live view or a review's: it owns its viewport, its search and
// its keys (zoomKeys), answers them with Update and draws itself with
// View, the frame handed in by the root. What it needs of the view under
// it, it asks the root for: the focused file opened or copied
// (openFocusedMsg), the decision that waits (backToDecisionMsg), the help.

// zoomKeys are the zoom's key bindings.
type zoomKeys struct {
	Up, PageUp, Top, Bottom, Search, Next, Prev key.Binding
	OpenFile, Copy, Menu, Back, Close, Help     key.Binding
}

// zoomKeyMap are the zoom's bindings, built once.
var zoomKeyMap = zoomKeys{
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

// ShortHelp is the zoom's footer.
func (k zoomKeys) ShortHelp() []key.Binding {
	return []key.Binding{labelled(k.Up, "↑/↓/pgup/pgdn/g/G", "scroll"), k.Search, k.Back}
}

// FullHelp is the zoom's help.
func (k zoomKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Top, k.Search, k.Next, k.OpenFile, k.Copy, k.Menu, k.Back, k.Help}}
}

// zoomAction is what a zoom's key does.
type zoomAction func(z *zoomState, f *frame) tea.Cmd

// table is the zoom's keys, each with its action.
func (k zoomKeys) table() []keyRoute[zoomAction] {
	ask := func(move tea.Msg) zoomAction {
		return func(_ *zoomState, f *frame) tea.Cmd { f.next = move; return nil }
	}
	return []keyRoute[zoomAction]{
		{k.Close, func(z *zoomState, _ *frame) tea.Cmd { z.on, z.find = false, find{}; return nil }},
		{k.Menu, ask(backToDecisionMsg{})},
		{k.Top, func(z *zoomState, _ *frame) tea.Cmd { z.vp.GotoTop(); z.holdZoom(true); return nil }},
		{k.Bottom, func(z *zoomState, _ *frame) tea.Cmd {
			z.vp.GotoBottom()
			z.holdZoom(false) // at the end: it follows the stream again
			return nil
		}},
		{k.Search, func(z *zoomState, f *frame) tea.Cmd { return z.openFind(f) }},
		{k.Help, ask(openHelpMsg{})},
		{k.OpenFile, ask(openFocusedMsg{})},
		{k.Copy, ask(openFocusedMsg{copy: true})},
	}
}

// Update answers a key in the zoom: a search typed, esc back from the
// search then the zoom (enter and q close it too), the scroll, the
// matches, o and y.
func (z zoomState) Update(f *frame, msg tea.Msg) (zoomState, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
		return z, nil
	case z.find.typing: // letters are the query here, never commands
		return z, z.findKey(f, k)
	case z.find.query != "" && key.Matches(k, zoomKeyMap.Back):
		z.clearFind() // one step back: the search first, then the zoom
		return z, nil
	case z.find.query != "" && key.Matches(k, zoomKeyMap.Next, zoomKeyMap.Prev):
		z.stepMatch(map[bool]int{true: 1, false: -1}[key.Matches(k, zoomKeyMap.Next)])
		return z, nil
	}
	if do, ok := matchKey(zoomKeyMap.table(), k); ok {
		return z, do(&z, f)
	}
	var c tea.Cmd
	z.vp, c = z.vp.Update(k)
	z.holdZoom(key.Matches(k, f.keys.Up, f.keys.PageUp, zoomKeyMap.Top))
	return z, c
}

// View draws the zoom under title; a decision that waits is said in its
// footer.
func (z zoomState) View(f *frame, title string, decisionWaiting bool) string {
	keys := footerHelp(zoomKeyMap.ShortHelp()...)
	if ff := z.findFooter(); ff != "" {
		keys = ff
	}
	if decisionWaiting {
		keys += decisionWaits
	}
	footer := f.toast.footer(f, keys)
	if z.find.typing {
		// the prompt is never dropped to fit: what is typed must show
		footer = f.st.StatusBar.Render(ansi.Truncate(keys, f.w, "…"))
	}
	return f.st.Title.Render(title) + "\n" + z.vp.View() + "\n" + footer
}

// title names what the zoom shows: a review's lens, a pane (its name,
// status and engine) or the tab's document.
func (z zoomState) title(f *frame, d *debateState, r *reviewState) string {
	if f.screen == scrReview {
		return r.reviewZoomTitle()
	}
	if p := d.zoomPane(f); p != nil {
		return fmt.Sprintf("%s · %s · %s", p.paneName(d.words(f)), p.status, p.engine)
	}
	return d.tabNames()[d.tab]
}
