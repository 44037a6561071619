// Package council is the council protocol (docs/protocols/council.md) on moot's runner: a council of
// members, one lens each, over a bug or a question. In round 0 each member
// alone writes its position (recommendation, reasoning, evidence citing P,
// confidence, limitations); in rounds 1..R (R ≤ 3) each reads the frozen
// positions and writes a cross-rebuttal (whom it agrees with, whom it
// disagrees with and on what evidence, the blind spot it sees, whether it
// keeps its position, its confidence). An isolated synthesizer, shown the
// members by lens and never by engine, writes the points of consensus,
// the divergences with their nature, the productive tensions, the gaps
// and its confidence. moot measures convergence from the rebuttals and
// flags the result escalate, or a pending human decision, by the protocol's
// thresholds.
package council

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Name is the protocol's name, as --protocol takes it.
const Name = "council"

// The protocol's roles (docs/protocols/council.md): members and the synthesizer.
const (
	RoleMember      bugfolder.Role = "member"
	RoleSynthesizer bugfolder.Role = "synthesizer"
)

// MaxRounds is the protocol's cap of cross-rebuttal rounds (docs/protocols/council.md: R ≤ 3,
// more is exit 2).
const MaxRounds = 3

// Expected answer sizes, in tokens, for estimates.
const (
	ExpectedMemberTokens      = 1200
	ExpectedSynthesizerTokens = 1800
)

// Protocol is the council protocol (docs/protocols/council.md). Its zero value is ready to use.
type Protocol struct{}

var _ engine.Protocol = Protocol{}

// Name is "council".
func (Protocol) Name() string { return Name }

// Roles are member (the panel), no support role, synthesizer (final).
func (Protocol) Roles() (panel, support, final bugfolder.Role) {
	return RoleMember, "", RoleSynthesizer
}

// Rubric is the mode's frozen rubric (on a question, the criteria).
func (Protocol) Rubric(l bugfolder.Lang, m bugfolder.Mode) []string { return bugfolder.Rubric(m, l) }

// Count returns N members over R+1 rounds and the synthesizer: N×(R+1)+1.
func (Protocol) Count(s engine.Setup) engine.CallCounts {
	cc := engine.CallCounts{Solvers: s.N * (s.R + 1), Judge: 1}
	cc.Total = cc.Solvers + cc.Judge
	return cc
}

// Formula fills in N×(R+1)+1: "3×(2+1) + 1 = 10 calls".
func (p Protocol) Formula(s engine.Setup) string {
	return fmt.Sprintf("%d×(%d+1) + 1 = %d calls", s.N, s.R, p.Count(s).Total)
}

// Refusals refuses more than MaxRounds rounds, critics, and a member
// without a lens.
func (Protocol) Refusals(s engine.Setup) []string {
	var out []string
	if s.R > MaxRounds {
		out = append(out, fmt.Sprintf("council runs at most %d cross-rebuttal rounds; -r %d", MaxRounds, s.R))
	}
	if len(s.Critics) > 0 {
		out = append(out, "council has no critics: drop --critic")
	}
	if len(s.Lenses) != s.N {
		out = append(out, fmt.Sprintf("council needs one lens per member: %d lens(es) for %d members (--lens)", len(s.Lenses), s.N))
	}
	return out
}

// ExpectedTokens is a role's expected answer size.
func (Protocol) ExpectedTokens(role bugfolder.Role) int {
	if role == RoleSynthesizer {
		return ExpectedSynthesizerTokens
	}
	return ExpectedMemberTokens
}

// PromptOverhead renders a role's prompt with an empty P.
func (p Protocol) PromptOverhead(s engine.Setup, role bugfolder.Role) int {
	var text string
	if role == RoleSynthesizer {
		text = synthPrompt(engine.FinalInput{Lang: s.Lang, Mode: s.Mode}, nil, strings.Repeat("0", 24))
	} else {
		text = p.Prompt(engine.Call{Lang: s.Lang, Mode: s.Mode, Role: role, N: s.N, R: s.R, Round: 1, Nonce: strings.Repeat("0", 24), Lens: bugfolder.Lens{Name: "lens"}})
	}
	return bugfolder.EstimateTokens(len(text))
}

