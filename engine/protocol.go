package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/lazyre"
)

// Protocol is what one protocol supplies the runner (docs/architecture.md): its roles,
// their prompts, the sections of their answers and the validator, the
// order of its steps, its stop rule, its final step and the formula of its
// plan. Everything else is the runner's and the same for every protocol:
// the plan's tokens and prices, parallel calls with hard timeouts and the
// one transport retry, frozen snapshots between rounds, statuses, the
// quorum and its menu, durable per-call files, the event log, resume that
// never repeats a finished call, the isolated final step's attempts and
// failure menu, the lock, the engines' identities and the restricted rule.
//
// A protocol lives in its own package under protocol/ and imports engine;
// cli picks one and hands it over in Setup (a new debate) or Options (a
// resume).
type Protocol interface {
	// Name is the protocol's name, as --protocol takes it.
	Name() string
	// Roles names the panel's role (its valid answers count for the
	// quorum and reach the final step), the support role (called from
	// round 1 on, as Batches orders it, never counted for the quorum) and
	// the final step's role.
	Roles() (panel, support, final bugfolder.Role)
	// Rubric is the frozen rubric of a mode, written into problema.md
	// before round 0 and applied by the final step.
	Rubric(l bugfolder.Lang, m bugfolder.Mode) []string

	// Count counts a setup's calls per role; Formula writes that count
	// with its numbers filled in, for the cost screen and the setup event.
	Count(s Setup) CallCounts
	Formula(s Setup) string
	// Refusals lists why a setup may never run under this protocol
	// (checked with the plan, before anything is written).
	Refusals(s Setup) []string
	// ExpectedTokens is a role's expected answer size, for estimates.
	ExpectedTokens(role bugfolder.Role) int
	// PromptOverhead measures a role's instructions in tokens: its prompt
	// with an empty P and no snapshot.
	PromptOverhead(s Setup, role bugfolder.Role) int

	// Batches lists the calls of round k in the order they run: every
	// batch reads the frozen snapshot of round k-1 and the valid answers
	// of the batches before it in round k. panel and support are the
	// participants still in.
	Batches(k int, panel, support []string) [][]string
	// Continue is the stop rule: whether round k+1 runs after round k, in
	// a debate planned for r rounds after round 0.
	Continue(k, r int) bool
	// Prompt writes one participant's whole prompt.
	Prompt(c Call) string
	// Validate checks an answer the engine gave: it returns the body as
	// the participant's file keeps it, and the problems that make it
	// invalid-output (none when it is valid).
	Validate(c Call, body string) (string, []string)

	// Measure computes round j's convergence row from the valid panel
	// answers of rounds j and j-1 (id → body) and how many were called.
	Measure(m bugfolder.Mode, j, called int, cur, prev map[string]string) ConvergenceRow
	// RenderConvergence writes convergencia.md from the rows measured so
	// far (round 0 first) and the runner's notes (failures, decisions).
	RenderConvergence(l bugfolder.Lang, m bugfolder.Mode, rows []ConvergenceRow, notes []string) string

	// Final prepares the isolated final step over the last round.
	Final(in FinalInput) Final
}

// ConvergenceRow is a protocol's measure of one round. The runner keeps
// the rows of finished rounds and hands them back to be rendered.
type ConvergenceRow any

// Call is what a protocol is told to write one participant's prompt and to
// check its answer.
type Call struct {
	Lang   bugfolder.Lang
	Mode   bugfolder.Mode
	Role   bugfolder.Role
	ID     string
	N, R   int
	Round  int
	Rubric []string
	P      string
	// Snapshot is the frozen panel of round k-1 (the reader's own answer
	// marked Own), by protocol id, engine names scrubbed.
	Snapshot []SnapshotEntry
	// Earlier are the valid answers of round k's earlier batches (a
	// debate's critiques), scrubbed like the snapshot.
	Earlier []SnapshotEntry
	// Peers are the panel members with a valid answer in the snapshot.
	Peers []string
	// Nonce fences the untrusted text of the snapshot.
	Nonce string
	// Lens is the participant's frozen lens (zero: none).
	Lens bugfolder.Lens
	// Opening is the frozen panel of round 0 from round 2 on (in round 1
	// it is the Snapshot), for a protocol whose later rounds keep the
	// opening positions in view (council's rebuttals read the positions);
	// nil before round 2.
	Opening []SnapshotEntry
	// Out are the panel members out of the debate (left out after
	// failing: a quorum menu's continue, or no opening position), each
	// Missing with the status of its last file and its lens, so a prompt
	// names who is absent and why; nil when every member is in.
	Out []SnapshotEntry
	// History are the valid panel answers of every earlier round (rounds
	// 0 to k-1, oldest first), scrubbed like the snapshot, for a support
	// call that reads the panel after it answers (argue's scorer judges
	// what is new against them); nil for every other call.
	History [][]SnapshotEntry
}

