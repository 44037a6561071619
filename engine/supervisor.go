package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/reversa/moot/bugfolder"
)

// ErrNeedHuman is returned by a Supervisor that cannot ask anyone; the
// debate stops there, kept and resumable (exit 4).
var ErrNeedHuman = errors.New("a decision needs a human and none could be asked")

// FailedCall describes a solver whose call failed.
type FailedCall struct {
	SolverID string
	Engine   string
	Status   bugfolder.Status
	// LastError is the failure's last line (or why the answer was invalid).
	LastError string
}

// QuorumLoss is what the Supervisor is told when a round ends below quorum.
type QuorumLoss struct {
	Round  int
	Valid  int
	Needed int
	// Panel is how many solvers are still in the debate.
	Panel int
	// ValidIDs are the solvers with a valid answer in this round.
	ValidIDs []string
	Failed   []FailedCall
	// RetryCalls and RetryUSD are what retrying the failed adds (estimate).
	RetryCalls int
	RetryUSD   float64
	// ContinueSaves is how many calls continuing without the failed saves.
	ContinueSaves int
	// Engines are the configured engines a failed solver may be swapped to.
	Engines []string
	// Member and Members are the protocol's words for one and several of
	// the panel ("" reads as a debate's solver and solvers).
	Member, Members string
	// Support is set when only the support role failed (argue's scorer,
	// engine.SupportRequired) while the panel's quorum holds; Supporter is
	// the protocol's word for it ("scorer"). Continuing then goes on
	// without its answer for this round (ContinueSaves is 0: it still runs
	// in the next rounds) and Failed holds only support calls.
	Support   bool
	Supporter string
}

// QuorumChoice is an answer to a lost quorum.
type QuorumChoice string

// The quorum menu's answers, in the order they are offered.
const (
	QuorumContinue   QuorumChoice = "continue"
	QuorumRetry      QuorumChoice = "retry"
	QuorumCancel     QuorumChoice = "cancel"
	QuorumSwap       QuorumChoice = "swap"
	QuorumSetTimeout QuorumChoice = "timeout"
	QuorumPause      QuorumChoice = "pause"
)

// QuorumDecision is the Supervisor's answer at a lost quorum.
// AllFailed as a timeout change's SolverID applies it to every failed
// solver of the round (one amendment each).
const AllFailed = "*"

type QuorumDecision struct {
	Choice QuorumChoice
	// SolverID, Engine and Timeout qualify a swap or a timeout change.
	SolverID string
	Engine   string
	Timeout  time.Duration
	// By says who decided: "human" or "policy".
	By string
}

// LabelPreview is one anonymized proposal, for a human judge choice.
type LabelPreview struct {
	Label   string
	Preview string
	// Member is the panel member who wrote it (agente-1), so a human
	// choosing matches it to its pane; empty when the label is the name.
	Member string
}

// JudgeFailure is what the Supervisor is told when the judge fails.
type JudgeFailure struct {
	Attempt int
	Reason  string
	// Winner and ReversedWinner are the labels an unstable order-swap
	// check's calls chose, with the proposals in label order and with
	// every proposal moved and relabelled (that one given back in the first
	// call's labels, so both name proposals alike); "" for any other failure.
	Winner, ReversedWinner string
	Labels                 []LabelPreview
	// RetryUSD is what a retry adds (estimate); RetryCalls how many calls
	// it makes (0 reads as 1; 2 with the judge's order-swap check).
	RetryUSD   float64
	RetryCalls int
	// Engine is the judge's engine now; Engines are those a retry may
	// switch the judge to (local ones only on a restricted bug).
	Engine  string
	Engines []string
	// Final is the protocol's word for its final step ("" reads as judge);
	// NoWinner is set when that step names no winner (tradeoff's
	// synthesizer), so no human choice of a winner is offered.
	Final    string
	NoWinner bool
}

// JudgeChoice is an answer to a failed judge.
type JudgeChoice string

// The judge-failure menu's answers.
const (
	JudgeRetry  JudgeChoice = "retry"
	JudgeHuman  JudgeChoice = "human"
	JudgeCancel JudgeChoice = "cancel"
	JudgePause  JudgeChoice = "pause"
)

