// Package debate is the debate protocol (docs/protocols/debate.md) on moot's runner: N independent
// solvers answer alone in round 0, then R fixed rounds in which every
// solver reads the frozen snapshot of the round before (and the critiques
// of its own round: critics run first), never stopping early; then an
// isolated judge that sees only the anonymized proposals of round R and
// the frozen rubric picks a winner, grafts and a synthesis.
//
// It supplies the runner (package engine) with its roles (solver, critic,
// judge), their prompts, the mode's sections and their validator, the
// step order, the stop rule, the judge as the final step and the plan's
// formula N×(R+1) + C×R + 1.
package debate

import (
	"fmt"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Name is the protocol's name, as --protocol takes it. It is the default
// protocol: a problema.md that names none ran this one.
const Name = bugfolder.DefaultProtocol

// Expected answer sizes, in tokens, used by the estimate when an engine
// does not cap its output lower.
const (
	ExpectedSolverTokens = 1500
	ExpectedCriticTokens = 800
	ExpectedJudgeTokens  = 2500
)

// Protocol is the debate protocol (docs/protocols/debate.md). Its zero value is ready to use.
type Protocol struct{}

var _ engine.Protocol = Protocol{}

// Name is "debate".
func (Protocol) Name() string { return Name }

// Roles are solver (the panel), critic (support) and judge (final step).
func (Protocol) Roles() (panel, support, final bugfolder.Role) {
	return bugfolder.RoleSolver, bugfolder.RoleCritic, bugfolder.RoleJudge
}

// Rubric is the mode's frozen rubric.
func (Protocol) Rubric(l bugfolder.Lang, m bugfolder.Mode) []string { return bugfolder.Rubric(m, l) }

// Count returns the calls of N solvers, R rounds after round 0 and C
// critics: N×(R+1) + C×R + 1, and one more judge call for the order-swap
// check (--verify-judge).
func (Protocol) Count(s engine.Setup) engine.CallCounts {
	n, r, c := s.N, s.R, len(s.Critics)
	cc := engine.CallCounts{Solvers: n * (r + 1), Critics: c * r, Judge: 1}
	if s.VerifyJudge {
		cc.Judge++ // the order-swap check's second judge call
	}
	cc.Total = cc.Solvers + cc.Critics + cc.Judge
	return cc
}

// Formula writes the call count with its numbers filled in:
// "3×(2+1) + 0×2 + 1 = 10 calls".
func (p Protocol) Formula(s engine.Setup) string {
	c := len(s.Critics)
	check := ""
	if s.VerifyJudge {
		check = " + 1 order-swap check"
	}
	return fmt.Sprintf("%d×(%d+1) + %d×%d + 1%s = %d calls", s.N, s.R, c, s.R, check, p.Count(s).Total)
}

// Refusals refuses critics without a round to be read in.
func (Protocol) Refusals(s engine.Setup) []string {
	if c := len(s.Critics); c > 0 && s.R == 0 {
		return []string{fmt.Sprintf("%d critic(s) with -r 0: critics run in rounds 1..R and round k's solvers read them, so with no round after round 0 nobody would read a critique; drop --critic or give -r 1 or more", c)}
	}
	return nil
}

// ExpectedTokens is a role's expected answer size.
func (Protocol) ExpectedTokens(role bugfolder.Role) int {
	switch role {
	case bugfolder.RoleCritic:
		return ExpectedCriticTokens
	case bugfolder.RoleJudge:
		return ExpectedJudgeTokens
	}
	return ExpectedSolverTokens
}

// PromptOverhead measures a role's instructions in tokens by rendering the
// real prompt with an empty P and no snapshot (a plan without a mode
// assumes repair, the largest rubric).
func (Protocol) PromptOverhead(s engine.Setup, role bugfolder.Role) int {
	l, m := s.Lang, s.Mode
	if m == "" {
		m = bugfolder.Repair
	}
	rubric := bugfolder.Rubric(m, l)
	var text string
	switch role {
	case bugfolder.RoleJudge:
		text = JudgePrompt{Lang: l, Mode: m, Rubric: rubric, Nonce: strings.Repeat("0", 24)}.Render()
	default:
		text = DebaterPrompt{Lang: l, Mode: m, Role: role, ID: l.SolverID(s.N), N: s.N, R: s.R, Round: 1, Rubric: rubric, Nonce: strings.Repeat("0", 24)}.Render()
	}
	return bugfolder.EstimateTokens(len(text))
}

// Batches runs round k's critics first, on the frozen snapshot of k-1, so
// that round k's solvers read their critiques; round 0 has no critics.
func (Protocol) Batches(k int, panel, support []string) [][]string {
	if k == 0 {
		return [][]string{panel}
	}
	return [][]string{support, panel}
}

// Continue is the debate protocol's stop rule: R fixed rounds, never stopping early.
func (Protocol) Continue(k, r int) bool { return k < r }

// Prompt writes a solver's or a critic's prompt.
func (Protocol) Prompt(c engine.Call) string {
	p := DebaterPrompt{Lang: c.Lang, Mode: c.Mode, Role: c.Role, ID: c.ID, N: c.N, R: c.R, Round: c.Round,
		Rubric: c.Rubric, P: c.P, Snapshot: c.Snapshot, Nonce: c.Nonce, Lens: c.Lens, Out: c.Out}
	if c.Role == bugfolder.RoleSolver {
		p.Critiques = c.Earlier
	}
	return p.Render()
}

// Validate rewrites recognised variants of the headings to the debate's
// canonical ones (the raw output keeps the model's) and checks the mode's
// sections, their order and the confidence; a critic must address every
// proposal of the snapshot, and a solver's critique name at least one of
// the others' (docs/protocols/debate.md: the critique proves it read the snapshot).
func (Protocol) Validate(c engine.Call, body string) (string, []string) {
	body = bugfolder.CanonicalHeadings(body, c.Lang)
	var peers, others []string
	if c.Role == bugfolder.RoleCritic {
		peers = c.Peers
	} else {
		others = otherProposals(c.Snapshot)
	}
	v := bugfolder.ValidateDebater(body, bugfolder.Expect{Lang: c.Lang, Mode: c.Mode, Role: c.Role, Round: c.Round, Peers: peers, Others: others})
	var problems []string
	for _, p := range v.Problems {
		problems = append(problems, p.String())
	}
	return body, problems
}

// Measure computes a round's convergence row.
func (Protocol) Measure(m bugfolder.Mode, j, called int, cur, prev map[string]string) engine.ConvergenceRow {
	return Measure(m, j, called, cur, prev)
}

// RenderConvergence writes convergencia.md.
func (Protocol) RenderConvergence(l bugfolder.Lang, m bugfolder.Mode, rows []engine.ConvergenceRow, notes []string) string {
	ms := make([]RoundMetrics, len(rows))
	for i, r := range rows {
		ms[i], _ = r.(RoundMetrics)
	}
	return RenderConvergence(l, m, ms, notes)
}

// Inputs asks a mode, N ≥ 2 solvers (each may have a lens), R rounds and
// critics; its final step is a judge that names a winner.
func (Protocol) Inputs() engine.Inputs {
	return engine.Inputs{Summary: "solvers propose, critique and revise; a judge picks a winner",
		Modes: true, MinN: 2, MaxN: engine.MaxSolvers, R: 2, MaxR: engine.MaxRounds, Rounds: "R=%d rounds after round 0",
		Lenses: true, Support: true, Supporter: "critic", Member: "solver", Members: "solvers", MembersPT: "debatedores", Final: "judge", Winner: true,
		FinalNote: "isolated: sees only the rubric, P and the final proposals"}
}

// otherProposals are the ids of the snapshot's valid proposals other than
// the reader's own (none for a solver left alone).
func otherProposals(snap []engine.SnapshotEntry) []string {
	var out []string
	for _, e := range snap {
		if !e.Own && !e.Critic && !e.Missing {
			out = append(out, e.ID)
		}
	}
	return out
}
