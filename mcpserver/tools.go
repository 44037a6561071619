package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reversa/moot/bugfolder"
)

// Setup is what a debate is set up with: moot plan's and moot run's flags.
type Setup struct {
	Protocol    string   `json:"protocol,omitempty" flag:"--protocol" jsonschema:"debate (the default on a bug), council or tradeoff; for a question also argue (its default)"`
	Mode        string   `json:"mode,omitempty" flag:"--mode" jsonschema:"a bug debate's mode: diagnosis, repair or spec (run needs one on a bug)"`
	N           *int     `json:"n,omitempty" flag:"-n" jsonschema:"solvers (2 to 16; default 3)"`
	R           *int     `json:"r,omitempty" flag:"-r" jsonschema:"rounds after round 0 (default 2)"`
	Solvers     []string `json:"solvers,omitempty" flag:"--solver" jsonschema:"engine of the solvers: one for all, or one per solver"`
	Critics     []string `json:"critics,omitempty" flag:"--critic" jsonschema:"debate: a critic on each engine named"`
	Judge       string   `json:"judge,omitempty" flag:"--judge" jsonschema:"the judge's engine"`
	Lenses      []string `json:"lenses,omitempty" flag:"--lens" jsonschema:"debate, council: a lens for every solver, or one per solver"`
	OptionA     string   `json:"option_a,omitempty" flag:"--option-a" jsonschema:"tradeoff: option A as a testable statement"`
	OptionB     string   `json:"option_b,omitempty" flag:"--option-b" jsonschema:"tradeoff: option B as a testable statement"`
	Criteria    string   `json:"criteria,omitempty" flag:"--criteria" jsonschema:"council, tradeoff: what the decision is judged by, separated by ';'"`
	Synthesizer string   `json:"synthesizer,omitempty" flag:"--synthesizer" jsonschema:"council, tradeoff, argue: the synthesizer's engine"`
	Timeout     string   `json:"timeout,omitempty" flag:"--timeout" jsonschema:"a hard limit per call, as 90s or 5m (default: each engine's own)"`
	MaxUSD      *float64 `json:"max_usd,omitempty" flag:"--max-usd" jsonschema:"the budget cap in dollars"`
	MaxTokens   *int     `json:"max_tokens,omitempty" flag:"--max-tokens" jsonschema:"the budget cap in tokens"`
}

// PlanInput is the plan tool's input.
type PlanInput struct {
	Bug string `json:"bug" jsonschema:"the bug: its ID, its display number or its folder"`
	Setup
}

// RunInput is the run tool's input.
type RunInput struct {
	Bug      string   `json:"bug,omitempty" jsonschema:"the bug to debate: its ID, display number or folder (or give question)"`
	Question string   `json:"question,omitempty" jsonschema:"a question to debate instead of a bug (moot ask)"`
	Personas []string `json:"personas,omitempty" flag:"--persona" jsonschema:"argue: the personas"`
	Evidence []string `json:"evidence,omitempty" flag:"--evidence" jsonschema:"a question's evidence files, inside the project"`
	Lang     string   `json:"lang,omitempty" flag:"--lang" jsonschema:"a question's language: en or pt"`
	Setup
	OnQuorumLoss   string `json:"on_quorum_loss,omitempty" flag:"--on-quorum-loss" jsonschema:"a policy for the quorum menu: continue, retry or cancel; without one the run waits for a human there"`
	OnJudgeFailure string `json:"on_judge_failure,omitempty" flag:"--on-judge-failure" jsonschema:"a policy for the judge-failure menu: retry or cancel; without one the run waits for a human there"`
	OnBudget       string `json:"on_budget,omitempty" flag:"--on-budget" jsonschema:"a policy at the budget cap: stop or cancel; without one the run waits for a human there"`
	AcceptPlan     bool   `json:"accept_plan,omitempty" jsonschema:"true accepts the cost plan (as --yes does); without it nothing runs and the plan is returned as an error"`
	WaitForHuman   *int   `json:"wait_for_human_seconds,omitempty" jsonschema:"how long to wait at a menu for a human's answer before returning (default 600, 0 returns at once)"`
}