// JudgeDecision is the Supervisor's answer when the judge fails.
type JudgeDecision struct {
	Choice JudgeChoice
	// Winner is the letter a human chose.
	Winner string
	// Engine, on a retry, switches the judge to another engine (an
	// amendment, recorded like a solver's swap).
	Engine string
	By     string
}

// Supervisor takes the decisions a debate cannot take alone. The TUI asks
// the engineer; headless runs answer from policies; tests script answers.
// A Supervisor may block until it has an answer; it must return when ctx
// is done.
type Supervisor interface {
	QuorumLost(ctx context.Context, q QuorumLoss) (QuorumDecision, error)
	JudgeFailed(ctx context.Context, j JudgeFailure) (JudgeDecision, error)
}

// Policies answer decision points without a human (docs/cli.md's --on-* flags).
// Each policy answers a decision point once; if the same point comes back
// (a retry that failed again) the answer is "ask", which headless means
// ErrNeedHuman.
type Policies struct {
	// OnQuorumLoss is ask, continue, retry or cancel.
	OnQuorumLoss string
	// OnJudgeFailure is ask, retry or cancel.
	OnJudgeFailure string
	// OnBudget is ask, stop or cancel (BudgetReached).
	OnBudget string
	// Winner records a human judge choice given up front (resume --winner).
	Winner string

	usedQuorum map[int]bool
	usedJudge  bool
	usedWinner bool
	stop       atomic.Bool
}

// AskStop asks a debate whose protocol stops early (argue) to stop after
// the round in flight and synthesize it: a headless run's first interrupt.
func (p *Policies) AskStop() { p.stop.Store(true) }

// StopRequested reports whether AskStop was called (StopRequester).
func (p *Policies) StopRequested() bool { return p.stop.Load() }

// ParsePolicy checks a policy flag's value against what it allows.
func ParsePolicy(flag, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return fmt.Errorf("%s %q: use one of %s", flag, v, strings.Join(allowed, ", "))
}

// QuorumLost answers from the policy, once per round.
func (p *Policies) QuorumLost(ctx context.Context, q QuorumLoss) (QuorumDecision, error) {
	if p.usedQuorum == nil {
		p.usedQuorum = map[int]bool{}
	}
	if p.OnQuorumLoss == "" || p.OnQuorumLoss == "ask" || p.usedQuorum[q.Round] {
		return QuorumDecision{}, ErrNeedHuman
	}
	p.usedQuorum[q.Round] = true
	return QuorumDecision{Choice: QuorumChoice(p.OnQuorumLoss), By: "policy"}, nil
}

// JudgeFailed answers from --winner first, then from the policy, once.
func (p *Policies) JudgeFailed(ctx context.Context, j JudgeFailure) (JudgeDecision, error) {
	if p.Winner != "" && !p.usedWinner {
		p.usedWinner = true
		return JudgeDecision{Choice: JudgeHuman, Winner: p.Winner, By: "human"}, nil
	}
	if p.OnJudgeFailure == "" || p.OnJudgeFailure == "ask" || p.usedJudge {
		return JudgeDecision{}, ErrNeedHuman
	}
	p.usedJudge = true
	return JudgeDecision{Choice: JudgeChoice(p.OnJudgeFailure), By: "policy"}, nil
}

// ParseWinner reads a human judge choice: a letter or a full label, any
// case ("b", "Proposta B", "proposal b").
func ParseWinner(s string) (string, error) {
	t := strings.TrimSpace(s)
	f := strings.Fields(t)
	if len(f) == 2 {
		w := strings.ToLower(f[0])
		if w == "proposta" || w == "proposal" {
			t = f[1]
		}
	}
	if len(t) == 1 {
		c := strings.ToUpper(t)[0]
		if c >= 'A' && c <= 'Z' {
			return string(c), nil
		}
	}
	return "", fmt.Errorf("--winner %q: give a label letter (A, B, …) or a full label (\"Proposta A\")", s)
}
