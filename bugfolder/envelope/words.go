package envelope

import (
	"errors"
	"fmt"
)

// The change under review is given one of two ways, a git range or the
// files it touches, with its contract; a refusal names the input it
// refuses as the surface the engineer typed it into names it: moot
// review's flags, or the TUI's wizard's fields. The rule is one
// (splitRange, resolve, fromFiles, ParseContract); the words are a
// parameter.

// Words are how a surface names the change's inputs in a refusal.
type Words struct {
	// Change names the git range, Files the files, Contract the contract;
	// Either says how to give the change, after "give the change".
	Change, Files, Contract, Either string
}

// Flags are moot review's words: its flags.
var Flags = Words{Change: "--change", Files: "--files", Contract: "--contract", Either: "with --change A..B or --files F... (one of them)"}

// input is which input a refusal refuses.
type input int

const (
	inputChange input = iota
	inputFiles
	inputContract
)

// InputError is a refusal of the range, the files or the contract: Error
// words it as moot review does; Words.Say words it for another surface.
type InputError struct {
	// of is the input refused.
	of input
	// Given is what was given, as the refusal shows it ("" when Why names
	// it); Why is the refusal.
	Given, Why string
}

// Error is the refusal in moot review's words.
func (e *InputError) Error() string { return e.in(Flags) }

// in is the refusal in w's words.
func (e *InputError) in(w Words) string {
	name := map[input]string{inputChange: w.Change, inputFiles: w.Files, inputContract: w.Contract}[e.of]
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
	return &InputError{of: inputChange, Given: fmt.Sprintf("%q", change), Why: fmt.Sprintf(format, args...)}
}

// contractRefusal refuses the contract given.
func contractRefusal(given, why string) *InputError {
	return &InputError{of: inputContract, Given: fmt.Sprintf("%q", given), Why: why}
}
