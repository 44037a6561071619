package tui

import (
	"slices"
	"strings"

	"github.com/reversa/moot/engine"
)

// setupWhat names what the wizard sets up, after the protocol chosen (on
// the protocol page, the one under the cursor): "a council", "a review of
// a change", "an argue on a question"; "a debate" before any is known.
func (w *wizard) setupWhat() string {
	switch {
	case w.protoName == "":
		return "a debate"
	case w.reviewing():
		return "a review of a change"
	case w.ch.ask != nil && slices.ContainsFunc(w.ch.questions, func(q engine.Protocol) bool { return q.Name() == w.protoName }):
		return "an " + w.protoName + " on a question"
	}
	return "a " + w.protoName
}

// pageTitle heads the protocol's own page: "New council", "New review of
// a change".
func (w *wizard) pageTitle() string {
	what := w.setupWhat()
	_, rest, _ := strings.Cut(what, " ") // without its article
	return "New " + rest
}
