package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Every screen and dialog owns its key bindings (browserKeys, wizardKeys,
// costKeys, debateKeys, zoomKeys, reviewKeys, menuKeys); its footer is
// its ShortHelp and its help overlay (?) its FullHelp, both generated
// from the bindings. keyMap holds what the root itself answers (ctrl+c,
// the help overlay's scroll) and the moves a form or a viewport shares.

// keyMap is the root's bindings: ctrl+c on every screen, and the moves
// the root's own overlays (the help, a menu's scroll) answer.
type keyMap struct {
	Up, Down, Left, Right key.Binding
	PageUp, PageDown      key.Binding
	Top, Bottom           key.Binding
	Enter, Back           key.Binding
	Filter, Help, Quit    key.Binding
	ForceQuit             key.Binding
}

// bind is a binding answering keys, shown as helpKey and desc.
func bind(helpKey, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
}

// silent is a binding answering keys that another binding's help line
// names (↓ is said by ↑'s "↑/↓ move").
func silent(keys ...string) key.Binding { return key.NewBinding(key.WithKeys(keys...)) }

// said is a help line for what is no key (the mouse, a mark, a field's
// typing): it is shown, and answers no key press (saidKey is no key's
// name).
func said(what, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(saidKey), key.WithHelp(what, desc))
}

// saidKey is what a said binding "answers": no key press is named so.
const saidKey = "\x00"

// labelled is b shown with a shorter label (a footer's).
func labelled(b key.Binding, helpKey, desc string) key.Binding {
	b.SetHelp(helpKey, desc)
	return b
}

func newKeyMap() keyMap {
	return keyMap{
		Up:        bind("↑/k", "up", "up", "k"),
		Down:      bind("↓/j", "down", "down", "j"),
		Left:      bind("←/h", "left", "left", "h"),
		Right:     bind("→/l", "right", "right", "l"),
		PageUp:    bind("pgup", "page up", "pgup", "b"),
		PageDown:  bind("pgdn", "page down", "pgdown", "f", "space"),
		Top:       bind("g/home", "first", "g", "home"),
		Bottom:    bind("G/end", "last", "G", "end"),
		Enter:     bind("enter", "open", "enter"),
		Back:      bind("esc", "back", "esc"),
		Filter:    bind("/", "filter", "/"),
		Help:      bind("?", "keys", "?"),
		Quit:      bind("q", "quit", "q"),
		ForceQuit: bind("ctrl+c", "leave now", "ctrl+c"),
	}
}

// footerHelp draws a footer's key line from bindings (bubbles/help's
// short view, unstyled: the status bar styles it), " · " between them.
func footerHelp(bs ...key.Binding) string {
	h := help.New()
	h.ShortSeparator = " · "
	h.Styles = help.Styles{}
	return h.ShortHelpView(bs)
}

// helpRows are the help overlay's rows from a keymap's FullHelp: a
// binding's key and description, a blank row between groups; a binding
// without help (said by another) is left out.
func helpRows(km help.KeyMap) [][2]string {
	var rows [][2]string
	for i, group := range km.FullHelp() {
		if i > 0 {
			rows = append(rows, [2]string{"", ""})
		}
		for _, b := range group {
			if h := b.Help(); h.Key != "" && b.Enabled() {
				rows = append(rows, [2]string{h.Key, h.Desc})
			}
		}
	}
	return rows
}

// keyRoute is one row of a screen's key table: a binding and what it
// does (a screen's action type).
type keyRoute[A any] struct {
	on key.Binding
	do A
}

// matchKey is the action of the first row of table whose binding matches
// msg.
func matchKey[A any](table []keyRoute[A], msg tea.KeyPressMsg) (A, bool) {
	for _, r := range table {
		if key.Matches(msg, r.on) {
			return r.do, true
		}
	}
	var none A
	return none, false
}
