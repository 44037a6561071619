package tui

// The wizard's pages as huh fields: the protocol, the basics (size,
// rounds, engines, lenses), the protocol's own inputs and their checks
// (docs/tui.md, "The browser, the wizard and the live view"); wizard.go
// holds the stages they make up.

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/huh/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// protocolSelect asks for the protocol, each with its one-line summary.
func (w *wizard) protocolSelect() huh.Field {
	var opts []huh.Option[string]
	for _, p := range w.offeredProtocols() {
		sum := engine.Describe(p).Summary
		if w.isQuestion(p) {
			sum = "on a question: " + sum
		}
		opts = append(opts, huh.NewOption(p.Name()+" — "+sum, p.Name()))
	}
	if w.ch.review != nil {
		opts = append(opts, huh.NewOption(reviewChoice+" — "+reviewSummary, reviewChoice))
	}
	return huh.NewSelect[string]().Title("Protocol").Value(&w.protoName).Options(opts...)
}

// basicFields are the mode, the panel's size (unless the protocol fixes
// it), the rounds and how the panel's engines are chosen, in the
// protocol's words.
func (w *wizard) basicFields() []huh.Field {
	var fields []huh.Field
	if w.in.Modes {
		fields = append(fields, huh.NewSelect[string]().Title("Mode").Value(&w.mode).Options(
			huh.NewOption("diagnosis — competing causal hypotheses; which does the evidence support?", "diagnosis"),
			huh.NewOption("repair — the cause is known; which fix strategy?", "repair"),
			huh.NewOption("spec — code, tests and spec disagree; which rule is right?", "spec"),
		))
	}
	if w.in.N == 0 {
		fields = append(fields, huh.NewInput().Title(capital(w.in.Members)+" (N)").Value(&w.nStr).Validate(w.sizeCheck()))
	}
	if w.in.RCap {
		fields = append(fields, described(w, huh.NewInput().Title("Rebuttal rounds (cap R)"), fmt.Sprintf("the cap is stated on the cost screen and never exceeded; 0 = one answer each, then the %s", w.in.Final)).Value(&w.rStr).Validate(w.roundsCheck()))
	} else {
		fields = append(fields, described(w, huh.NewInput().Title("Rounds after round 0 (R)"), fmt.Sprintf("no early stopping; 0 = independent answers plus the %s", w.in.Final)).Value(&w.rStr).Validate(w.roundsCheck()))
	}
	return append(fields, huh.NewSelect[string]().Title(capital(w.in.Member)+" engines").Value(&w.strategy).Options(
		huh.NewOption("one engine for every "+w.in.Member, "one"),
		huh.NewOption("each "+w.in.Member+" its own engine", "each"),
	))
}

// inputFields are the protocol's own inputs: a lens per panel member,
// options A and B, criteria.
func (w *wizard) inputFields() []huh.Field {
	var fields []huh.Field
	if w.in.Lenses && (w.in.LensEach || len(w.lensOptions()) > 1) {
		n := w.n()
		w.fitPicks()
		note := "each " + w.in.Member + " may argue from a lens (frozen in problema.md, shown on its pane); ←/→ picks, none is plain"
		if w.in.LensEach {
			note = "each " + w.in.Member + " argues from its own lens (frozen in problema.md, shown on its pane); ←/→ picks"
		}
		if len(w.lensOptions()) == 0 {
			note = "no lens to pick: the catalog is empty; add .moot/lenses/NAME.md or a lenses: entry to the engines file"
		}
		fields = append(fields, w.textNote("Lenses", note))
		for i := range n * min(len(w.lensOptions()), 1) {
			fields = append(fields, huh.NewSelect[string]().Title("Lens of "+w.bug.Register.Lang.SolverID(i+1)).Value(&w.lensPick[i]).Options(w.lensOptions()...).Inline(true).Validate(w.distinctLens(i)))
		}
	}
	if w.in.Options {
		note := "each option is one testable statement; reviewer A argues for A, reviewer B for B"
		if w.prefilled != "" {
			note = w.prefilled
		}
		fields = append(fields, w.textNote("Options", note),
			huh.NewInput().Title("Option A").Value(&w.optA).Validate(option("A")),
			huh.NewInput().Title("Option B").Value(&w.optB).Validate(w.optionB))
	}
	if w.in.Criteria {
		fields = append(fields, described(w, huh.NewInput().Title("Criteria"), "separated by ';' — empty = the mode's rubric").Value(&w.criteria))
	}
	if w.in.Stakes {
		fields = append(fields,
			described(w, huh.NewInput().Title("Value at risk"), fmt.Sprintf("a number in the register's currency — empty = not stated; over %d the result escalates", w.in.StakesOver)).Value(&w.valueAtRisk).Validate(func(v string) error {
				_, err := engine.ParseStakes(v, false)
				return err
			}),
			described(w, huh.NewSelect[bool]().Title("Irreversible decision"), "an irreversible decision escalates to a human").Value(&w.irreversible).
				Options(huh.NewOption("no", false), huh.NewOption("yes — it cannot be undone", true)).Inline(true))
	}
	return fields
}

