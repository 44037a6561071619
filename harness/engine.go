package harness

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/reversa/moot/internal/input"
)

// Request is one call of an engine.
type Request struct {
	// Role, SolverID, Round, BugID and Mode say who is called, for a
	// command's placeholders and environment and a cassette's lookup; the
	// harness gives them no other meaning.
	Role     string
	SolverID string
	Round    int
	BugID    string
	Mode     string
	Attempt  int
	// Lens is the participant's lens name ("" when none): {lens}, MOOT_LENS.
	Lens string
	// Protocol is the protocol the call belongs to ("debate", "council",
	// …): {protocol}, MOOT_PROTOCOL, so one command can tell a council
	// member's call from a debate solver's.
	Protocol string
	// ReasoningOff asks for a structured verdict with reasoning off where
	// the engine has a switch for it (EngineConfig.ReasoningSwitch).
	ReasoningOff bool
	// Prompt is the whole prompt (on stdin for CLIs, in the request for
	// HTTP), unless PromptParts is set.
	Prompt string
	// PromptParts, when set, is the prompt in pieces sent one after
	// another (Prompt is then ignored): the engine passes P as one piece
	// every call shares, so a CLI's call holds no copy of it.
	PromptParts []string
	// CachePrefix is how many bytes the prompt begins with that every
	// call of the run sends the same (P and what is common to every
	// call: engine.SharedPrefix), 0 when none: an engine whose API takes
	// an explicit cache breakpoint (anthropic) marks the end of that
	// block; the others' providers cache an identical prefix by
	// themselves.
	CachePrefix int
	// P is the assembled problem, copied into a CLI's scratch folder
	// (P.md) when PFile is empty.
	P string
	// PFile is the debate's one owner-only, read-only copy of P
	// (NewPFile): a CLI's scratch folder gets it as P.md by a hard link,
	// so no call writes P again.
	PFile string
	// Timeout is the hard limit of the call.
	Timeout time.Duration
	// Stdout and Stderr receive the raw output for audit (may be nil).
	Stdout, Stderr io.Writer
	// OnOutput receives the answer's text as it streams (may be nil).
	OnOutput func(delta string)
	// Group is an opaque key of what the call belongs to (a debate): a
	// command's processes carry it, so those a killed moot left behind
	// are found by ReapOrphans on the next run.
	Group string
}

// PromptText is the whole prompt, joined from its parts when it comes in
// pieces (HTTP engines send it in one body).
func (r Request) PromptText() string {
	if r.PromptParts != nil {
		return strings.Join(r.PromptParts, "")
	}
	return r.Prompt
}

// promptPieces is the prompt as the pieces a CLI's stdin receives.
func (r Request) promptPieces() []string {
	if r.PromptParts != nil {
		return r.PromptParts
	}
	return []string{r.Prompt}
}

// Failure says how a call ended: FailNone when the engine answered, else
// the kind of failure, which decides whether it may be retried
// automatically. The harness knows no protocol status: the caller maps a
// Failure to one (a timeout, an error).
type Failure int

const (
	// FailNone: the engine answered.
	FailNone Failure = iota
	// FailStart: the engine could not be started (one automatic retry).
	FailStart
	// FailTransport: the connection failed before any answer (one automatic retry).
	FailTransport
	// FailEngine: the engine ran and failed, or refused (no retry).
	FailEngine
	// FailTimeout: the hard limit was reached and the process group killed.
	FailTimeout
)

// Retryable reports whether a failure gets the one automatic retry.
func (f Failure) Retryable() bool { return f == FailStart || f == FailTransport }

func (f Failure) String() string {
	return [...]string{"none", "start", "transport", "engine", "timeout"}[f]
}

// Result is what a call produced.
type Result struct {
	// Failure is FailNone when the engine answered (the caller may still
	// find the answer invalid), else what kind of failure ended the call.
	Failure Failure
	// Body is the answer's text (partial when the call failed half-way).
	Body string
	// Err is a one-line reason for a failure, with secrets redacted.
	Err      string
	ExitCode *int
	// Tokens and cost as the engine reported them (0 / nil when it did not).
	TokensIn, TokensOut int
	// CacheRead and CacheWrite are the part of TokensIn the provider
	// served from its prompt cache and the part it wrote to it (billed at
	// the cache's own prices), as the engine reported them.
	CacheRead, CacheWrite int
	CostUSD               *float64
	// Truncated is set when the output exceeded the cap and was cut.
	Truncated bool
}