// TargetInput names a bug, a question or a review.
type TargetInput struct {
	Target string `json:"target" jsonschema:"a bug (ID, display number or folder), a question's ID or a review's ID, as list shows them"`
}

// StatusInput is the status tool's input.
type StatusInput struct {
	TargetInput
	WaitSeconds *int `json:"wait_seconds,omitempty" jsonschema:"follow a running debate for up to this many seconds, with progress notifications, returning when it ends (default 0: at once)"`
}

// ReviewInput is the review tool's input.
type ReviewInput struct {
	Bug        string   `json:"bug,omitempty" jsonschema:"a bug: without change or files its applied fix (fix/CHG-*.diff) is reviewed"`
	Change     string   `json:"change,omitempty" flag:"--change" jsonschema:"the change as a git range A..B"`
	Files      []string `json:"files,omitempty" flag:"--files" jsonschema:"the touched files (instead of change)"`
	Contract   string   `json:"contract,omitempty" flag:"--contract" jsonschema:"\"intent | pass criteria\" (a bug's fix review takes its plan's)"`
	Builder    string   `json:"builder,omitempty" flag:"--builder" jsonschema:"who built the change: an engine, model or family, or unknown (the gate is then labelled weakened); its family never judges"`
	Lenses     []string `json:"lenses,omitempty" flag:"--lens" jsonschema:"the jurors' lenses (default: the eight review lenses, or a fix's four)"`
	Resume     string   `json:"resume,omitempty" flag:"--resume" jsonschema:"a review ID to continue"`
	MaxUSD     *float64 `json:"max_usd,omitempty" flag:"--max-usd" jsonschema:"the budget cap in dollars"`
	MaxTokens  *int     `json:"max_tokens,omitempty" flag:"--max-tokens" jsonschema:"the budget cap in tokens"`
	OnBudget   string   `json:"on_budget,omitempty" flag:"--on-budget" jsonschema:"at the budget cap: stop or cancel"`
	AcceptPlan bool     `json:"accept_plan,omitempty" jsonschema:"true accepts the cost plan (as --yes does); without it nothing runs and the plan is returned as an error"`
}

const (
	listDescription = "List the register: every bug, question and review, with its latest debate's status, protocol, winner, cost and whether a human decision is pending (moot list --json). Writes nothing."
	planDescription = "Show what a debate on a bug would cost before anything runs: the calls, tokens and dollars per engine, and the warnings (moot plan --json). Writes nothing. A setup moot would refuse (a restricted bug with an external engine, a closed bug) is an error saying why."
	runDescription  = "Run a debate, council or tradeoff on a bug (moot run), or debate a question (moot ask), and wait for its end with progress notifications (round, calls, spend). " +
		"Needs accept_plan: true, the explicit acceptance of the cost plan (call plan first). It writes the same folder moot run does; an engineer can watch it live in moot's terminal UI. " +
		"At a menu (quorum lost, judge failed, budget cap) it waits for a human, who answers from moot (the TUI, or moot resume), unless the call gave a policy."
	statusDescription = "The state of a bug's or question's debate: running, waiting for a human, done; its round, calls and spend. With wait_seconds it follows a running debate with progress notifications. Writes nothing."
	resultDescription = "The result of a debate: the winner (or a synthesis), the final answer, and the decision state. A decision on a result (approve, decline, revise) is a human's: when one is pending the result says so; the agent cannot record it. For a review: its status and verdict. Writes nothing."
	reviewDescription = "Review a change (a git range or files) or a bug's applied fix with moot's blind tribunal: one juror per lens, the gate opening only on a unanimous pass (moot review). Needs accept_plan: true. Returns every finding with its lens, severity and file."
)

// toolError is a tool error carrying the command's own message.
func toolError(o outcome) error {
	msg := o.message()
	if msg == "" {
		msg = strings.TrimSpace(o.stdout)
	}
	return errors.New(msg)
}

