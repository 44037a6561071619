// Package engine is moot's protocol-agnostic runner: it plans and prices a
// debate, runs its calls in parallel with hard timeouts and the one
// transport retry, freezes snapshots between rounds, keeps the quorum
// (asking a Supervisor when it is lost), writes every call's file durably
// and the event log, runs the isolated final step and its failure menu,
// resumes without repeating a finished call, holds the lock and keeps a
// restricted bug away from external engines. What a protocol supplies —
// roles, prompts, sections and their validator, step order, stop rule,
// final step, the plan's formula — comes through the Protocol interface
// (protocol.go), implemented by the packages under protocol/.
//
// The engine emits events and asks the Supervisor for every decision; it
// never prints and never reads a key.
package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/digits"
	"github.com/reversa/moot/internal/money"
	"github.com/reversa/moot/internal/shellword"
)

// DefaultTimeout is the hard limit per call when neither the flag nor the
// engine sets one.
const DefaultTimeout = 10 * time.Minute

// Setup is the locked input of a debate.
type Setup struct {
	// Protocol is the protocol the debate runs (cli picks it).
	Protocol Protocol
	Bug      *bugfolder.Bug
	Problem  *bugfolder.Problem
	Lang     bugfolder.Lang
	// Criteria are the criteria given for the decision (council,
	// tradeoff; frozen in P by the protocol's Pack), shown on the setup
	// lines; none: the mode's rubric or the protocol's default.
	Criteria []string
	// Mode may be empty for a plan only (the estimate then assumes the
	// largest rubric).
	Mode bugfolder.Mode
	N, R int
	// Solvers names the engine of each solver (len N).
	Solvers []string
	// Critics names the engine of each critic.
	Critics []string
	Judge   string
	// Timeout overrides every engine's own when > 0.
	Timeout time.Duration
	// Parallel bounds the calls at once (1 = the sequential fallback).
	Parallel int
	// Lenses are the solvers' lenses, one each (len N), or none.
	Lenses []bugfolder.Lens
	// Question is a question's text when Bug is a question's stand-in
	// (bugfolder.QuestionBug): problema.md freezes it.
	Question string
	// VerifyJudge asks the judge's order-swap check (--verify-judge): a
	// second judge call with every proposal moved one slot on and relabelled, counted
	// and priced in the plan (debate only).
	VerifyJudge bool
	// AllowSameFamily lifts the judge family rule (--allow-same-family);
	// the final answer records it.
	AllowSameFamily bool
	// Budget is the debate's cap (none: no cap), frozen in problema.md.
	Budget Budget
	// Stakes are the decision's value at risk and irreversibility
	// (council: --value-at-risk, --irreversible), frozen in P by Pack.
	Stakes Stakes
	// Past is the bug's register's past cost records being read ahead
	// (LearnAhead), so the plan does not wait for them; unset (or read
	// for another register), the plan reads them itself.
	Past *PastCosts
}

// Quorum is how many valid solvers a round of an n-solver panel needs:
// max(2, ⌈2n/3⌉).
func Quorum(n int) int {
	q := int(math.Ceil(2 * float64(n) / 3))
	if q < 2 {
		q = 2
	}
	return q
}

// PanelQuorum is the quorum of a panel reduced to n' solvers after
// "continue with fewer": min(max(2, ⌈2n'/3⌉), n').
func PanelQuorum(n int) int {
	return min(Quorum(n), n)
}

// CallCounts counts a debate's calls by role: the panel's (Solvers), the
// support role's (Critics) and the final step's (Judge).
type CallCounts struct {
	Solvers int `json:"solvers"`
	Critics int `json:"critics"`
	Judge   int `json:"judge"`
	Total   int `json:"total"`
}