// Batches runs every member together in every round: round 0 alone,
// rounds 1..R each reading the frozen answers of the round before.
func (Protocol) Batches(k int, panel, support []string) [][]string { return [][]string{panel} }

// Continue runs the planned rounds, never more (no early stop: docs/protocols/council.md
// keeps early stopping to argue and review).
func (Protocol) Continue(k, r int) bool { return k < r }

// OpeningRequired: a rebuttal keeps or changes its member's round-0
// position (the council protocol's "Mantenho minha posição?"), so a member with no
// valid position is left out of the cross-rebuttals, never asked to defend
// what it never said.
func (Protocol) OpeningRequired() bool { return true }

// Prompt writes a member's prompt.
func (Protocol) Prompt(c engine.Call) string { return memberPrompt(c) }

// Validate checks a member's sections: the confidence is a percentage
// 0–100; "Mantenho minha posição" opens with sim, não or parcialmente.
// Evidence items (and disagreements) that cite no part of P do not make
// the answer invalid: a note naming them as opinion opens the file.
func (Protocol) Validate(c engine.Call, body string) (string, []string) {
	l := c.Lang
	out, got, problems := checkSections(l, body, memberSections(c.Round))
	if txt, ok := got[secConfidence]; ok && txt != "" {
		if _, ok := confidence(txt); !ok {
			problems = append(problems, fmt.Sprintf("%s states no percentage from 0 to 100 %%", secConfidence.In(l)))
		}
	}
	if txt, ok := got[secKeep]; ok && txt != "" && keepWord(txt) == "" {
		problems = append(problems, fmt.Sprintf("%s does not open with %s", secKeep.In(l), t(l, "sim, não ou parcialmente", "yes, no or partly")))
	}
	sec := secEvidence
	if c.Round > 0 {
		sec = secDisagree
	}
	return opinionNote(l, sec, opinions(got[sec], c.P)) + out, problems
}

// Inputs asks a mode, N ≥ 2 members each with a lens (no member without
// one), the cross-rebuttal rounds (at most MaxRounds) and the criteria;
// its synthesizer names no winner: an escalation waits for a human.
func (Protocol) Inputs() engine.Inputs {
	return engine.Inputs{Summary: "a member per lens, cross-rebuttals, a synthesis by lens; escalates when they diverge",
		Modes: true, MinN: 2, MaxN: engine.MaxSolvers, R: 1, MaxR: MaxRounds, Lenses: true, LensEach: true, Criteria: true, Stakes: true, StakesOver: ValueAtRiskOver,
		Rounds: "R=%d cross-rebuttal round(s)", PanelNote: "one per lens", Named: true,
		Member: "member", Members: "members", MembersPT: "membros", Final: "synthesizer",
		FinalNote: "isolated: sees P and the members' positions by lens, never by engine"}
}

// Pack appends the criteria and the stakes (value at risk,
// irreversibility) to P as sections of their own, so problema.md freezes
// them and the synthesis's escalation reads them back (P unchanged when
// none are given).
func (Protocol) Pack(s engine.Setup, evidence *bugfolder.Problem, criteria []string) *bugfolder.Problem {
	if evidence == nil || len(criteria) == 0 && !s.Stakes.Stated() {
		return evidence
	}
	var w strings.Builder
	w.WriteString(strings.TrimRight(evidence.Text, "\n") + "\n")
	if len(criteria) > 0 {
		w.WriteString("\n" + t(s.Lang, "### Critérios\n\n", "### Criteria\n\n"))
		for i, c := range criteria {
			fmt.Fprintf(&w, "%d. %s\n", i+1, c)
		}
	}
	writeStakes(&w, s.Lang, s.Stakes)
	sum := sha256.Sum256([]byte(w.String()))
	return &bugfolder.Problem{Parts: evidence.Parts, Text: w.String(), SHA256: hex.EncodeToString(sum[:]), Warnings: evidence.Warnings}
}