// maxOption bounds an option's statement, as --option-a/-b do; a longer
// one is refused, never cut (the field takes what was typed or pasted).
const maxOption = 2000

// option checks an option is given, within maxOption bytes.
func option(which string) func(string) error {
	return func(s string) error {
		switch {
		case strings.TrimSpace(s) == "":
			return fmt.Errorf("option %s: give one testable statement", which)
		case len(s) > maxOption:
			return fmt.Errorf("option %s is %d bytes; an option is one testable statement of at most %d", which, len(s), maxOption)
		}
		return nil
	}
}

// optionB checks option B is given and, by the protocol's own refusals
// (the rule the CLI and the plan apply), differs from option A.
func (w *wizard) optionB(s string) error {
	if err := option("B")(s); err != nil {
		return err
	}
	if w.proto == nil {
		return nil
	}
	trial := engine.Setup{N: 2, Lenses: []bugfolder.Lens{{Name: "A", Text: strings.TrimSpace(w.optA)}, {Name: "B", Text: strings.TrimSpace(s)}}}
	if why := w.proto.Refusals(trial); len(why) > 0 {
		return errors.New(why[0])
	}
	return nil
}

// panelLenses are the panel's lenses: the options A and B for a protocol
// that asks them, the lenses picked, or those given on the command line.
func (w *wizard) panelLenses(n int) []bugfolder.Lens {
	if w.in.Options {
		return []bugfolder.Lens{{Name: "A", Text: strings.TrimSpace(w.optA)}, {Name: "B", Text: strings.TrimSpace(w.optB)}}
	}
	if !w.in.Lenses {
		return nil
	}
	if !w.in.LensEach && len(w.lensOptions()) < 2 {
		return carryLenses(w.lenses, n)
	}
	out := make([]bugfolder.Lens, n)
	any := false
	cat := w.lensCatalog()
	w.fitPicks()
	for i := range min(n, len(w.lensPick)) {
		if j := slices.IndexFunc(cat, func(l bugfolder.Lens) bool { return l.Name == w.lensPick[i] }); j >= 0 {
			out[i], any = cat[j], true
		}
	}
	if !any {
		return nil
	}
	return out
}

// criteriaList is the criteria given, one per ';' (none: the default).
func (w *wizard) criteriaList() []string {
	var out []string
	for _, c := range strings.Split(w.criteria, ";") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// verifyField offers the judge's order-swap check (docs/beyond.md).
func (w *wizard) verifyField() huh.Field {
	return described(w, huh.NewSelect[bool]().Title("Order-swap check"), fmt.Sprintf("call the %[1]s again with every proposal in another slot under another label (one more call, priced on the next screen); another winner opens the %[1]s menu", w.in.Final)).
		Value(&w.verify).Options(huh.NewOption("off", false), huh.NewOption("on — a second "+w.in.Final+" call", true)).Inline(true)
}