// EngineEstimate is one engine's share of a plan.
type EngineEstimate struct {
	Name     string  `json:"name"`
	Kind     string  `json:"kind"`
	Model    string  `json:"model,omitempty"`
	External bool    `json:"external"`
	Roles    string  `json:"roles"`
	Calls    int     `json:"calls"`
	Input    int     `json:"tokens_input"`
	Output   int     `json:"tokens_output"`
	USD      float64 `json:"usd"`
	// PriceKnown is false when no price is known (USD is then 0).
	PriceKnown    bool `json:"price_known"`
	ContextTokens int  `json:"context_tokens,omitempty"`
	// BaseInput and BaseOutput are the estimate before the learned
	// correction; LearnedFrom is how many past debates taught it (0:
	// none, Input and Output are the base).
	BaseInput   int `json:"base_tokens_input"`
	BaseOutput  int `json:"base_tokens_output"`
	LearnedFrom int `json:"learned_from,omitempty"`
	// MaxAnswer is the engine's max answer size in tokens (its
	// max_output_tokens, or the model catalogue's; 0: unknown): under a
	// cap each call is admitted on it, the worst case.
	MaxAnswer int `json:"max_answer_tokens,omitempty"`
	// CachedInput is the part of Input the plan expects the provider's
	// prompt cache to serve (the shared block holding P, in every call on
	// the engine after its first) and CacheWrite the part its first call
	// writes to the cache (docs/engines.md#prompt-caching): USD prices them
	// at the cache's prices, USDUncached is the same calls with every input
	// token at the input price.
	CachedInput int     `json:"tokens_cached_input,omitempty"`
	CacheWrite  int     `json:"tokens_cache_write,omitempty"`
	USDUncached float64 `json:"usd_uncached,omitempty"`
}

// WorstTokens is the engine's share if every answer ran to its max
// answer size (its estimate where the max is unknown).
func (e EngineEstimate) WorstTokens() int {
	if e.MaxAnswer <= 0 {
		return e.Input + e.Output
	}
	return e.Input + e.Calls*e.MaxAnswer
}

// Plan is the cost of a debate, shown before anything runs.
type Plan struct {
	Setup    Setup
	Calls    CallCounts
	Formula  string
	Engines  []EngineEstimate
	Input    int
	Output   int
	USD      float64
	USDKnown bool
	// CachedInput is the input the plan expects the providers' prompt
	// caches to serve, and USDUncached the plan's cost without them (USD
	// when nothing is cached).
	CachedInput int
	USDUncached float64
	// Warnings are shown with the plan (context windows, externals…).
	Warnings []string
	// Refusals stop the debate before any call (too large for a context,
	// restricted bug with an external engine, closed bug).
	Refusals []string
	// Stages is the critical path: the stages in the order they run
	// (a round's critics before its solvers, the final step last), each
	// as long as its slowest call (PathText says it in words).
	Stages []Stage
}

// Externals lists the external engines the plan would send the bug to.
func (p *Plan) Externals() []string {
	var out []string
	for _, e := range p.Engines {
		if e.External {
			out = append(out, e.Name)
		}
	}
	return out
}

// NewPlan prices a setup. It refuses (in Refusals) what must never run: a
// restricted bug with an external engine, a closed bug, a part of P that
// does not fit the smallest context window.
// The largest debate moot runs (documented in moot help run): past these,
// a setup (or a hand-edited problema.md) is refused, never allocated.
const (
	MaxSolvers = 16
	MaxRounds  = 10
	MaxCritics = 8
)

// CheckSize refuses a panel larger than MaxSolvers, MaxRounds or
// MaxCritics (an input error: exit 2), naming the panel in p's words
// (solvers, members, reviewers, personas; nil: a debate's).
func CheckSize(p Protocol, n, r, critics int) error {
	words := Describe(p)
	switch {
	case n > MaxSolvers:
		return &bugfolder.InputError{Field: "n", Msg: fmt.Sprintf("%d %s: moot runs at most %d", n, words.Members, MaxSolvers)}
	case r > MaxRounds:
		return &bugfolder.InputError{Field: "r", Msg: fmt.Sprintf("%d rounds: moot runs at most %d after round 0", r, MaxRounds)}
	case critics > MaxCritics:
		return &bugfolder.InputError{Field: "critics", Msg: fmt.Sprintf("%d critics: moot runs at most %d", critics, MaxCritics)}
	}
	return nil
}

