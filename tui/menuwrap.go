package tui

import "charm.land/huh/v2"

// A menu's descriptions are wrapped here, by wordWrap's rule, before huh
// sees them: huh breaks a line after a '-', which splits a bug ID
// ("moot resume BUG-20260702-" / "Q2R8"), a flag or a path in two. They
// are wrapped again when the menu's width changes.

// wrappedNote is a note whose title and description the menu wraps
// itself.
func (m *menu) wrappedNote(title, text string) *huh.Note {
	n := huh.NewNote().Title(title).Description(text)
	m.texts = append(m.texts, wizardText{text: title, set: func(s string) { n.Title(s) }},
		wizardText{text: text, set: func(s string) { n.Description(s) }})
	return n
}

// fitText wraps the menu's descriptions to the room a form formW cells
// wide leaves its fields (again only when that changes).
func (m *menu) fitText(formW int) {
	if w := max(5, formW-fieldFrame()); w != m.textW {
		m.textW = w
		for _, t := range m.texts {
			t.set(wordWrap(t.text, w))
		}
	}
}

// view draws the menu's form formW cells wide (its descriptions were
// wrapped to that width when it opened or the window changed: fitMenu).
func (m *menu) view(formW int) string {
	return m.form.WithWidth(formW).View()
}

// menuDescribed sets a field's description, wrapped by the menu as its
// notes are.
func menuDescribed[F describable[F]](m *menu, f F, text string) F {
	m.texts = append(m.texts, wizardText{text: text, set: func(s string) { f.Description(s) }})
	return f.Description(text)
}
