package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/reversa/moot/bugfolder"
)

// entry finds target among moot list's entries as the command line names
// them (an ID, a display number, a folder or its name); a target list
// does not know is the error moot show gives it.
func (s *server) entry(ctx context.Context, target string) (map[string]any, error) {
	entries, err := s.entries(ctx)
	if err != nil {
		return nil, err
	}
	t := strings.TrimSpace(target)
	abs := t
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.dir, abs)
	}
	root := s.projectRoot()
	for _, e := range entries {
		id, _ := e["bug_id"].(string)
		path, _ := e["path"].(string)
		num := fmt.Sprint(e["display_number"])
		full := path
		if !filepath.IsAbs(full) {
			full = filepath.Join(root, path)
		}
		name := filepath.Base(path)
		if strings.EqualFold(id, t) || num == strings.TrimPrefix(t, "#") || strings.EqualFold(name, t) ||
			filepath.Clean(full) == filepath.Clean(abs) || strings.HasPrefix(strings.ToUpper(name), strings.ToUpper(t)+"-") {
			return e, nil
		}
	}
	o, err := s.moot.run(ctx, []string{"show", "--", target}, nil)
	if err != nil {
		return nil, err
	}
	if o.code != exitOK {
		return nil, toolError(o)
	}
	return nil, fmt.Errorf("%s is not in moot list: only a bug, a question or a review it lists can be followed here", target)
}

// projectRoot is the folder moot list's paths are relative to.
func (s *server) projectRoot() string {
	if reg, err := bugfolder.FindRoot(s.dir); err == nil {
		return reg.Project
	}
	return bugfolder.ProjectRoot(s.dir)
}

// debateFolder is the folder of an entry's latest debate ("" for a
// review, which has no debate folder).
func (s *server) debateFolder(e map[string]any) string {
	path, _ := e["path"].(string)
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.projectRoot(), path)
	}
	switch e["kind"] {
	case "bug":
		return filepath.Join(path, "debate")
	case "question":
		return path
	}
	return ""
}

// StatusOutput is where a debate stands.
type StatusOutput struct {
	Target string `json:"target"`
	Kind   string `json:"kind"`
	// State is moot's: no-debate, running, waiting, judge-failed, cancelled,
	// interrupted, done (a review's status for a review).
	State  string  `json:"state"`
	Folder string  `json:"folder,omitempty"`
	Round  int     `json:"round"`
	Calls  int     `json:"calls"`
	Tokens int     `json:"tokens"`
	USD    float64 `json:"usd"`
	// WaitingFor names the menu a human must answer, when one waits.
	WaitingFor string `json:"waiting_for,omitempty"`
	Next       string `json:"next,omitempty"`
}

func (s *server) status(ctx context.Context, req *mcp.CallToolRequest, in StatusInput) (*mcp.CallToolResult, StatusOutput, error) {
	e, err := s.entry(ctx, in.Target)
	if err != nil {
		return nil, StatusOutput{}, err
	}
	out := StatusOutput{Target: in.Target, Kind: fmt.Sprint(e["kind"]), State: fmt.Sprint(e["status"])}
	dir := s.debateFolder(e)
	if dir == "" { // a review: its figures are list's
		out.Round = intOf(e["rounds"])
		out.Calls = intOf(e["calls"])
		out.Tokens = intOf(e["tokens"])
		out.USD, _ = e["cost_usd"].(float64)
		return textResult(statusText(out)), out, nil
	}
	out.Folder = dir
	p := newProgress(ctx, req)
	wait := 0 * time.Second
	if in.WaitSeconds != nil {
		wait = time.Duration(max(0, *in.WaitSeconds)) * time.Second
	}
	deadline := time.Now().Add(wait)
	said := ""
	for {
		readStatus(dir, &out)
		if msg := statusText(out); msg != said {
			p.say(msg)
			said = msg
		}
		if out.State != string(bugfolder.StateRunning) || !time.Now().Before(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return nil, out, ctx.Err()
		case <-time.After(min(pollEvery, time.Until(deadline))):
		}
	}
	return textResult(statusText(out)), out, nil
}