// NewPlan prices a setup for the engineer to accept: its calls, tokens,
// cost and critical path, its refusals and warnings — among them what
// starting it does to the bug's current debate (read in full to say so).
func NewPlan(s Setup, cfg *harness.Config) (*Plan, error) {
	return newPlan(s, cfg, true)
}

// NewPlanToRun is NewPlan for a setup accepted before its plan is shown
// (moot run --yes): the same figures and refusals, without the warning
// about the current debate being archived, which nobody reads there and
// Start, reading that debate itself, does not need.
func NewPlanToRun(s Setup, cfg *harness.Config) (*Plan, error) {
	return newPlan(s, cfg, false)
}

// newPlan is NewPlan; notice adds the warning about the bug's current
// debate being archived, which reads that debate in full (Start, which
// reads it itself and shows no warnings, leaves it out).
func newPlan(s Setup, cfg *harness.Config, notice bool) (*Plan, error) {
	if err := CheckSize(s.Protocol, s.N, s.R, len(s.Critics)); err != nil {
		return nil, err
	}
	if s.Problem != nil {
		s.Problem = redactProblem(s.Problem) // the plan carries the P that is written and sent
		limitMemory(len(s.Problem.Text))
	}
	if s.Protocol == nil {
		return nil, errors.New("plan: the setup names no protocol")
	}
	proto := s.Protocol
	panelRole, supportRole, finalRole := proto.Roles()
	c := len(s.Critics)
	p := &Plan{Setup: s, Calls: proto.Count(s), Formula: proto.Formula(s), USDKnown: true}
	p.Stages = criticalPath(s, cfg, p.Calls)
	type acc struct {
		est   *EngineEstimate
		lim   harness.Limits
		roles map[string]bool
	}
	byName := map[string]*acc{}
	get := func(name, role string) (*acc, error) {
		a := byName[name]
		if a == nil {
			ec, err := cfg.Engine(name)
			if err != nil {
				return nil, err
			}
			lim := harness.LimitsOf(ec)
			if why := projectAccessRefusal(ec); why != "" {
				p.Refusals = append(p.Refusals, why)
			}
			a = &acc{est: &EngineEstimate{Name: name, Kind: string(ec.Kind), Model: ec.Model, External: ec.External, PriceKnown: lim.Price != nil, ContextTokens: lim.ContextTokens,
				MaxAnswer: lim.MaxOutputTokens}, lim: lim, roles: map[string]bool{}}
			byName[name] = a
		}
		a.roles[role] = true
		return a, nil
	}
	pTokens := 0
	if s.Problem != nil {
		pTokens = s.Problem.Tokens()
	}
	outOf := func(a *acc, expected int) int {
		if a.lim.MaxOutputTokens > 0 && a.lim.MaxOutputTokens < expected {
			return a.lim.MaxOutputTokens
		}
		return expected
	}
	solverOut := proto.ExpectedTokens(panelRole)
	criticOut := proto.ExpectedTokens(supportRole)
	snapshot := s.N*solverOut + c*criticOut
	per := func(calls, n int) int {
		if n == 0 {
			return 0
		}
		return calls / n
	}
	perSolver, perCritic := per(p.Calls.Solvers, s.N), per(p.Calls.Critics, c)
	fit := func(a *acc, who string, in, out int) {
		if ctx := a.lim.ContextTokens; ctx > 0 && in+out > ctx {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s on engine %s needs ≈%s tokens (prompt ≈%s + answer ≈%s), more than its %s-token context window: that call will be refused before it runs", who, a.est.Name, digits.Grouped(in+out), digits.Grouped(in), digits.Grouped(out), digits.Grouped(ctx)))
		}
	}
	oSolver := proto.PromptOverhead(s, panelRole)
	oCritic := proto.PromptOverhead(s, supportRole)
	oJudge := proto.PromptOverhead(s, finalRole)
	for i, name := range s.Solvers {
		a, err := get(name, string(panelRole))
		if err != nil {
			return nil, err
		}
		out := outOf(a, solverOut)
		in0 := oSolver + pTokens // round 0 is blind
		ink := oSolver + pTokens + snapshot
		a.est.Calls += perSolver
		a.est.Input += in0 + (perSolver-1)*ink
		a.est.Output += perSolver * out
		if perSolver > 1 {
			fit(a, fmt.Sprintf("a round-1 call of %s", s.Lang.SolverID(i+1)), ink, out)
		} else {
			fit(a, fmt.Sprintf("the round-0 call of %s", s.Lang.SolverID(i+1)), in0, out)
		}
	}
	for j, name := range s.Critics {
		a, err := get(name, string(supportRole))
		if err != nil {
			return nil, err
		}
		out := outOf(a, criticOut)
		in := oCritic + pTokens + snapshot
		a.est.Calls += perCritic
		a.est.Input += perCritic * in
		a.est.Output += perCritic * out
		if perCritic > 0 {
			fit(a, fmt.Sprintf("a call of %s", s.Lang.CriticID(j+1)), in, out)
		}
	}
	if s.Judge != "" {
		a, err := get(s.Judge, string(finalRole))
		if err != nil {
			return nil, err
		}
		out := outOf(a, proto.ExpectedTokens(finalRole))
		in := oJudge + pTokens + s.N*solverOut
		a.est.Calls += p.Calls.Judge
		a.est.Input += p.Calls.Judge * in
		a.est.Output += p.Calls.Judge * out
		fit(a, "the judge's call", in, out)
	}
	// parts of P that cannot fit the smallest context window
	minCtx, minName := 0, ""
	for name, a := range byName {
		if ctx := a.lim.ContextTokens; ctx > 0 && (minCtx == 0 || ctx < minCtx) {
			minCtx, minName = ctx, name
		}
	}
	if s.Problem != nil && minCtx > 0 {
		for _, part := range s.Problem.Parts {
			if t := bugfolder.EstimateTokens(len(part.Text)); t > minCtx {
				p.Refusals = append(p.Refusals, fmt.Sprintf("%s is ≈%s tokens, more than the %s-token context window of engine %s (the smallest chosen); moot never truncates P: trim the file or choose engines with larger windows", part.Path, digits.Grouped(t), digits.Grouped(minCtx), minName))
			}
		}
	}
	learned := pastLearning(s)
	for _, a := range byName {
		applyLearned(a.est, learned)
		roles := make([]string, 0, len(a.roles))
		for r := range a.roles {
			roles = append(roles, r)
		}
		sort.Strings(roles)
		a.est.Roles = strings.Join(roles, ", ")
		if harness.PrefixCached(harness.Kind(a.est.Kind)) && pTokens >= harness.MinCachedTokens && a.est.Calls > 1 {
			a.est.CacheWrite = pTokens
			a.est.CachedInput = min((a.est.Calls-1)*pTokens, max(a.est.Input-pTokens, 0))
		}
		if a.lim.Price != nil {
			a.est.USD = a.lim.Price.CostCached(a.est.Input, a.est.CachedInput, a.est.CacheWrite, a.est.Output)
			a.est.USDUncached = a.lim.Price.Cost(a.est.Input, a.est.Output)
		} else {
			p.USDKnown = false
			p.Warnings = append(p.Warnings, fmt.Sprintf("engine %s has no known price: its cost is not in the total (set price: in the engines file)", a.est.Name))
		}
		if !Distinctive(a.est.Name) {
			p.Warnings = append(p.Warnings, fmt.Sprintf("engine %s is named like a common word: its name cannot be hidden from peers and the judge without altering prose, so it is left as written (rename it, e.g. %s-1, to hide it)", a.est.Name, a.est.Name))
		}
		if m := a.est.Model; m != "" && !Distinctive(m) {
			p.Warnings = append(p.Warnings, fmt.Sprintf("model %s of engine %s is named like a common word: it cannot be hidden from peers and the judge", m, a.est.Name))
		}
		if a.lim.ContextTokens == 0 {
			p.Warnings = append(p.Warnings, fmt.Sprintf("engine %s has an unknown context window: prompts are not checked against it (set context_tokens: in the engines file)", a.est.Name))
		}
		p.Engines = append(p.Engines, *a.est)
		p.Input += a.est.Input
		p.Output += a.est.Output
		p.USD += a.est.USD
		p.USDUncached += a.est.USDUncached
		p.CachedInput += a.est.CachedInput
	}
	sort.Slice(p.Engines, func(i, j int) bool { return p.Engines[i].Name < p.Engines[j].Name })
	if s.Problem != nil {
		p.Warnings = append(p.Warnings, s.Problem.Warnings...)
	}
	sort.Strings(p.Warnings)
	if ext := p.Externals(); len(ext) > 0 {
		if s.Bug != nil && s.Bug.Restricted() {
			p.Refusals = append(p.Refusals, fmt.Sprintf("the bug is visibility: restricted and engine(s) %s are external; restricted bugs never reach an external engine: choose local engines", strings.Join(ext, ", ")))
		} else {
			p.Warnings = append(p.Warnings, fmt.Sprintf("external engine(s) %s will receive the bug (P) and the proposals", strings.Join(ext, ", ")))
		}
	}
	p.Refusals = append(p.Refusals, proto.Refusals(s)...)
	p.Refusals = append(p.Refusals, FamilyRefusals(s, cfg)...)
	if w := SameEngineJudge(s, cfg); w != "" {
		p.Warnings = append(p.Warnings, w)
	}
	if s.Bug != nil {
		if notice {
			p.Warnings = append(p.Warnings, archiveNotice(s.Bug)...)
		}
		if s.Problem != nil {
			p.Warnings = append(p.Warnings, s.Problem.Warnings...)
		}
	}
	if s.Bug != nil && s.Bug.Locked() {
		p.Refusals = append(p.Refusals, fmt.Sprintf("%s exists: the bug is closed and read-only; moot shows its debates but starts none there", s.Bug.Register.Rel(s.Bug.Dir)+"/"+bugfolder.DoneFile))
	}
	return p, nil
}

