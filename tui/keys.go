package tui

import "charm.land/bubbles/v2/key"

// keyMap is every key binding of the UI; it also feeds the help view.
type keyMap struct {
	Up, Down, Left, Right key.Binding
	PageUp, PageDown      key.Binding
	Top, Bottom, Sort     key.Binding
	Enter, Back           key.Binding
	Filter, New, Resume   key.Binding
	NextTab, PrevTab      key.Binding
	Help, Quit, ForceQuit key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "left")),
		Right:     key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "right")),
		PageUp:    key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDown:  key.NewBinding(key.WithKeys("pgdown", "f", "space"), key.WithHelp("pgdn", "page down")),
		Top:       key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "first")),
		Bottom:    key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "last")),
		Sort:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		Enter:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		New:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new debate")),
		Resume:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "resume")),
		NextTab:   key.NewBinding(key.WithKeys("tab", "]"), key.WithHelp("tab", "next tab")),
		PrevTab:   key.NewBinding(key.WithKeys("shift+tab", "["), key.WithHelp("shift+tab", "previous tab")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "keys")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "leave now")),
	}
}

// helpLine is a one-line key summary for a screen.
func helpLine(bs ...key.Binding) string {
	out := ""
	for i, b := range bs {
		if i > 0 {
			out += " · "
		}
		h := b.Help()
		out += h.Key + " " + h.Desc
	}
	return out
}
