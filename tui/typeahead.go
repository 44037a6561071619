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
// wizard and every menu (the human decision's note, a new timeout, a
// budget) hold them while a move is under way and hand them, in order,
// to the field that takes the focus (or to what follows the form's end).

// typeAhead is what a form's owner holds while the form moves.
type typeAhead struct {
	// moving is set from the key that asked the form to move until the
	// focus has moved (or the move was refused); turn counts the moves, so
	// a late safety release of an earlier one is ignored.
	moving bool
	turn   int
	keys   []tea.Msg
}

// releaseMsg lets go of the keys the wizard held for a move that never
// came (a field that asked nothing after all); menuReleaseMsg, of those
// the open menu held.
type (
	releaseMsg     struct{ turn int }
	menuReleaseMsg struct{ turn int }
)

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

// follow updates the hold after msg was fed to a form (before it: the
// form and its focused field; now: the form after): a move asked and
// accepted (no refusal on the field) starts a hold, the focus on another
// field (or another page, or another form) ends it, and so does a page's
// end the page's refusals will stop. It returns the safety release of a
// hold begun, as the message release makes of the hold's turn.
func (a *typeAhead) follow(msg tea.Msg, before *huh.Form, field huh.Field, now *huh.Form, release func(turn int) tea.Msg) tea.Cmd {
	focused := now.GetFocusedField()
	switch {
	case now != before || now.State != huh.StateNormal || focused != field:
		a.moving = false
	case asksMove(msg) && focused.Error() == nil:
		a.moving = true
		a.turn++
		turn := a.turn
		return tea.Tick(releaseAfter, func(time.Time) tea.Msg { return release(turn) })
	case isMove(msg) && len(now.Errors()) > 0:
		a.moving = false // the page is not left while a field refuses
	}
	return nil
}

// follow is the wizard's hold after msg was fed to its form.
func (w *wizard) follow(msg tea.Msg, form *huh.Form, field huh.Field) tea.Cmd {
	return w.ahead.follow(msg, form, field, w.form, func(turn int) tea.Msg { return releaseMsg{turn: turn} })
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

// A field's refusal of enter is drawn a moment after the enter: keys typed
// or pasted right behind it (before anyone could read the refusal) land in
// the field that refused, as they should, but huh takes a field's refusal
// away at its next key, so it would go unseen. The wizard keeps it on
// screen until a key typed once it could be read, or until the focus moves.

// readAfter is how soon after a refusal a key may come and still have
// been typed before the refusal could be read. The time is taken when
// moot handles each key, not when it was typed: on a loaded machine keys
// that arrived together (a paste, a fast typist) can be handled hundreds
// of milliseconds apart, so the window is a second — shorter than anyone
// takes to read a refusal of two lines and answer it, and a refusal kept
// a moment longer costs nothing (it goes at the next key).
const readAfter = time.Second

// keptRefusal is a field's refusal of enter, kept on screen.
type keptRefusal struct {
	text  string
	field huh.Field
	at    time.Time
}

// expire lets the refusal go at a key typed once it could be read.
func (k *keptRefusal) expire(msg tea.Msg, now time.Time) {
	if typed(msg) && k.text != "" && now.Sub(k.at) >= readAfter {
		*k = keptRefusal{}
	}
}

// follow keeps the refusal of an enter (or tab) the focused field refused
// (before, field: the form and its focused field before msg; now: after),
// and lets it go once the focus moves.
func (k *keptRefusal) follow(msg tea.Msg, before *huh.Form, field huh.Field, now *huh.Form, at time.Time) {
	switch {
	case now != before || now.GetFocusedField() != field:
		*k = keptRefusal{}
	case asksMove(msg) && field.Error() != nil:
		*k = keptRefusal{text: field.Error().Error(), field: field, at: at}
	}
}

// pasted readies form for a paste: huh takes a field's refusal away at
// the field's next key, but not at a paste, so a corrected value pasted
// into the field that refused it stayed under "options A and B are the
// same…" until the next enter. A paste into a text field that shows a
// refusal first hands the form a key that is bound to nothing and types
// nothing (f24), which clears the refusal as any key does.
func pasted(form *huh.Form, msg tea.Msg) *huh.Form {
	if _, ok := msg.(tea.PasteMsg); !ok {
		return form
	}
	switch field := form.GetFocusedField(); field.(type) {
	case *huh.Input, *huh.Text:
		if field.Error() == nil {
			return form
		}
	default:
		return form
	}
	if nf, _ := form.Update(tea.KeyPressMsg{Code: tea.KeyF24}); nf != nil {
		if f, ok := nf.(*huh.Form); ok {
			return f
		}
	}
	return form
}