// archiveNotice says what starting this debate does to the bug's current
// debate/: a finished one (or an unfinished one run by hand) is moved
// aside, and the plan names where its answer will be while the new debate
// runs — the fix step reads only debate/resposta-final.md.
func archiveNotice(b *bugfolder.Bug) []string {
	dir := b.DebateFolder()
	old, err := bugfolder.ReadDebate(dir, b.Register.Lang)
	if err != nil || !old.Archivable() {
		return nil
	}
	to := b.Register.Rel(bugfolder.ArchivePath(b.Dir, old.ArchiveTime()))
	from := b.Register.Rel(dir)
	if old.Final != nil && old.Decidable() {
		return []string{fmt.Sprintf("%s/ holds a result that waits for a human decision%s: it will be archived as %s/ undecided; `moot decide %s approve|decline|revise` still records the decision there (or decide it before starting)", from, verdictNote(old), to, b.ID)}
	}
	if old.Final != nil {
		return []string{fmt.Sprintf("%s/ holds a finished debate: it will be archived as %s/ when this debate starts; until this one finishes, %s/%s is absent and the previous answer is at %s/%s", from, to, from, bugfolder.PT.Names().Final, to, filepath.Base(old.Final.Path))}
	}
	if old.State == bugfolder.StateCancelled {
		return []string{fmt.Sprintf("%s/ holds a cancelled debate without a final answer: it will be archived as %s/ when this debate starts", from, to)}
	}
	if !old.HandRun() {
		return []string{fmt.Sprintf("%s/ holds an unfinished debate (%s) written with the translated names, which moot cannot continue in place: it will be archived as %s/ when this debate starts", from, old.State, to)}
	}
	return []string{fmt.Sprintf("%s/ holds an unfinished debate (%s) run by hand, with no event log: moot cannot resume it call by call, so it will be archived as %s/ when this debate starts (to finish it by hand instead, cancel now)", from, old.State, to)}
}