// readStatus reads a debate folder's state and figures from its files and
// its event log.
func readStatus(dir string, out *StatusOutput) {
	d, err := bugfolder.ReadDebate(dir, bugfolder.EN)
	if err != nil {
		return
	}
	out.State = string(d.State)
	out.Round, out.Calls, out.Tokens, out.USD, out.WaitingFor = 0, 0, 0, 0, ""
	for _, ev := range d.Events {
		switch ev.Type {
		case bugfolder.EvRoundStarted:
			out.Round = ev.Round
		case bugfolder.EvCallFinished:
			out.Calls++
			out.Tokens += ev.TokensIn + ev.TokensOut
			out.USD += ev.CostUSD
		case bugfolder.EvQuorumLost:
			out.WaitingFor = "the quorum menu"
		case bugfolder.EvJudgeFailed:
			out.WaitingFor = "the judge-failure menu"
		case bugfolder.EvWaiting:
			out.WaitingFor = "the " + string(ev.Point) + " menu"
		case bugfolder.EvDebateFinished:
			if ev.Outcome != bugfolder.OutcomeWaiting {
				out.WaitingFor = ""
			} else if out.WaitingFor == "" {
				out.WaitingFor = "a decision: " + ev.Reason
			}
		}
	}
	switch d.State {
	case bugfolder.StateWaiting, bugfolder.StateJudgeFailed:
		out.Next = humanNeeded
	case bugfolder.StateRunning:
		out.Next = "running: an engineer can watch it live in moot's terminal UI"
	default:
		out.WaitingFor = ""
	}
}

func statusText(o StatusOutput) string {
	s := fmt.Sprintf("%s %s: %s · round %d · %d calls · %d tokens · $%.4f", o.Kind, o.Target, o.State, o.Round, o.Calls, o.Tokens, o.USD)
	if o.WaitingFor != "" {
		s += " · waiting for a human at " + o.WaitingFor
	}
	if o.Next != "" {
		s += "\n" + o.Next
	}
	return s
}

func intOf(v any) int {
	f, _ := v.(float64)
	return int(f)
}

// ResultOutput is a debate's or a review's result.
type ResultOutput struct {
	Target   string `json:"target"`
	Kind     string `json:"kind"`
	Protocol string `json:"protocol,omitempty"`
	Status   string `json:"status"`
	// Winner is the winning proposal's label; WinnerSynthesis is set when
	// the judge named a synthesis of the proposals instead.
	Winner             string `json:"winner,omitempty"`
	WinnerSynthesis    bool   `json:"winner_synthesis,omitempty"`
	RecommendedVerdict string `json:"recommended_verdict,omitempty"`
	// Decision is the human decision's state: pending, approve, decline,
	// revise, or "" when the result waits for none.
	Decision string `json:"decision,omitempty"`
	// DecisionNote says who records a pending decision: never the agent.
	DecisionNote string `json:"decision_note,omitempty"`
	// Verdict is a review's gate (pass, refuse, hold).
	Verdict string `json:"verdict,omitempty"`
	// Next says who answers a debate stopped at a menu: a human.
	Next string `json:"next,omitempty"`
	// Final is the final answer (moot show --final), or a review's summary.
	Final string `json:"final,omitempty"`
}

func (s *server) result(ctx context.Context, req *mcp.CallToolRequest, in TargetInput) (*mcp.CallToolResult, ResultOutput, error) {
	e, err := s.entry(ctx, in.Target)
	if err != nil {
		return nil, ResultOutput{}, err
	}
	out := ResultOutput{Target: in.Target, Kind: fmt.Sprint(e["kind"]), Status: fmt.Sprint(e["status"])}
	out.Protocol, _ = e["protocol"].(string)
	out.Winner, _ = e["winner"].(string)
	out.WinnerSynthesis, _ = e["winner_synthesis"].(bool)
	out.RecommendedVerdict, _ = e["recommended_verdict"].(string)
	out.Decision, _ = e["decision"].(string)
	out.Verdict, _ = e["verdict"].(string)
	if w, _ := e["weakened"].(bool); w && out.Verdict != "" {
		out.Verdict += " (weakened)" // never a plain pass
	}
	id, _ := e["bug_id"].(string)
	if out.Decision == "pending" {
		out.DecisionNote = fmt.Sprintf(decisionHuman, id)
	}
	switch bugfolder.State(out.Status) {
	case bugfolder.StateWaiting, bugfolder.StateJudgeFailed:
		if out.Kind != "review" {
			out.Next = humanNeeded
		}
	}
	show := []string{"show"}
	if out.Kind != "review" {
		show = append(show, "--final")
	}
	show = append(show, "--", id)
	if o, err := s.moot.run(ctx, show, nil); err == nil && o.code == exitOK {
		out.Final = strings.TrimSpace(o.stdout)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s): %s", out.Kind, id, out.Protocol, out.Status)
	switch {
	case out.Winner != "":
		fmt.Fprintf(&b, " · winner %s", out.Winner)
	case out.WinnerSynthesis:
		b.WriteString(" · a synthesis of the proposals")
	}
	if out.Verdict != "" {
		fmt.Fprintf(&b, " · verdict %s", out.Verdict)
	}
	if out.Decision != "" {
		fmt.Fprintf(&b, " · decision %s", out.Decision)
	}
	b.WriteString("\n")
	if out.DecisionNote != "" {
		b.WriteString(out.DecisionNote + "\n")
	}
	if out.Next != "" {
		b.WriteString(out.Next + "\n")
	}
	if out.Final != "" {
		b.WriteString("\n" + out.Final + "\n")
	}
	return textResult(b.String()), out, nil
}

