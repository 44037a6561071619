package tui

import (
	"cmp"
	"sort"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/termsafe"
)

// setLenses labels each participant's panes with its frozen lens; with
// options, with the option's text too ("A: deduplicate the discount").
func (d *debateView) setLenses(lenses map[string]bugfolder.Lens, options bool) {
	for _, rd := range d.rounds {
		for _, p := range rd.panes {
			l := lenses[p.id]
			p.lens, p.option = termsafe.Line(l.Name), ""
			if options && l.Text != "" {
				p.option = termsafe.Line(l.Name + ": " + l.Text)
				p.lens = clipLine(p.option, optionLabelMax)
			}
		}
	}
}

// optionLabelMax is the widest an option's pane label gets.
const optionLabelMax = 40

// zoomOption opens a zoomed pane of a participant that defends an option
// with the whole option, wrapped: its title and the panes cut it at
// optionLabelMax ("" for a pane with no option).
func (d debateState) zoomOption(f *frame) string {
	p := d.zoomPane(f)
	if p == nil || p.option == "" {
		return ""
	}
	return f.st.Subtle.Render(wrapLines("option "+p.option, max(10, f.w-2))) + "\n\n"
}

// protocol is the protocol of the debate shown: the one chosen in the
// wizard or named in problema.md, among those the UI knows (Known: every
// protocol moot runs, not only those the wizard offers).
func (d debateState) protocol(f *frame) engine.Protocol {
	name := bugfolder.DefaultProtocol
	if d.deb != nil && d.deb.protocol != "" {
		name = d.deb.protocol
	}
	return f.protocolNamed(name)
}

// protocolNamed is the protocol moot runs under that name (nil: unknown):
// one the options set up, offer or know (a setup's protocol is one of
// them: the options' own or the wizard's choice among Protocols).
func (f *frame) protocolNamed(name string) engine.Protocol {
	known := append([]engine.Protocol{f.opts.Setup.Protocol, f.opts.Protocol}, f.opts.Protocols...)
	for _, p := range append(known, f.opts.Known...) {
		if p != nil && p.Name() == name {
			return p
		}
	}
	return nil
}

// words are the inputs and role words of the debate shown's protocol.
func (d debateState) words(f *frame) engine.Inputs { return engine.Describe(d.protocol(f)) }

// setupLenses maps a setup's solver lenses to the solvers' ids.
func setupLenses(s engine.Setup) map[string]bugfolder.Lens {
	out := map[string]bugfolder.Lens{}
	for i, l := range s.Lenses {
		out[s.Lang.SolverID(i+1)] = l
	}
	return out
}

// paneName is a pane's id with its lens ("agente-1 [security]"); the
// final step's pane is named by the protocol's word for it (judge,
// synthesizer), a support role's by its own when it is no critic
// ("scorer (critic-1)": the file keeps the id).
func (p *pane) paneName(words engine.Inputs) string {
	id := p.id
	switch {
	case p.role == "judge":
		id = words.Final // the UI's word; the folder keeps the document's (juiz)
	case p.role == "critic" && words.Supporter != "" && words.Supporter != "critic":
		id = words.Supporter + " (" + p.id + ")"
	}
	if p.lens == "" {
		return id
	}
	return id + " [" + p.lens + "]"
}

// lensLine is the browser preview's line naming the selected debate's
// lenses ("" when it has none).
func (b browser) lensLine(f *frame) string {
	r := b.selected()
	if r == nil || r.sum == nil || r.sum.Latest == nil || r.sum.Latest.Problem == nil || len(r.sum.Latest.Problem.Lenses) == 0 {
		return ""
	}
	var parts []string
	for id, l := range r.sum.Latest.Problem.Lenses {
		parts = append(parts, id+" "+termsafe.Line(l.Name))
	}
	sort.Strings(parts)
	word := cmp.Or(engine.Describe(f.protocolNamed(r.sum.Latest.Problem.ProtocolName())).LensesWord, "lenses")
	return f.st.Subtle.Render(word+": ") + strings.Join(parts, " · ")
}

// carryLenses keeps the lenses given on the command line through the
// wizard: one lens given for all stays on every solver, whatever N becomes;
// lenses given one each stay on the solvers that remain (a solver added in
// the wizard has none).
func carryLenses(given []bugfolder.Lens, n int) []bugfolder.Lens {
	if len(given) == 0 || n <= 0 {
		return nil
	}
	same := true
	for _, l := range given {
		same = same && l == given[0]
	}
	out := make([]bugfolder.Lens, n)
	for i := range out {
		switch {
		case same:
			out[i] = given[0]
		case i < len(given):
			out[i] = given[i]
		}
	}
	return out
}