// MaxCallTokens is the most tokens one call may report, in or out: more
// than any model's context, and far from overflowing a debate's sums.
const MaxCallTokens = 100_000_000

// MaxCallUSD is the most one call may report it cost.
const MaxCallUSD = 10_000.0

// SaneUsage is r with its usage as moot may count it: a count that is
// negative or past MaxCallTokens, or a cost that is negative, not a
// number or past MaxCallUSD, makes the whole report unknown (0 tokens, no
// cost), so the caller estimates the call from its bytes. A server that
// reports -10,000,000 tokens would otherwise refund the budget cap and
// show a negative spend.
func SaneUsage(r Result) Result {
	if r.TokensIn < 0 || r.TokensOut < 0 || r.TokensIn > MaxCallTokens || r.TokensOut > MaxCallTokens {
		r.TokensIn, r.TokensOut, r.CostUSD = 0, 0, nil
	}
	if r.CacheRead < 0 || r.CacheWrite < 0 || r.CacheRead+r.CacheWrite > r.TokensIn {
		r.CacheRead, r.CacheWrite = 0, 0 // not a part of the input counted: unknown
	}
	if c := r.CostUSD; c != nil && (*c < 0 || *c != *c || *c > MaxCallUSD) {
		r.CostUSD = nil
	}
	return r
}

// Engine calls one configured engine.
type Engine interface {
	// Call runs one request and reports what happened. It returns when the
	// call is over and no process it started is left running.
	Call(ctx context.Context, req Request) Result
}

// Options tune every adapter.
type Options struct {
	// Grace is how long a process has between SIGTERM and SIGKILL.
	Grace time.Duration
	// OutputCap bounds the answer and each raw stream, in bytes.
	OutputCap int64
	// ConfigDir is the engines file's folder: relative paths in it
	// (a command's program, a cassette) start there.
	ConfigDir string
	// Cassettes holds embedded cassettes by name (the demo's).
	Cassettes map[string][]byte
	// ProjectDir is the project the register belongs to: the folder an
	// engine with read-only project access runs in.
	ProjectDir string

	// inspect, in tests, sees a vendor-CLI call's private folder before it
	// is removed.
	inspect func(root string)
}

// Defaults for Options.
const (
	DefaultGrace     = 3 * time.Second
	DefaultOutputCap = 8 << 20
)

func (o Options) withDefaults() Options {
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.OutputCap <= 0 {
		o.OutputCap = DefaultOutputCap
	}
	return o
}

// New builds the adapter of an engine entry.
func New(e *EngineConfig, o Options) (Engine, error) {
	o = o.withDefaults()
	var a Engine
	switch e.Kind {
	case KindCommand:
		a = newCommand(e, o)
	case KindReplay:
		return newReplay(e, o) // plays back recorded text: nothing secret to hide
	case KindOpenAI:
		a = newOpenAI(e, o)
	case KindAnthropic:
		a = newAnthropic(e, o)
	default:
		spec, ok := specs[e.Kind]
		if !ok {
			return nil, &input.Error{Field: "engines." + e.Name + ".kind", Msg: fmt.Sprintf("kind %s has no adapter", e.Kind)}
		}
		a = &vendorCLI{cfg: e, opts: o, spec: spec}
	}
	return &redacting{inner: a, static: SecretValues(e), frames: e.Kind == KindOpenAI || e.Kind == KindAnthropic}, nil
}

// resolvePath makes a path from the engines file relative to its folder.
func (o Options) resolvePath(p string) string {
	if p == "" || filepath.IsAbs(p) || o.ConfigDir == "" {
		return p
	}
	return filepath.Join(o.ConfigDir, p)
}

// errorf makes a failed result.
func errorf(f Failure, format string, args ...any) Result {
	return Result{Failure: f, Err: fmt.Sprintf(format, args...)}
}

// Answered reports whether the engine answered (FailNone).
func (r Result) Answered() bool { return r.Failure == FailNone }
