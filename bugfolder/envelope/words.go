package envelope

import (
	"errors"
	"fmt"
)

// The change under review is given one of two ways, a git range or the
// files it touches; a refusal names the input it refuses as the surface
// the engineer typed it into names it: moot review's flags, or the TUI's
// wizard's Change field. The rule is one (splitRange, resolve, fromFiles);
// the words are a parameter.

// Words are how a surface names the change's inputs in a refusal.
type Words struct {
	// Change names the git range, Files the files; Either says how to
	// give the change, after "give the change".
	Change, Files, Either string
}

// Flags are moot review's words: its flags.
var Flags = Words{Change: "--change", Files: "--files", Either: "with --change A..B or --files F... (one of them)"}

// InputError is a refusal of the range or of the files: Error words it
// as moot review does; Words.Say words it for another surface.
type InputError struct {
	// Files is set for a refusal of the files, else of the range.
	Files bool
	// Given is what was given, as the refusal shows it ("" when Why names
	// it); Why is the refusal.
	Given, Why string
}

// Error is the refusal in moot review's words.
func (e *InputError) Error() string { return e.in(Flags) }

// in is the refusal in w's words.
func (e *InputError) in(w Words) string {
	name := w.Change
	if e.Files {
		name = w.Files
	}
	if e.Given == "" {
		return name + " " + e.Why
	}
	return name + " " + e.Given + ": " + e.Why
}

// Say is err in w's words when it refuses an input of the change, else err.
func (w Words) Say(err error) error {
	var ie *InputError
	if errors.As(err, &ie) {
		return errors.New(ie.in(w))
	}
	return err
}

// rangeRefusal refuses the range change.
func rangeRefusal(change, format string, args ...any) *InputError {
	return &InputError{Given: fmt.Sprintf("%q", change), Why: fmt.Sprintf(format, args...)}
}