// notAccepted is the error of a call without accept_plan: the command's
// message and the plan it printed, nothing run or written.
func notAccepted(o outcome) error {
	if o.code == exitUsage {
		return toolError(o)
	}
	return fmt.Errorf("%s (here: call again with accept_plan: true); nothing was run or written\n\n%s", o.message(), strings.TrimSpace(o.stdout))
}

// textResult is a result whose content is text.
func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// ListOutput is the register as moot list --json gives it.
type ListOutput struct {
	Entries []map[string]any `json:"entries"`
}

func (s *server) list(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, ListOutput, error) {
	entries, err := s.entries(ctx)
	if err != nil {
		return nil, ListOutput{}, err
	}
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "%v %v", e["kind"], e["bug_id"])
		if n := e["display_number"]; n != nil { // a bug's; questions and reviews have none
			fmt.Fprintf(&b, " (%v)", n)
		}
		fmt.Fprintf(&b, " %v: %v", e["status"], e["title"])
		if d, ok := e["decision"].(string); ok && d != "" {
			fmt.Fprintf(&b, " · decision %s", d)
		}
		b.WriteString("\n")
	}
	if len(entries) == 0 {
		b.WriteString("the register is empty\n")
	}
	return textResult(b.String()), ListOutput{Entries: entries}, nil
}

// entries runs moot list --json.
func (s *server) entries(ctx context.Context) ([]map[string]any, error) {
	o, err := s.moot.run(ctx, []string{"list", "--json"}, nil)
	if err != nil {
		return nil, err
	}
	if o.code != exitOK {
		return nil, toolError(o)
	}
	var entries []map[string]any
	if err := json.Unmarshal([]byte(o.stdout), &entries); err != nil {
		return nil, fmt.Errorf("read moot list --json: %w", err)
	}
	return entries, nil
}

// PlanOutput is moot plan --json's object.
type PlanOutput struct {
	Plan map[string]any `json:"plan"`
}

func (s *server) plan(ctx context.Context, req *mcp.CallToolRequest, in PlanInput) (*mcp.CallToolResult, PlanOutput, error) {
	args := append(s.withConfig("plan", "--json"), flagArgs(in.Setup)...)
	o, err := s.moot.run(ctx, append(args, "--", in.Bug), nil)
	if err != nil {
		return nil, PlanOutput{}, err
	}
	if o.code != exitOK {
		return nil, PlanOutput{}, toolError(o)
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(o.stdout), &p); err != nil {
		return nil, PlanOutput{}, fmt.Errorf("read moot plan --json: %w", err)
	}
	tokens, _ := p["tokens"].(map[string]any)
	cost := fmt.Sprintf("$%v", p["usd"])
	if complete, _ := p["usd_complete"].(bool); !complete {
		cost += " (an engine has no price: the cost is partly unknown)"
	}
	text := fmt.Sprintf("plan for %v: %v; about %v tokens in and %v out; %s. These are estimates. Nothing was written. To run it, call run with the same setup and accept_plan: true.\n%s",
		p["bug_id"], p["formula"], tokens["input"], tokens["output"], cost, strings.TrimSpace(o.stdout))
	return textResult(text), PlanOutput{Plan: p}, nil
}

// RunOutput is how a run ended.
type RunOutput struct {
	// Outcome is done, waiting (for a human), or cancelled.
	Outcome string `json:"outcome"`
	// Folder is the debate's folder.
	Folder string  `json:"folder,omitempty"`
	Round  int     `json:"round"`
	Calls  int     `json:"calls"`
	Tokens int     `json:"tokens"`
	USD    float64 `json:"usd"`
	// Reason is why it stopped, when it did not end done.
	Reason string `json:"reason,omitempty"`
	// Report is the command's own last words (its exit line and advice).
	Report string `json:"report,omitempty"`
}