// SnapshotEntry is one file of the frozen snapshot of the previous round as
// a participant sees it: by protocol id, never by engine.
type SnapshotEntry struct {
	ID string
	// Critic marks an answer of the support role.
	Critic bool
	// Own marks the reader's own previous answer.
	Own bool
	// Missing is set when the participant has no valid answer in that
	// round; Status then says why.
	Missing bool
	Status  bugfolder.Status
	Body    string
	// Lens is that participant's frozen lens (zero: none), so a protocol
	// may name peers by lens.
	Lens bugfolder.Lens
}

// FinalInput is what the final step works from: the valid panel answers of
// the last round, and who took part.
type FinalInput struct {
	Lang   bugfolder.Lang
	Mode   bugfolder.Mode
	Rubric []string
	P      string
	// N is the panel as planned; Panel lists its ids in order (those
	// without a valid answer are absent from Answers).
	N     int
	Panel []string
	// Answers are the last round's valid panel answers, by id.
	Answers map[string]string
	// Names are the engine and model names to hide from the final step.
	Names []string
	// Missing gives each panel member absent from Answers its status: that
	// of its latest file ("" when it wrote none), so the final step can
	// name who failed and how (docs/cli.md: never invented, always named).
	Missing map[string]bugfolder.Status
	// Lenses are the participants' frozen lenses, by id (none: absent).
	Lenses map[string]bugfolder.Lens
	// Opening are the valid panel answers of round 0, by id, for a final
	// step that weighs the opening positions beside the last round's
	// answers (council's synthesizer); the same map as Answers when the
	// last round is round 0.
	Opening map[string]string
	// Last is the round the final step reads; R the rounds planned after
	// round 0. StopReason says why a Stopper ended the debate early (empty
	// when it ran to its planned rounds).
	Last, R    int
	StopReason string
	// Live is set when round Last is still running (an Artifacts
	// protocol's files rewritten as each of its calls lands).
	Live bool
	// Ended is how a debate that ended without its final step ended
	// ("cancelled"), "" otherwise.
	Ended string
	// Rounds are every round's valid answers up to Last (panel and
	// support), for a final step that reads more than the last round.
	Rounds []RoundAnswers
	// Frozen is P's text while P itself stands as the mark the prompt is
	// cut at (the final call's prompt holds no copy of P), for a final
	// step that reads back what its protocol froze in P (council's
	// stakes); it is never written into a prompt.
	Frozen string
}

// RoundAnswers are one round's valid answers (panel and support), by id.
type RoundAnswers map[string]string

// Stopper is an optional part of a Protocol whose stop rule reads the
// answers (argue's convergence and null production). After every round k,
// the last one (k == r) included, the runner asks Stop with the panel as
// planned (every member's id, dropped ones too) and the valid answers of
// rounds 0..k; a non-empty reason ends the debate after round k: it is
// logged as a decision (point "stop", by moot), printed, and handed to the
// final step in FinalInput.StopReason. A protocol that names its cap as a
// rule returns it for k == r when no other rule holds, so that stop is
// logged too. Continue still caps the rounds.
type Stopper interface {
	Stop(k, r int, panel []string, rounds []RoundAnswers) (choice, reason string)
}

// OpeningRequired is an optional part of a Protocol whose later rounds
// defend the opening positions (council: a rebuttal keeps or changes its
// member's round-0 position). A panel member without a valid round-0
// answer, when round 0 still held its quorum (so no menu asked), has no
// position to defend: before round 1 the runner leaves it out of the
// rounds that follow, logs that as a decision (point "opening", choice
// "continue", by moot, the members in Dropped), and the final step finds
// it missing, so the final answer counts it absent (degraded).
type OpeningRequired interface {
	OpeningRequired() bool
}

// StopRequester is an optional part of a Supervisor (the TUI's) through
// which a human asks a Stopper protocol's debate to stop: the round in
// flight finishes, the stop is logged (point "stop", choice "manual", by
// human) and the final step runs on that round.
type StopRequester interface {
	StopRequested() bool
}

// SupportRequired is an optional part of a Protocol whose support role must
// answer validly every round (argue's scorer): a failed support call goes
// through the quorum menu like a failed panel member (retry, swap, a new
// timeout, continue without it for that round, cancel).
type SupportRequired interface {
	SupportRequired() bool
}

