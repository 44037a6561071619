package tui

import (
	"errors"
	"slices"
	"strings"
	"sync"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// The wizard's own text (notes, descriptions, refusals) is wrapped here,
// at spaces only, before huh sees it: huh also breaks a line at '.', '-',
// ',' and ';', which cuts an address (127.0.0.\n1:11434), a path or a
// model name in two. A line that already fits is never broken again.

// wizardText is a text the wizard shows in a field, with how to set it:
// fitText sets it again, wrapped to the new width, on every resize.
type wizardText struct {
	text string
	set  func(string)
}

// fieldFrame is what huh's field styles take of the form's width (the
// focus bar and its padding).
func fieldFrame() int {
	t := formTheme.Theme(true)
	return max(t.Focused.Base.GetHorizontalFrameSize(), t.Blurred.Base.GetHorizontalFrameSize(),
		t.Focused.Card.GetHorizontalFrameSize(), t.Blurred.Card.GetHorizontalFrameSize())
}

// fitText sizes the wizard's text to a form formW cells wide.
func (w *wizard) fitText(formW int) {
	w.textW = max(0, formW-fieldFrame())
	for _, t := range w.texts {
		t.set(w.wrapText(t.text))
	}
}

// wrapText wraps s at spaces to the fields' width (unchanged before the
// wizard knows it): wordWrap's rule, so a path wider than a line is kept
// whole, cut between its folders.
func (w *wizard) wrapText(s string) string {
	if w.textW < 5 {
		return s
	}
	return wordWrap(s, w.textW)
}

// shown registers a field's text, wrapped, and returns it (set applies it
// again on a resize).
func (w *wizard) shown(text string, set func(string)) {
	w.texts = append(w.texts, wizardText{text: text, set: set})
	set(w.wrapText(text))
}

// textNote is a note whose description is wrapped by the wizard; markdown
// marks in it are shown as typed (base_url stays literal).
func (w *wizard) textNote(title, text string) *huh.Note {
	n := huh.NewNote().Title(title)
	w.shown(text, func(s string) { n.Description(strings.ReplaceAll(s, "_", "\\_")) })
	return n
}

// describable is a huh field whose description can be set again.
type describable[F any] interface{ Description(string) F }

// described sets f's description to text wrapped by the wizard (at spaces
// only, again on a resize), so a path or a dotted name in it reads whole.
func described[F describable[F]](w *wizard, f F, text string) F {
	w.shown(text, func(s string) { f.Description(s) })
	return f
}

// wrappedErr is a refusal wrapped to the fields' width.
func (w *wizard) wrappedErr(err error) error {
	if err == nil {
		return nil
	}
	return errors.New(w.wrapText(err.Error()))
}

// refusalLines wraps a refusal to width cells by wordWrap's rule (at
// spaces; a path wider than a line whole, cut between its folders), its
// lines after the first indented, each styled.
func refusalLines(text string, width int, indent string, style func(...string) string) []string {
	width = max(5, width)
	hang := min(len(indent), width/2)
	var out []string
	for _, l := range strings.Split(text, "\n") {
		for _, row := range strings.Split(wrapHanging(l, width, hang), "\n") {
			out = append(out, style(row))
		}
	}
	return out
}

// refusal is what the page's fields refuse, each refusal whole, wrapped
// to the window under the form (huh's own footer below the form was cut
// at the frame's last line): the form is made shorter by as many lines
// (wizard.fit). A refusal kept for the keys typed behind its enter
// (keptRefusal) is among them.
func (w *wizard) refusal(f *frame) []string {
	var out []string
	errs := w.form.Errors()
	if w.kept.text != "" && !slices.ContainsFunc(errs, func(e error) bool { return e.Error() == w.kept.text }) {
		errs = append(errs, errors.New(w.kept.text)) // taken from the field by a key typed behind the enter
	}
	for _, err := range append(errs, errors.New(w.refused)) {
		if text := strings.Join(strings.Fields(err.Error()), " "); text != "" { // wrapped again, to the window
			out = append(out, refusalLines("* "+text, f.w-1, "  ", errorStyle().Render)...)
		}
	}
	return out
}

// errorStyle draws a refusal as huh draws a field's error; built once,
// when a refusal is first drawn, not at every start (huh's theme is tens
// of KB, and e2e/startup_test.go bounds what moot's initialisers allocate).
var errorStyle = sync.OnceValue(func() lipgloss.Style {
	return lipgloss.NewStyle().Inherit(formTheme.Theme(true).Focused.ErrorMessage).PaddingLeft(1)
})
