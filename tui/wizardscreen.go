package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/charmbracelet/x/ansi"
)

// The setup wizard (wizard.go) is a screen: it owns its state (a huh
// form per stage), its keys (wizardKeys: the back keys; the form answers
// the rest) and its view; the frame is handed in by the root. It asks the
// root to move: leaveSetupMsg when it is left, setupDoneMsg once complete.

// wizardKeys are the wizard's key bindings.
type wizardKeys struct {
	Next, Back, Leave, Choose, Sides key.Binding
	// Help is ? on a field that takes no text; HelpInText is f1, which
	// opens the help on any field (in a text field ? is typed).
	Help, HelpInText key.Binding
}

// wizardKeyMap are the wizard's bindings, built once.
var wizardKeyMap = wizardKeys{
	Next:   bind("enter", "next", "enter"),
	Back:   bind("shift+tab/esc", "back", "shift+tab", "esc"),
	Leave:  bind("esc", "leave the setup (on its first field)", "esc"),
	Choose: bind("↑/↓", "choose", "up", "down"),
	Sides:  bind("←/→", "choose between buttons", "left", "right"),
	Help:   bind("?", "this help (in a text field ? is typed: f1 opens it)", "?"),
	// f1 is the help key of a text field (its footer says so)
	HelpInText: bind("f1", "this help, on any field", "f1"),
}

// ShortHelp is the wizard's footer.
func (k wizardKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Back, k.Choose, labelled(k.Help, "?", "keys")}
}

// FullHelp is the wizard's help.
func (k wizardKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Back, k.Leave, k.Choose, k.Sides, k.Help, k.HelpInText}}
}

// Update answers the wizard's back keys, then feeds the form: shift+tab
// and esc go back a field, and from a page's first field to the last
// field of the page before; esc on the very first field cancels. Any
// other message is the form's (huh's own).
func (w *wizard) Update(f *frame, msg tea.Msg) (*wizard, tea.Cmd) {
	if r, ok := msg.(releaseMsg); ok {
		if r.turn == w.ahead.turn {
			w.ahead.moving = false
		}
		return w, w.replay(f)
	}
	if typed(msg) && w.ahead.moving { // the form is moving: for the field it moves to
		w.ahead.keys = append(w.ahead.keys, msg)
		return w, nil
	}
	if typed(msg) && w.refused != "" { // the page's refusal stays until a key
		w.refused = ""
		w.fit(f)
	}
	cmd := w.answer(f, msg)
	return w, tea.Batch(cmd, w.replay(f))
}

// answer answers a message the wizard does not hold (Update).
func (w *wizard) answer(f *frame, msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if ok && (key.Matches(k, wizardKeyMap.HelpInText) || key.Matches(k, wizardKeyMap.Help) && !w.typing()) {
		f.next = openHelpMsg{}
		return nil
	}
	if !ok || !key.Matches(k, wizardKeyMap.Back) {
		return w.feed(f, msg)
	}
	if w.form.GetFocusedField() != w.first {
		return w.feed(f, tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	}
	if !w.back() {
		if key.Matches(k, wizardKeyMap.Leave) {
			f.next = leaveSetupMsg{}
		}
		return nil
	}
	w.fit(f)
	cmd := w.form.Init()
	w.focusLast()
	return cmd
}

// typing reports whether the focused field takes text (where ? is typed
// and f1 opens the help).
func (w *wizard) typing() bool {
	switch w.form.GetFocusedField().(type) {
	case *huh.Input, *huh.Text:
		return true
	}
	return false
}

// helpKey is the key that opens the help on the focused field, as the
// footer says it.
func (w *wizard) helpKey() key.Binding {
	if w.typing() {
		return labelled(wizardKeyMap.HelpInText, "f1", "keys")
	}
	return labelled(wizardKeyMap.Help, "?", "keys")
}

// feed feeds the wizard's form, following the moves of its focus (the
// keys typed meanwhile are held: typeahead.go).
func (w *wizard) feed(f *frame, msg tea.Msg) tea.Cmd {
	form, field, refused := w.form, w.form.GetFocusedField(), len(w.refusal(f))
	w.kept.expire(msg, f.clock())
	cmd := w.feedForm(f, msg)
	w.kept.follow(msg, form, field, w.form, f.clock())
	if w.form == form && len(w.refusal(f)) != refused {
		w.fit(f) // room for the refusal under the form, or the room given back
	}
	return tea.Batch(cmd, w.follow(msg, form, field))
}

// feedForm feeds the wizard's form and moves through its stages: aborted,
// the setup is left; completed, the cost screen opens.
func (w *wizard) feedForm(f *frame, msg tea.Msg) tea.Cmd {
	w.form = pasted(w.form, msg)
	nf, c := w.form.Update(msg)
	if form, ok := nf.(*huh.Form); ok {
		w.form = form
	}
	switch w.form.State {
	case huh.StateAborted:
		f.next = leaveSetupMsg{}
		return nil
	case huh.StateCompleted:
		if w.advance() {
			f.next = setupDoneMsg{}
			return nil
		}
		w.fit(f)
		return w.form.Init()
	}
	return c
}

// View draws the wizard's title, its form and the footer.
func (w *wizard) View(f *frame) string {
	k := wizardKeyMap
	head := f.st.Title.Render("moot") + f.st.Subtle.Render(" · set up "+w.setupWhat())
	form := w.form.View()
	if !strings.Contains(ansi.Strip(form), w.bug.ID) { // the page's heading scrolled away or none: the title names the bug
		head += f.st.Subtle.Render(ansi.Truncate(" · "+w.heading(), max(0, f.w-ansi.StringWidth(ansi.Strip(head))), "…"))
	}
	bs := []key.Binding{k.Next, k.Back, k.Choose}
	if w.stage == stageConfirm { // yes/no buttons side by side
		bs = []key.Binding{labelled(k.Sides, "←/→", "choose"), labelled(k.Next, "enter", "confirm"), k.Back}
	}
	if w.firstStage() && w.form.GetFocusedField() == w.first {
		bs = []key.Binding{k.Next, k.Choose, labelled(k.Leave, "esc", "leave")} // nothing to go back to
	}
	help := footerHelp(append(bs, w.helpKey())...) // ends ? keys, or f1 keys in a text field

	if note := w.restrictedNote(); note != "" { // pinned: the form scrolls under it
		head += "\n" + f.st.Warning.Render(wrapLines(note, f.w))
	}
	h := f.h - 3 - lipgloss.Height(head)
	body := lipgloss.NewStyle().Width(f.w).Height(h).Render(form)
	if refusal := w.refusal(f); len(refusal) > 0 { // whole, between the form and the footer
		h = max(1, h-len(refusal))
		body = lipgloss.NewStyle().Width(f.w).Height(h).MaxHeight(h).Render(form) + "\n" + strings.Join(refusal, "\n")
	}
	return head + "\n\n" + body + "\n" + f.toast.footer(f, help)
}

// probed takes the background probe's result: the wizard on its engines
// page offers only the engines that passed.
func (w *wizard) probed(f *frame, msg probedMsg) tea.Cmd {
	if w == nil {
		return nil
	}
	w.status, w.probing = msg, false
	if w.stage == stageEngines && f.screen == scrWizard {
		w.build()
		w.fit(f)
		return w.form.Init()
	}
	return nil
}