func (s *server) run(ctx context.Context, req *mcp.CallToolRequest, in RunInput) (*mcp.CallToolResult, RunOutput, error) {
	var cmd, target string
	switch {
	case in.Bug != "" && in.Question != "":
		return nil, RunOutput{}, errors.New("give bug or question, not both; nothing was run or written")
	case in.Question != "":
		cmd, target = "ask", in.Question
	case in.Bug != "":
		cmd, target = "run", in.Bug
	default:
		return nil, RunOutput{}, errors.New("no bug given: pass a bug (its ID, display number or folder) or a question; nothing was run or written")
	}
	args := s.withConfig(cmd)
	args = append(args, flagArgs(in)...)
	args = append(args, flagArgs(in.Setup)...)
	args = append(args, "--headless", "--json")
	if in.AcceptPlan {
		args = append(args, "--yes")
	}
	// after "--": a bug or question named like a flag ("--yes") stays one
	args = append(args, "--", target)
	p := newProgress(ctx, req)
	t := &tally{}
	o, err := s.moot.run(ctx, args, func(line string) {
		var ev bugfolder.Event
		if json.Unmarshal([]byte(line), &ev) == nil {
			if msg := t.add(ev); msg != "" {
				p.say(msg)
			}
		}
	})
	if err != nil {
		return nil, RunOutput{}, err
	}
	if !in.AcceptPlan {
		return nil, RunOutput{}, notAccepted(o)
	}
	switch {
	case o.code == exitUsage || (o.code != exitOK && t.dir == ""):
		return nil, RunOutput{}, toolError(o)
	}
	// a cancelled call still names its folder whole: the lookup outlives the call
	t.dir = s.runFolder(context.WithoutCancel(ctx), in.Bug, t.dir)
	switch {
	case o.code == exitNeedHuman && t.outcome == bugfolder.OutcomeWaiting:
		wait := 600 * time.Second
		if in.WaitForHuman != nil {
			wait = time.Duration(max(0, *in.WaitForHuman)) * time.Second
		}
		s.awaitHuman(ctx, p, t, wait, t.reason)
	}
	out := t.output()
	out.Report = o.lastLine()
	return textResult(runText(out, cmd+" "+target)), out, nil
}

// runFolder is the folder a run wrote: its setup event names it relative
// to the bug's folder (a bug's debate) or to the project (a question).
func (s *server) runFolder(ctx context.Context, bug, path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	if bug == "" {
		return filepath.Join(s.projectRoot(), path)
	}
	e, err := s.entry(ctx, bug)
	if err != nil {
		return path
	}
	return filepath.Join(filepath.Dir(s.debateFolder(e)), path)
}

// runText says how a run ended and what comes next.
func runText(o RunOutput, what string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (round %d, %d calls, %d tokens, $%.4f)\nfolder: %s\n", what, o.Outcome, o.Round, o.Calls, o.Tokens, o.USD, o.Folder)
	if o.Reason != "" {
		fmt.Fprintf(&b, "reason: %s\n", o.Reason)
	}
	if o.Report != "" {
		fmt.Fprintf(&b, "%s\n", o.Report)
	}
	if o.Outcome == string(bugfolder.OutcomeWaiting) {
		fmt.Fprintf(&b, "%s\n", humanNeeded)
	}
	return b.String()
}

// humanNeeded says who answers a menu a run waits at.
const humanNeeded = "It waits for a human: an engineer answers in moot's terminal UI (moot, then r on the debate) or with moot resume; call status or result later. The agent cannot answer it."

// decisionHuman says who records a decision on a result.
const decisionHuman = "A human decision is pending; the agent cannot record it. A person records it with `moot decide %s approve|decline|revise [--note TEXT]`, or with d on the Final tab of moot's terminal UI."

// tally follows a run's events: its folder, round, calls and spend.
type tally struct {
	dir       string
	round     int
	calls     int
	tokens    int
	usd       float64
	totalPlan int
	outcome   bugfolder.Outcome
	reason    string
	events    int
}

