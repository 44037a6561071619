// Package argue is the argue protocol (docs/protocols/argue.md) on moot's runner: personas debate a
// question toward a nuanced synthesis, not a winner. Each round every
// persona, in parallel, reads only the others' published arguments of the
// round before and writes its argument, rebuttal, forced concessions,
// confidence (0.0–1.0) and what would change its mind; then an isolated
// scorer rates each persona's round, anonymized, as strict JSON with the
// protocol's weights (docs/protocols/argue.md). The debate stops on convergence, null production, the
// round cap or a manual stop, and a synthesizer writes the eight sections
// of docs/protocols/argue.md. Per persona, moot keeps concessions.json and confidence.json;
// per round scoring/round_NNN.json, then scoring/summary.json and
// transcript.md.
package argue

import (
	"fmt"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Name is the protocol's name, as --protocol takes it.
const Name = "argue"

// The protocol's roles (docs/protocols/argue.md): personas, the scorer, the synthesizer.
const (
	RolePersona     bugfolder.Role = "persona"
	RoleScorer      bugfolder.Role = "scorer"
	RoleSynthesizer bugfolder.Role = "synthesizer"
)

// DefaultRounds is the round cap (rounds after round 0) when -r is not
// given: the protocol's quick debate of three rounds in all.
const DefaultRounds = 2

// Expected answer sizes, in tokens, for estimates.
const (
	ExpectedPersonaTokens     = 1200
	ExpectedScorerTokens      = 300
	ExpectedSynthesizerTokens = 2000
)

// The modes (--style) of docs/protocols/argue.md.
const (
	Adversarial    = "adversarial"
	Panel          = "panel"
	Socratic       = "socratic"
	DevilsAdvocate = "devils-advocate"
)

// Styles lists the modes in the order help lists them.
var Styles = []string{Adversarial, Panel, Socratic, DevilsAdvocate}

// Protocol is the argue protocol (docs/protocols/argue.md). Its zero value is ready to use.
type Protocol struct{}

var (
	_ engine.Protocol        = Protocol{}
	_ engine.Stopper         = Protocol{}
	_ engine.SupportRequired = Protocol{}
	_ engine.Artifacts       = Protocol{}
)

// Name is "argue".
func (Protocol) Name() string { return Name }

// SupportJudges is set: the scorer judges the personas, so the judge
// family rule (docs/beyond.md) holds it as it holds the synthesizer.
func (Protocol) SupportJudges() bool { return true }

// Roles are persona (the panel), scorer (support, every round) and
// synthesizer (final).
func (Protocol) Roles() (panel, support, final bugfolder.Role) {
	return RolePersona, RoleScorer, RoleSynthesizer
}

// Rubric is the scorer's frozen rubric: the protocol's six metrics and their
// weights.
func (Protocol) Rubric(l bugfolder.Lang, m bugfolder.Mode) []string {
	out := make([]string, len(Criteria))
	for i, c := range Criteria {
		out[i] = fmt.Sprintf("%s (%s) ×%g", t(l, c.PT, c.EN), c.Key, c.Weight)
	}
	return out
}

// Count is the most calls the debate may make: N personas and the scorer
// each round up to the cap, and the synthesizer: N×(R+1) + (R+1) + 1.
func (Protocol) Count(s engine.Setup) engine.CallCounts {
	cc := engine.CallCounts{Solvers: s.N * (s.R + 1), Critics: s.R + 1, Judge: 1}
	cc.Total = cc.Solvers + cc.Critics + cc.Judge
	return cc
}

// Formula states the maximum and says whether the debate may stop
// earlier: its stop rules hold from round 2 on, so under a cap of 0 or 1
// every round runs (only a manual stop ends it sooner).
func (p Protocol) Formula(s engine.Setup) string {
	if s.R < 2 {
		return fmt.Sprintf("at most %d×(%d+1) + (%d+1) + 1 = %d calls (round cap: %d round(s) after round 0; the stop rules hold from round 2, so every round runs)",
			s.N, s.R, s.R, p.Count(s).Total, s.R)
	}
	return fmt.Sprintf("at most %d×(%d+1) + (%d+1) + 1 = %d calls (round cap: %d round(s) after round 0; the debate may stop earlier, on convergence or null production)",
		s.N, s.R, s.R, p.Count(s).Total, s.R)
}

// Refusals refuses a panel of fewer than two personas, a persona without
// its frozen lens, and anything but one scorer.
func (Protocol) Refusals(s engine.Setup) []string {
	var out []string
	if s.N < 2 {
		out = append(out, fmt.Sprintf("argue needs at least 2 personas; -n %d", s.N))
	}
	if len(s.Critics) != 1 {
		out = append(out, fmt.Sprintf("argue has exactly one scorer (--scorer); %d given", len(s.Critics)))
	}
	if len(s.Lenses) != s.N {
		out = append(out, "argue needs one persona per participant: give --persona")
	}
	for _, l := range s.Lenses {
		if strings.TrimSpace(l.Name) == "" || strings.TrimSpace(l.Text) == "" {
			out = append(out, "a persona without a name or text")
			break
		}
	}
	return out
}

// ExpectedTokens is a role's expected answer size.
func (Protocol) ExpectedTokens(role bugfolder.Role) int {
	switch role {
	case RoleSynthesizer:
		return ExpectedSynthesizerTokens
	case RoleScorer:
		return ExpectedScorerTokens
	}
	return ExpectedPersonaTokens
}

// PromptOverhead renders a role's prompt with an empty P.
func (p Protocol) PromptOverhead(s engine.Setup, role bugfolder.Role) int {
	nonce := strings.Repeat("0", 24)
	var text string
	switch role {
	case RoleSynthesizer:
		text = p.Final(engine.FinalInput{Lang: s.Lang, R: s.R}).Prompt()
		// it reads every round's answers, not only the last round's the
		// plan counts for a final step: the earlier rounds are overhead
		return bugfolder.EstimateTokens(len(text)) + s.N*s.R*ExpectedPersonaTokens
	case RoleScorer:
		text = scorerPrompt(engine.Call{Lang: s.Lang, Role: role, N: s.N, R: s.R, Round: 1, Nonce: nonce})
		// round k's scorer also reads rounds 0..k-1's answers (novelty):
		// k·N earlier answers, R·N/2 a call on average over rounds 0..R
		return bugfolder.EstimateTokens(len(text)) + s.N*s.R*ExpectedPersonaTokens/2
	default:
		text = personaPrompt(engine.Call{Lang: s.Lang, Role: role, N: s.N, R: s.R, Round: 1, Nonce: nonce})
	}
	return bugfolder.EstimateTokens(len(text))
}

// Batches runs every persona together, then the scorer over their
// answers: each round, round 0 included.
func (Protocol) Batches(k int, panel, support []string) [][]string {
	if len(support) == 0 {
		return [][]string{panel}
	}
	return [][]string{panel, support}
}

// Continue caps the rounds: never past R (Stop may end them earlier).
func (Protocol) Continue(k, r int) bool { return k < r }

// SupportRequired: a round without a valid score is a scorer failure,
// asked through the quorum menu.
func (Protocol) SupportRequired() bool { return true }

// Prompt writes a persona's or the scorer's prompt.
func (Protocol) Prompt(c engine.Call) string {
	if c.Role == RoleScorer {
		return scorerPrompt(c)
	}
	return personaPrompt(c)
}

// Validate checks a persona's sections and confidence, or the scorer's
// strict JSON (rewritten by persona id, labels kept).
func (Protocol) Validate(c engine.Call, body string) (string, []string) {
	if c.Role == RoleScorer {
		return validateScores(c, body)
	}
	out, got, problems := checkSections(c.Lang, body, personaSections)
	if text, ok := got[secConfidence]; ok && text != "" {
		if _, err := parseConfidence(text); err != nil {
			problems = append(problems, fmt.Sprintf("%s %v", secConfidence.In(c.Lang), err))
		}
	}
	return out, problems
}

// Inputs gives argue's words to the menus (persona, synthesizer, no
// winner). argue debates a question only (moot ask), so the wizard of a
// bug does not offer it; its personas are chosen by the ask flags.
func (Protocol) Inputs() engine.Inputs {
	return engine.Inputs{Summary: "personas argue, concede and score; stops on convergence; a nuanced synthesis",
		MinN: 2, MaxN: engine.MaxSolvers, R: DefaultRounds, MaxR: engine.MaxRounds, RCap: true, Lenses: true, LensEach: true, LensesWord: "personas",
		Support: true, Supporter: "scorer", Rounds: "R=%d round(s) at most, stops on convergence", Named: true,
		Member: "persona", Members: "personas", MembersPT: "personas", Final: "synthesizer", NoDecision: true,
		FinalNote: "isolated: sees every round's arguments and scores by persona, never by engine"}
}
