package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/huh/v2"

	"github.com/reversa/moot/engine"
)

// The wizard offers the protocols that run on a question (argue) beside
// a bug's: choosing one asks the question, its personas and its rounds
// as moot ask takes them, then the engines; the ask function (cli's, the
// command's own flags and checks) checks each answer as it is typed and
// sets the question up, its folder reserved, for the cost screen.

// offeredProtocols are the protocols the wizard lists: a bug's, then
// those on a question when it can set one up.
func (w *wizard) offeredProtocols() []engine.Protocol {
	if w.ch.ask == nil {
		return w.ch.protocols
	}
	return append(slices.Clone(w.ch.protocols), w.ch.questions...)
}

// isQuestion reports whether p runs on a question.
func (w *wizard) isQuestion(p engine.Protocol) bool {
	return w.ch.ask != nil && p != nil && slices.ContainsFunc(w.ch.questions, func(q engine.Protocol) bool { return q.Name() == p.Name() })
}

// onQuestion reports whether the protocol chosen runs on a question.
func (w *wizard) onQuestion() bool { return w.isQuestion(w.proto) }

// PersonasField is the title of the question's field that takes its
// personas: a refusal of one names it (cli words moot ask's --persona so).
const PersonasField = "Personas"

// questionFields are a question protocol's first page: the question,
// its personas (none: two chosen for the question) and the round cap.
func (w *wizard) questionFields() []huh.Field {
	w.strategy = "one" // one engine for every persona, as moot ask's --solver once
	where := "one line; the debate is stored under .moot/debates/ (moot ask)"
	if w.bug != nil && !w.bug.IsQuestion {
		where = fmt.Sprintf("one line; the debate is stored under .moot/debates/ (moot ask), not with %s: the personas read the question alone, not the bug", w.bug.ID)
	}
	return []huh.Field{
		described(w, huh.NewInput().Title("Question"), where).
			Value(&w.question).Validate(func(s string) error { return w.askCheck(func() { w.question = s }) }),
		described(w, huh.NewInput().Title(PersonasField), "names separated by spaces or commas (the library's, or .moot/personas/NAME.md); empty = two chosen for the question; one = an opponent chosen for it").
			Value(&w.personas).Validate(func(s string) error { return w.askCheck(func() { w.personas = s }) }),
		described(w, huh.NewInput().Title("Rounds (cap R)"), "the cap is stated on the cost screen and never exceeded; the debate may stop earlier on convergence").
			Value(&w.rStr).Validate(func(s string) error {
			if err := w.roundsCheck()(s); err != nil {
				return err
			}
			return w.askCheck(func() { w.rStr = s })
		}),
	}
}

// personaNames are the personas typed.
func (w *wizard) personaNames() []string {
	return strings.FieldsFunc(w.personas, func(r rune) bool { return r == ',' || r == ' ' || r == ';' })
}

// askArgs are the words moot ask takes for the setup the wizard holds.
func (w *wizard) askArgs() []string {
	args := []string{"--protocol", w.protoName, "-r", strings.TrimSpace(w.rStr)}
	for _, p := range w.personaNames() {
		args = append(args, "--persona", p)
	}
	if w.engineAll != "" {
		args = append(args, "--solver", w.engineAll)
	}
	if w.judge != "" {
		args = append(args, "--synthesizer", w.judge)
	}
	if t := strings.TrimSpace(w.timeout); t != "" {
		args = append(args, "--timeout", t)
	}
	return append(args, "--", w.question)
}

// askCheck sets what a field typed (set) and checks the setup as moot
// ask checks it, nothing reserved: its refusal, without the "nothing was
// written" a form needs not say.
func (w *wizard) askCheck(set func()) error {
	set()
	if strings.TrimSpace(w.question) == "" {
		return errors.New("the question is empty: ask a question")
	}
	if _, _, err := w.ch.ask(w.askArgs(), false); err != nil {
		return w.wrappedErr(errors.New(strings.TrimSuffix(err.Error(), "; nothing was written")))
	}
	return nil
}
