package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// huh moves its focus to the next field through a message of its own (a
// field answers enter with huh.NextField, and the last field of a page
// with a second message that completes the page): keys typed or pasted
// before that message is handled would land in the field just left. The
// wizard holds them while a move is under way and hands them, in order,
// to the field that takes the focus (or to the screen that follows the
// wizard's last page).

// typeAhead is what the wizard holds while its form moves.
type typeAhead struct {
	// moving is set from the key that asked the form to move until the
	// focus has moved (or the move was refused); turn counts the moves, so
	// a late safety release of an earlier one is ignored.
	moving bool
	turn   int
	keys   []tea.Msg
}

// releaseMsg lets go of the keys held for a move that never came (a
// field that asked nothing after all).
type releaseMsg struct{ turn int }

// releaseAfter is how long a move may take at most before the keys held
// for it are let go: huh's moves are messages handled within moments.
const releaseAfter = time.Second

// typed reports whether msg is text or a key the engineer typed.
func typed(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		return true
	}
	return false
}

// asksMove reports whether a key fed to the form asks it to move its focus
// (enter and tab forward, shift+tab back; the back keys arrive here as
// shift+tab).
func asksMove(msg tea.Msg) bool {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false
	}
	switch k.String() {
	case "enter", "tab", "shift+tab":
		return true
	}
	return false
}

// isMove reports whether msg is huh's own move of the focus.
func isMove(msg tea.Msg) bool { return msg == huh.NextField() || msg == huh.PrevField() }

// follow updates the hold after msg was fed to the form (before it:
// form and field): a move asked and accepted (no refusal on the field)
// starts a hold, the focus on another field (or another page) ends it, and
// so does a page's end the page's refusals will stop. It returns the safety
// release of a hold begun.
func (w *wizard) follow(msg tea.Msg, form *huh.Form, field huh.Field) tea.Cmd {
	now := w.form.GetFocusedField()
	switch {
	case w.form != form || w.form.State != huh.StateNormal || now != field:
		w.ahead.moving = false
	case asksMove(msg) && now.Error() == nil:
		w.ahead.moving = true
		w.ahead.turn++
		turn := w.ahead.turn
		return tea.Tick(releaseAfter, func(time.Time) tea.Msg { return releaseMsg{turn: turn} })
	case isMove(msg) && len(w.form.Errors()) > 0:
		w.ahead.moving = false // the page is not left while a field refuses
	}
	return nil
}

// replay hands the held keys to the wizard once the focus has moved, in
// order; once the wizard has handed over to another screen, the rest go
// to the root as messages, for that screen.
func (w *wizard) replay(f *frame) tea.Cmd {
	var cmds []tea.Cmd
	for len(w.ahead.keys) > 0 && !w.ahead.moving && f.next == nil {
		k := w.ahead.keys[0]
		w.ahead.keys = w.ahead.keys[1:]
		_, c := w.Update(f, k)
		cmds = append(cmds, c)
	}
	if f.next != nil && len(w.ahead.keys) > 0 {
		var rest []tea.Cmd
		for _, k := range w.ahead.keys {
			rest = append(rest, func() tea.Msg { return k })
		}
		w.ahead.keys = nil
		cmds = append(cmds, tea.Sequence(rest...))
	}
	return tea.Batch(cmds...)
}