// Artifacts is an optional part of a Protocol that keeps files of its own
// beside the rounds' (argue's concessions.json, confidence.json, scoring/
// and transcript.md). The runner calls it after every round and after the
// final answer is written, and writes each returned file — a path relative
// to the debate folder → its bytes — atomically, owner-only. The files are
// derived from the rounds' files, so a resume rewrites them the same. A
// nil value removes the file, if there is one (a file of a round that was
// written live, then discarded).
type Artifacts interface {
	Artifacts(in FinalInput, final string) map[string][]byte
}

// Final is a protocol's isolated final step over one FinalInput. The
// runner calls the engine with Prompt, keeps every failed attempt, asks
// the Supervisor when one fails, and writes what Accept or Human returns.
type Final interface {
	// Prompt is the final step's whole prompt.
	Prompt() string
	// Choices are the answers a human may choose when the step fails
	// (label and anonymized text), in label order.
	Choices() []LabelPreview
	// Accept checks the final step's answer: the document to write, or
	// the problems that make it a failure.
	Accept(body string) (FinalDoc, []string)
	// Human is the document of a human's choice of a label after the step
	// failed attempts times; ok is false when the label names no choice.
	Human(label string, attempts int) (doc FinalDoc, ok bool)
}

// FinalDoc is a final answer as a protocol made it. The runner adds the
// call's front matter, who decided, the participants and the totals, and
// the degraded line when part of the panel is absent.
type FinalDoc struct {
	// Head goes before the body, after the runner's degraded line.
	Head string
	Body string
	// Meta holds the protocol's own fields of the final answer's front
	// matter (winner, labels, accepted contributions, verdict…).
	Meta bugfolder.FinalMeta
	// Warnings are logged as warning events once the answer is written.
	Warnings []string
}

// Inputs describes a protocol to the front ends that set one up or answer
// its menus (the TUI's wizard, its quorum and final-step menus): what to
// ask before it runs, and the words for its roles. A protocol supplies it
// by implementing Describer, so a new protocol joins the wizard and the
// menus by the data it returns, with no switch on its name.
type Inputs struct {
	// Summary is one line for the list of protocols.
	Summary string
	// Modes is set when the protocol takes a mode (diagnosis, repair, spec).
	Modes bool
	// N fixes the panel's size (tradeoff: 2); 0 asks for it, at least MinN.
	N, MinN int
	// R is the default number of rounds after round 0 (a rebuttal cap
	// when RCap is set).
	R    int
	RCap bool
	// Lenses asks one lens per panel member (from the lens library and
	// the project's own); Options asks the two options A and B, which are
	// then the panel's lenses; Criteria asks the criteria (one a line).
	Lenses, Options, Criteria bool
	// Stakes asks the decision's value at risk and whether it is
	// irreversible (council's escalation triggers), frozen in P;
	// StakesOver is the value at risk over which the result escalates.
	Stakes     bool
	StakesOver int
	// LensEach is set when every panel member must have a lens (council:
	// no member without one), so the wizard offers no "none".
	LensEach bool
	// LensesWord names the members' lenses on the setup line ("personas"
	// for argue, whose lenses are its personas); empty: "lenses".
	LensesWord string
	// Support is set when the protocol has a support role to engine
	// (debate's critics); Supporter names one of it ("critic", "scorer").
	Support   bool
	Supporter string
	// MaxN and MaxR are the largest panel and the most rounds after round
	// 0 the protocol runs (at most MaxSolvers and MaxRounds): the wizard
	// refuses more as it is typed, naming the limit.
	MaxN, MaxR int
	// Rounds writes R for the setup line, one %d ("R=%d rounds after
	// round 0", "rebuttal cap %d round(s), stated before launch").
	Rounds string
	// PanelNote follows the panel's size on the setup line ("one per
	// lens"); empty: nothing.
	PanelNote string
	// Named is set when the setup line opens with the protocol's name
	// (every protocol but the debate protocol (docs/protocols/debate.md), whose line predates them).
	Named bool
	// Member and Members name one and several of the panel ("solver",
	// "solvers"); Final names the final step ("judge", "synthesizer").
	Member, Members, Final string
	// MembersPT is Members in Portuguese ("membros"), for the final
	// answer's degraded line in a Portuguese register.
	MembersPT string
	// FinalNote says in a line what the final step sees.
	FinalNote string
	// Winner is set when the final step names a winner, so a human may
	// choose one when it fails (tradeoff's synthesis has none: a human
	// records a decision with moot decide instead).
	Winner bool
	// NoDecision is set when the final answer waits for no human decision
	// (argue's synthesis is the result; moot decide refuses it), so the
	// advice after a failed final step offers only its retry.
	NoDecision bool
}