// add counts an event and returns what a progress notification says of
// it ("" for an event not worth one).
func (t *tally) add(ev bugfolder.Event) string {
	t.events++
	switch ev.Type {
	case bugfolder.EvSetup, bugfolder.EvResumed:
		if t.dir == "" { // the first session's; the folder never moves
			t.dir = ev.Path
		}
		t.outcome, t.reason = "", ""
		return "started: " + ev.Path
	case bugfolder.EvPlan:
		t.totalPlan = ev.Calls
		return ""
	case bugfolder.EvRoundStarted:
		t.round = ev.Round
		return fmt.Sprintf("round %d started", ev.Round)
	case bugfolder.EvCallFinished:
		t.calls++
		t.tokens += ev.TokensIn + ev.TokensOut
		t.usd += ev.CostUSD
		return fmt.Sprintf("round %d: %s %s (%d calls, %d tokens, $%.4f)", ev.Round, ev.SolverID, ev.Status, t.calls, t.tokens, t.usd)
	case bugfolder.EvQuorumLost:
		return fmt.Sprintf("round %d: quorum lost (%d valid, %d needed)", ev.Round, ev.Valid, ev.Needed)
	case bugfolder.EvJudgeFailed:
		return "the final step failed: " + ev.Reason
	case bugfolder.EvDecision:
		return fmt.Sprintf("decision at %s: %s (by %s)", ev.Point, ev.Choice, ev.By)
	case bugfolder.EvWaiting:
		return fmt.Sprintf("waiting for a human at the %s menu", ev.Point)
	case bugfolder.EvDebateFinished:
		t.outcome, t.reason = ev.Outcome, ev.Reason
		return fmt.Sprintf("finished: %s", ev.Outcome)
	}
	return ""
}

func (t *tally) output() RunOutput {
	return RunOutput{Outcome: string(t.outcome), Folder: t.dir, Round: t.round, Calls: t.calls, Tokens: t.tokens, USD: t.usd, Reason: t.reason}
}

// progress sends a tool call's progress notifications, when the client
// asked for them (a progress token).
type progress struct {
	ctx context.Context
	req *mcp.CallToolRequest
	tok any
	n   float64
}

func newProgress(ctx context.Context, req *mcp.CallToolRequest) *progress {
	p := &progress{ctx: ctx, req: req}
	if req != nil && req.Params != nil {
		p.tok = req.Params.GetProgressToken()
	}
	return p
}

// say sends one notification; its progress rises by one each time.
func (p *progress) say(msg string) {
	if p.tok == nil || p.req.Session == nil {
		return
	}
	p.n++
	_ = p.req.Session.NotifyProgress(p.ctx, &mcp.ProgressNotificationParams{ProgressToken: p.tok, Progress: p.n, Message: msg})
}

// pollEvery is how often a wait reads the debate's folder again.
const pollEvery = 500 * time.Millisecond

// awaitHuman waits, up to wait, for a human to answer the menu a run
// stopped at: another moot process (the TUI, or moot resume) continues
// the debate, and its events land in the folder's log. It returns when
// a session that started after the wait ends with anything but another
// wait, or when wait passes. Events are told apart by their time, not
// their place in the log, which a resume may rewrite.
func (s *server) awaitHuman(ctx context.Context, p *progress, t *tally, wait time.Duration, why string) {
	p.say("waiting for a human: " + why)
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	since := time.Now()
	told := since
	for {
		select {
		case <-ctx.Done():
			return
		case <-deadline.C:
			return
		case <-tick.C:
		}
		d, err := bugfolder.ReadDebate(t.dir, bugfolder.EN)
		if err != nil {
			continue
		}
		var end *bugfolder.Event
		newest := told
		for i, ev := range d.Events {
			if ev.Time.After(told) {
				if msg := t.add(ev); msg != "" {
					p.say(msg)
				}
				newest = maxTime(newest, ev.Time)
			}
			if ev.Type == bugfolder.EvDebateFinished && ev.Time.After(since) {
				end = &d.Events[i]
			}
		}
		told = newest
		if end != nil && end.Outcome != bugfolder.OutcomeWaiting {
			t.outcome, t.reason = end.Outcome, end.Reason
			return
		}
	}
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