// ReviewFinding is one finding of a review's round.
type ReviewFinding struct {
	Lens     string `json:"lens"`
	Level    string `json:"level"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file,omitempty"`
}

// ReviewOutput is how a review's round ended.
type ReviewOutput struct {
	Review   string          `json:"review"`
	Round    int             `json:"round"`
	Status   string          `json:"status"`
	Gate     string          `json:"gate"`
	Findings []ReviewFinding `json:"findings"`
	// Report is the command's text report (the findings, the exit line,
	// what next).
	Report string `json:"report"`
}

func (s *server) review(ctx context.Context, req *mcp.CallToolRequest, in ReviewInput) (*mcp.CallToolResult, ReviewOutput, error) {
	args := s.withConfig("review")
	args = append(args, flagArgs(in)...)
	args = append(args, "--headless", "--format", "sarif")
	if in.AcceptPlan {
		args = append(args, "--yes")
	}
	if in.Bug != "" {
		// after "--": a bug named like a flag ("--yes") stays a bug
		args = append(args, "--", in.Bug)
	}
	p := newProgress(ctx, req)
	p.say("the tribunal is seated")
	o, err := s.moot.run(ctx, args, nil)
	if err != nil {
		return nil, ReviewOutput{}, err
	}
	if !in.AcceptPlan {
		return nil, ReviewOutput{}, notAccepted(o)
	}
	out, ok := readSARIF(o.stdout)
	if !ok { // no round ran: the command refused its input
		return nil, ReviewOutput{}, toolError(o)
	}
	out.Report = o.lastLine()
	p.say("review " + out.Review + ": " + out.Status)
	return textResult(fmt.Sprintf("review %s round %d: %s — %s\n%s", out.Review, out.Round, strings.ToUpper(out.Status), out.Gate, out.Report)), out, nil
}

// readSARIF reads the review's SARIF log (moot review --format sarif)
// back into findings.
func readSARIF(stdout string) (ReviewOutput, bool) {
	var log struct {
		Runs []struct {
			Invocations []struct {
				Properties struct {
					Review string `json:"review"`
					Round  int    `json:"round"`
					Status string `json:"status"`
					Gate   string `json:"gate"`
				} `json:"properties"`
			} `json:"invocations"`
			Results []struct {
				RuleID     string `json:"ruleId"`
				Level      string `json:"level"`
				Message    struct{ Text string }
				Properties struct {
					Severity string `json:"severity"`
					Location string `json:"location"`
				} `json:"properties"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if json.Unmarshal([]byte(stdout), &log) != nil || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
		return ReviewOutput{}, false
	}
	run := log.Runs[0]
	inv := run.Invocations[0].Properties
	out := ReviewOutput{Review: inv.Review, Round: inv.Round, Status: inv.Status, Gate: inv.Gate, Findings: []ReviewFinding{}}
	for _, r := range run.Results {
		f := ReviewFinding{Lens: r.RuleID, Level: r.Level, Severity: r.Properties.Severity, Message: r.Message.Text}
		if len(r.Locations) > 0 && r.Properties.Location != "summary" { // the summary stands for no file
			f.File = r.Locations[0].PhysicalLocation.ArtifactLocation.URI
			if p, err := url.PathUnescape(f.File); err == nil { // the SARIF URI's path
				f.File = p
			}
		}
		out.Findings = append(out.Findings, f)
	}
	return out, true
}