// Describer is implemented by a protocol that describes its inputs.
type Describer interface {
	Inputs() Inputs
}

// Packer is implemented by a protocol whose P is its own packet around the
// bug's P (tradeoff's evidence packet): Pack builds it for a setup.
type Packer interface {
	Pack(s Setup, evidence *bugfolder.Problem, criteria []string) *bugfolder.Problem
}

// Describe is p's description; a protocol without one is asked a debate's
// questions (the debate protocol's words).
func Describe(p Protocol) Inputs {
	if d, ok := p.(Describer); ok {
		return d.Inputs()
	}
	return Inputs{Modes: true, MinN: 2, MaxN: MaxSolvers, R: 2, MaxR: MaxRounds, Rounds: "R=%d rounds after round 0", Lenses: true,
		Support: true, Supporter: "critic", Member: "solver", Members: "solvers", MembersPT: "debatedores", Final: "judge",
		Winner: true, FinalNote: "isolated: sees only the rubric, P and the final proposals"}
}

// WriteP writes P into a prompt or document being built, as the protocols
// show it: without its trailing newlines, then one. It first grows w for
// P, the after bytes that will follow it and some room for the words
// around them, so the answers are never copied into a regrown buffer. A
// call's prompt is rendered with P as the small mark the engine cuts it
// at (P itself is never copied into a prompt); a document that holds P
// itself (argue's transcript.md, RenderTranscript) copies a large P once.
func WriteP(w *strings.Builder, p string, after int) {
	body := strings.TrimRight(p, "\n")
	w.Grow(len(body) + after + 64<<10)
	w.WriteString(body)
	w.WriteByte('\n')
}

// TextBytes is the size of the answers a final step reads (the last
// round's, the opening's and every round's): what its prompt holds
// besides P, for WriteP.
func (in FinalInput) TextBytes() int {
	n := 0
	for _, m := range append([]RoundAnswers{in.Answers, in.Opening}, in.Rounds...) {
		for _, a := range m {
			n += len(a)
		}
	}
	return n
}

// TimeLimits are a protocol's own default time limits (zero: none of its
// own): per call (when neither --timeout nor the engine sets one), per
// round and per run (when --round-timeout and --debate-timeout are not
// given).
type TimeLimits struct {
	Call, Round, Debate time.Duration
}

// TimeLimited is an optional part of a Protocol whose seed sets its time
// limits (council's 30 s a call, 120 s a round, 300 s in all): they
// replace moot's defaults, and a flag or the engines file still
// overrides them.
type TimeLimited interface {
	TimeLimits() TimeLimits
}

// Stakes are what a decision puts at risk, as the person who registers it
// states them (council's escalation triggers): frozen in P by the
// protocol's Pack. A zero value states nothing.
type Stakes struct {
	// ValueAtRisk is the value the decision puts at risk, in the
	// register's currency; Valued is set when it was stated.
	ValueAtRisk float64
	Valued      bool
	// Irreversible is set when the decision cannot be undone.
	Irreversible bool
}

// Stated reports whether any stake was stated.
func (s Stakes) Stated() bool { return s.Valued || s.Irreversible }

// plainAmount is a value at risk as moot reads it: decimal digits, an
// optional decimal point with digits after it, an optional exponent.
var plainAmount = lazyre.New(`^[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$`)

// thousandsDot is a number whose only dot is followed by exactly three
// digits ("250.000"): in Portuguese that is 250 thousand, so it is refused
// rather than read as 250.
var thousandsDot = lazyre.New(`^[0-9]{1,3}\.[0-9]{3}$`)

// ParseStakes reads a stated value at risk (a non-negative number in the
// register's currency, plain decimal digits, "_" allowed between digits;
// blank: not stated) and whether the decision is irreversible.
func ParseStakes(value string, irreversible bool) (Stakes, error) {
	st := Stakes{Irreversible: irreversible}
	value = strings.TrimSpace(value)
	if value == "" {
		return st, nil
	}
	digits := strings.ReplaceAll(value, "_", "")
	if thousandsDot.MatchString(digits) {
		return st, fmt.Errorf("value at risk %q: a dot before three digits reads as a thousands separator; write the number without separators: %s (or %s if you meant that)", value, strings.ReplaceAll(digits, ".", ""), strings.TrimRight(strings.TrimRight(digits, "0"), "."))
	}
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil || !plainAmount.MatchString(digits) || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return st, fmt.Errorf("value at risk %q: give a non-negative number in the register's currency, digits only, no currency or thousands separators (e.g. 250000)", value)
	}
	st.ValueAtRisk, st.Valued = v, true
	return st, nil
}
