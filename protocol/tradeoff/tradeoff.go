// Package tradeoff is the tradeoff protocol (docs/protocols/tradeoff.md) on moot's runner: a bounded
// adversarial review of one decision between two options. Setup writes
// one evidence packet (the decision and who owns it, the two positions as
// testable statements, the shared evidence, the criteria); two reviewers
// run in parallel on it, one per option, each arguing the strongest form
// of its side; a stated cap of rebuttal rounds follows (default 1), each
// answering the other side's strongest point and saying whether the
// reviewer changed its conclusion; then a synthesizer with no tools writes
// agreed facts, contested claims, missing outputs, a recommendation with
// its uncertainty and what would change it, and the pending human
// decision. Nothing is decided by vote, and a failed side is recorded,
// never simulated.
package tradeoff

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Name is the protocol's name, as --protocol takes it.
const Name = "tradeoff"

// The protocol's roles (docs/protocols/tradeoff.md): two reviewers and the synthesizer.
const (
	RoleReviewer    bugfolder.Role = "reviewer"
	RoleSynthesizer bugfolder.Role = "synthesizer"
)

// DefaultRounds is the rebuttal cap when -r is not given.
const DefaultRounds = 1

// Expected answer sizes, in tokens, for estimates.
const (
	ExpectedReviewerTokens    = 1200
	ExpectedSynthesizerTokens = 1800
)

// Protocol is the tradeoff protocol (docs/protocols/tradeoff.md). Its zero value is ready to use.
type Protocol struct{}

var _ engine.Protocol = Protocol{}

// Name is "tradeoff".
func (Protocol) Name() string { return Name }

// Roles are reviewer (the panel), no support role, synthesizer (final).
func (Protocol) Roles() (panel, support, final bugfolder.Role) {
	return RoleReviewer, "", RoleSynthesizer
}

// Rubric is the mode's frozen rubric: the default criteria of the packet.
func (Protocol) Rubric(l bugfolder.Lang, m bugfolder.Mode) []string { return bugfolder.Rubric(m, l) }

// Count returns 2 reviewers over R+1 rounds and the synthesizer:
// 2×(R+1) + 1.
func (Protocol) Count(s engine.Setup) engine.CallCounts {
	cc := engine.CallCounts{Solvers: 2 * (s.R + 1), Judge: 1}
	cc.Total = cc.Solvers + cc.Judge
	return cc
}

// Formula states the call count and the rebuttal cap, before launch:
// "2×(1+1) + 1 = 5 calls (rebuttal cap: 1 round)".
func (p Protocol) Formula(s engine.Setup) string {
	return fmt.Sprintf("2×(%d+1) + 1 = %d calls (rebuttal cap: %d round(s))", s.R, p.Count(s).Total, s.R)
}

// Refusals refuses a panel that is not one reviewer per option.
func (Protocol) Refusals(s engine.Setup) []string {
	var out []string
	if s.N != 2 {
		out = append(out, fmt.Sprintf("tradeoff has exactly 2 reviewers, one per option; -n %d", s.N))
	}
	if len(s.Critics) > 0 {
		out = append(out, "tradeoff has no critics: drop --critic")
	}
	if len(s.Lenses) != 2 || s.Lenses[0].Name != "A" || s.Lenses[1].Name != "B" ||
		strings.TrimSpace(s.Lenses[0].Text) == "" || strings.TrimSpace(s.Lenses[1].Text) == "" {
		out = append(out, "tradeoff needs both options: give --option-a and --option-b")
	} else if SameOption(s.Lenses[0].Text, s.Lenses[1].Text) {
		out = append(out, fmt.Sprintf("options A and B are the same statement (%q): a tradeoff weighs two different options", strings.TrimSpace(s.Lenses[0].Text)))
	}
	return out
}