// verdictNote names a result's recommended verdict in parentheses ("" for
// none).
func verdictNote(d *bugfolder.Debate) string {
	if d.Final == nil || d.Final.RecommendedVerdict == "" {
		return ""
	}
	return " (recommended verdict: " + d.Final.RecommendedVerdict + ")"
}

// ArchivedPendingNote says that starting a debate archived a result that
// still waits for a human decision (old, moved to the folder to, as
// Options.Archived is told) and how to record that decision there; ""
// when the result archived waits for none.
func ArchivedPendingNote(b *bugfolder.Bug, old *bugfolder.Debate, to string) string {
	if old == nil || old.Final == nil || !old.Decidable() {
		return ""
	}
	return fmt.Sprintf("the previous result%s waited for a human decision: it is archived undecided as %s/; `moot decide %s/ approve|decline|revise` still records the decision there", verdictNote(old), b.Register.Rel(to), shellword.Quote(b.Register.Rel(to)))
}

// USD formats a dollar amount as moot shows money (money.USD).
func USD(v float64) string { return money.USD(v) }

// redactProblem is P as it is written and sent: a copy with the secret
// values of moot's environment (and the engines' api_key_env) replaced and
// a warning naming the files they were found in. P that holds none (P
// already redacted too) is returned itself, so a large P is never copied
// for nothing; p is never changed (the caller's view may be reading it).
func redactProblem(p *bugfolder.Problem) *bugfolder.Problem {
	red := harness.NewRedactor(harness.SecretValues(nil)...)
	if red.Empty() || red.String(p.Text) == p.Text {
		return p
	}
	c := *p
	c.Parts = slices.Clone(p.Parts)
	var where []string
	for i := range c.Parts {
		if t := red.String(c.Parts[i].Text); t != c.Parts[i].Text {
			c.Parts[i].Text = t
			where = append(where, c.Parts[i].Path)
		}
	}
	if len(where) == 0 {
		where = []string{"a header of P"}
	}
	c.Text = red.String(p.Text)
	sum := sha256.Sum256([]byte(c.Text))
	c.SHA256 = hex.EncodeToString(sum[:])
	c.Warnings = append(slices.Clone(p.Warnings), fmt.Sprintf("%s hold(s) a secret value of your environment (a *_KEY, *TOKEN*, *SECRET*, *PASSWORD* variable): it is replaced by %s in P, which is written and sent without it; remove it from the file", strings.Join(where, ", "), harness.Redacted))
	return &c
}

// CachingLine says, for the cost screen and moot plan, that the estimate
// counts the providers' prompt caches and what it would be without them
// ("" when the plan expects no cached input).
func CachingLine(p *Plan) string {
	if p.CachedInput == 0 {
		return ""
	}
	line := fmt.Sprintf("With prompt caching: P is sent in full once per engine, then ≈%s input tokens are read from the providers' caches at their cached-input price", grouped(p.CachedInput))
	if p.USDKnown || p.USDUncached > 0 {
		line += fmt.Sprintf(" (without caching: %s)", money.Estimate(p.USDUncached, !p.USDKnown))
	}
	return line + "."
}

// grouped writes a count with its thousands grouped by commas (268,020),
// as the plan's table does.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