// SameOption reports whether two options state the same thing: equal once
// case, spacing, quotes around them and the punctuation that ends them are
// set aside (the CLI, the wizard and the plan refuse such a pair).
func SameOption(a, b string) bool {
	norm := func(o string) string {
		o = strings.ToLower(strings.Join(strings.Fields(o), " "))
		return strings.TrimSpace(strings.Trim(o, ".!?;:,\"'`“”‘’ "))
	}
	return norm(a) != "" && norm(a) == norm(b)
}

// ExpectedTokens is a role's expected answer size.
func (Protocol) ExpectedTokens(role bugfolder.Role) int {
	if role == RoleSynthesizer {
		return ExpectedSynthesizerTokens
	}
	return ExpectedReviewerTokens
}

// PromptOverhead renders a role's prompt with an empty P.
func (p Protocol) PromptOverhead(s engine.Setup, role bugfolder.Role) int {
	var text string
	if role == RoleSynthesizer {
		text = synthPrompt(engine.FinalInput{Lang: s.Lang, Mode: s.Mode}, nil, strings.Repeat("0", 24))
	} else {
		text = p.Prompt(engine.Call{Lang: s.Lang, Mode: s.Mode, Role: role, N: 2, R: s.R, Round: 1, Nonce: strings.Repeat("0", 24), Lens: bugfolder.Lens{Name: "A"}})
	}
	return bugfolder.EstimateTokens(len(text))
}

// Batches runs both reviewers together in every round: each reads the
// other's frozen answer of the round before.
func (Protocol) Batches(k int, panel, support []string) [][]string { return [][]string{panel} }

// Continue runs the stated cap of rebuttal rounds, never more.
func (Protocol) Continue(k, r int) bool { return k < r }

// Prompt writes a reviewer's prompt.
func (Protocol) Prompt(c engine.Call) string { return reviewerPrompt(c) }

// Validate checks a reviewer's sections: in round 0 its position names
// its own option; in a rebuttal, "changed my conclusion" opens with yes
// or no.
func (Protocol) Validate(c engine.Call, body string) (string, []string) {
	out, got, problems := checkSections(c.Lang, body, reviewerSections(c.Round))
	side := c.Lens.Name
	if pos, ok := got[secPosition]; ok && c.Round == 0 && side != "" && !namesSide(pos, side) {
		problems = append(problems, fmt.Sprintf("%s does not name option %s, the one this reviewer defends", secPosition.In(c.Lang), side))
	}
	if ch, ok := got[secChanged]; ok && !yesNoWords.MatchString(ch) {
		problems = append(problems, fmt.Sprintf("%s does not open with %s", secChanged.In(c.Lang), t(c.Lang, "sim ou não", "yes or no")))
	}
	return out, problems
}

// namesSide reports whether text names option side as a word ("A", "Opção A").
func namesSide(text, side string) bool {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if w == side {
			return true
		}
	}
	return false
}

// Row is one round's measure: reviewers called, who answered (valid),
// and, in a rebuttal round, who changed its conclusion and who kept it —
// each by id, sorted, so convergencia.md names them with their side.
type Row struct {
	Round, Called, Valid, Changed int
	Answered, ChangedBy, KeptBy   []string
}

// Measure counts a round's valid answers and changed conclusions, and
// names who gave them.
func (Protocol) Measure(m bugfolder.Mode, j, called int, cur, prev map[string]string) engine.ConvergenceRow {
	row := Row{Round: j, Called: called, Valid: len(cur)}
	for _, id := range slices.Sorted(maps.Keys(cur)) {
		row.Answered = append(row.Answered, id)
		_, secs := bugfolder.ParseSections(cur[id])
		for _, s := range secs {
			if h, ok := match(s.Heading, []heading{secChanged}); ok && h == secChanged {
				if w := yesNoWords.FindStringSubmatch(s.Text()); w != nil && isYes(w[1]) {
					row.Changed++
					row.ChangedBy = append(row.ChangedBy, id)
				} else if w != nil {
					row.KeptBy = append(row.KeptBy, id)
				}
			}
		}
	}
	return row
}

func isYes(w string) bool {
	w = strings.ToLower(w)
	return w == "sim" || w == "yes"
}

// sideOf is the option a reviewer defends, from its id: agente-1 is A,
// agente-2 is B (setup gives the options in that order); "" when the id
// does not say.
func sideOf(id string) string {
	_, num, ok := strings.Cut(id, "-")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 1 || n > 26 {
		return ""
	}
	return string(rune('A' + n - 1))
}

// whoCell names reviewers with their side, "agente-2 (B)", after their
// count ("—" for none).
func whoCell(l bugfolder.Lang, ids []string) string {
	if len(ids) == 0 {
		return "—"
	}
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = id
		if side := sideOf(id); side != "" {
			names[i] += fmt.Sprintf(t(l, " (opção %s)", " (option %s)"), side)
		}
	}
	return fmt.Sprintf("%d: %s", len(ids), strings.Join(names, ", "))
}

// RenderConvergence writes convergencia.md: per round, who answered and,
// in a rebuttal round, who changed its conclusion and who kept it, each
// named with its option. A tradeoff does not converge by vote: the table
// only shows movement.
func (Protocol) RenderConvergence(l bugfolder.Lang, m bugfolder.Mode, rows []engine.ConvergenceRow, notes []string) string {
	var b strings.Builder
	b.WriteString(t(l, "# Convergência (tradeoff)\n\n", "# Convergence (tradeoff)\n\n"))
	b.WriteString(t(l, "| rodada | revisores chamados | responderam (válidos) | mudaram de conclusão | mantiveram a conclusão |\n|---|---|---|---|---|\n",
		"| round | reviewers called | answered (valid) | changed their conclusion | kept their conclusion |\n|---|---|---|---|---|\n"))
	for _, r := range rows {
		if row, ok := r.(Row); ok {
			changed, kept := whoCell(l, row.ChangedBy), whoCell(l, row.KeptBy)
			if row.Round == 0 {
				changed, kept = t(l, "— (posições iniciais)", "— (opening positions)"), "—"
			}
			fmt.Fprintf(&b, "| %d | %d | %s | %s | %s |\n", row.Round, row.Called, whoCell(l, row.Answered), changed, kept)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return b.String()
}

// Inputs asks the two options (each reviewer's lens), the rebuttal cap and
// the criteria; its synthesizer names no winner: a human decides.
func (Protocol) Inputs() engine.Inputs {
	return engine.Inputs{Summary: "a reviewer per option, capped rebuttal, synthesis; a human decides",
		Modes: true, N: 2, MinN: 2, MaxN: 2, R: DefaultRounds, MaxR: engine.MaxRounds, RCap: true, Options: true, Criteria: true,
		Rounds: "rebuttal cap %d round(s), stated before launch", Named: true,
		Member: "reviewer", Members: "reviewers", MembersPT: "revisores", Final: "synthesizer",
		FinalNote: "isolated, no tools: sees the packet and both reviewers' last answers by option, never by engine"}
}

// Pack wraps a bug's P in the evidence packet of the setup's options (its
// lenses A and B) and criteria (the mode's rubric when none is given).
func (Protocol) Pack(s engine.Setup, evidence *bugfolder.Problem, criteria []string) *bugfolder.Problem {
	mode := s.Mode
	if mode == "" {
		mode = bugfolder.Repair
	}
	if len(criteria) == 0 {
		criteria = bugfolder.Rubric(mode, s.Lang)
	}
	var a, b string
	if len(s.Lenses) == 2 {
		a, b = s.Lenses[0].Text, s.Lenses[1].Text
	}
	decision := s.Question
	if s.Bug != nil && !s.Bug.IsQuestion {
		decision = s.Bug.ID + " — " + s.Bug.Title
	}
	return Packet{Lang: s.Lang, Decision: decision, A: a, B: b, Criteria: criteria, Evidence: evidence}.Problem()
}
