package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reversa/moot/internal/digits"
	"github.com/reversa/moot/internal/label"
	"github.com/reversa/moot/internal/money"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/termsafe"
)

// progress prints a debate's events for a person (on stderr) and, with
// --json, every event as one JSON line (on stdout).
type progress struct {
	mu    sync.Mutex
	human io.Writer
	json  io.Writer
	reg   *bugfolder.Register
	// restricted: the bug's answers never leave moot, so output events
	// carry their size, not their text.
	restricted bool
	// bugDir is the debated bug's folder: paths on the --json stream are
	// relative to it, as in the event log.
	bugDir string
	// final is the protocol's word for its final step; supporter its
	// support role's and members its panel's.
	final, supporter, members string
	// nameW is the width of the name column: the longest name a call
	// can carry (a "synthesizer" is wider than "agente-1").
	nameW int
}

// finalWord is the protocol's word for its final step.
func (p *progress) finalWord() string { return p.final }

// byWord is who decided, in the protocol's words: the final step's
// "judge" (the event's value, a contract) reads as the protocol names it.
func (p *progress) byWord(by string) string {
	if by == string(bugfolder.PointJudge) {
		return p.final
	}
	return by
}

// newProgress prints the events of a debate under proto, in its words.
func newProgress(e *env, reg *bugfolder.Register, asJSON bool, proto engine.Protocol) *progress {
	words := engine.Describe(proto)
	p := &progress{human: e.stderr, reg: reg, final: words.Final, supporter: words.Supporter, members: words.Members}
	p.nameW = max(10, len(words.Final), len(words.Supporter)+3)
	if asJSON {
		p.json = e.stdout
	}
	return p
}

// who names a call in the progress: a member by its id; the support role
// and the final step by the protocol's words where its files' names are
// the debate's (critic-1 is argue's scorer, juiz a synthesizer).
func (p *progress) who(id string) string {
	switch {
	case id == bugfolder.PT.Names().JudgeID && p.final != "":
		return p.final
	case strings.HasPrefix(id, bugfolder.PT.Names().Critic) && p.supporter != "" && p.supporter != "critic":
		return p.supporter + strings.TrimPrefix(id, bugfolder.PT.Names().Critic)
	}
	return id
}

// whoAll names calls as who does, joined.
func (p *progress) whoAll(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = p.who(id)
	}
	return strings.Join(out, ", ")
}

// sink receives engine events.
func (p *progress) sink(ev engine.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json != nil {
		b, err := p.marshal(ev)
		if err == nil {
			p.json.Write(append(b, '\n'))
		}
	}
	p.line(ev)
}

// marshal writes an event as a JSON line. On a restricted bug no model or
// engine text reaches stdout: an answer's text is replaced by its size in
// bytes, and a free-text reason (a failed call's error, which may quote the
// answer or the engine's stderr; a judge failure) by a typed code and size.
func (p *progress) marshal(ev engine.Event) ([]byte, error) {
	ev.Path = engine.RelToBug(p.bugDir, ev.Path)
	if !p.restricted {
		return json.Marshal(ev)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	switch ev.Type {
	case engine.EvOutput:
		delete(m, "text")
		m["bytes"], m["restricted"] = len(ev.Text), true
	case engine.EvCallFinished:
		redactField(m, "error", ev.ErrorText(), string(ev.Status))
	case engine.EvJudgeFailed:
		redactField(m, "reason", ev.Reason, "judge-failure")
	case engine.EvDebateFinished:
		redactField(m, "reason", ev.Reason, string(ev.Outcome))
	case engine.EvDecision:
		if ev.Point != bugfolder.PointStop {
			return b, nil
		}
		redactField(m, "reason", ev.Reason, ev.Choice) // a scorer's synthesis-ready reason is model text
	default:
		return b, nil
	}
	return json.Marshal(m)
}

// redactField replaces a free-text field by field_code and field_bytes.
func redactField(m map[string]any, field, text, code string) {
	if text == "" {
		return
	}
	delete(m, field)
	m[field+"_code"], m[field+"_bytes"], m["restricted"] = code, len(text), true
}

func (p *progress) printf(format string, args ...any) {
	io.WriteString(p.human, termsafe.Text(fmt.Sprintf(format, args...)))
}

// line writes the human progress line of an event (most events have one).
func (p *progress) line(ev engine.Event) {
	switch ev.Type {
	case engine.EvSetup:
		p.printf("debate set up in %s (%s)\n", p.reg.Rel(ev.Path), ev.Formula)
	case engine.EvResumed:
		p.printf("resuming %s\n", p.reg.Rel(ev.Path))
	case engine.EvRoundStarted:
		p.printf("round %d\n", ev.Round)
	case engine.EvCallFinished:
		if ev.Role == bugfolder.RoleJudge && ev.Status == bugfolder.StatusOK {
			return // judge_finished says it
		}
		tok := fmt.Sprintf("%s→%s tokens", digits.Grouped(ev.TokensIn), digits.Grouped(ev.TokensOut))
		if ev.Estimated {
			tok += " (est.)"
		}
		line := fmt.Sprintf("  %-*s %-14s %-8s %s  %s", p.nameW, p.who(ev.SolverID), ev.Status, callDuration(ms(ev.DurationMS)), tok, eventCost(ev.CostUSD, ev.CostUnknown))
		if ev.Attempt > 1 {
			line += fmt.Sprintf("  attempt %d", ev.Attempt)
		}
		if ev.Error != "" || ev.Retrying {
			line += "  — " + clip(ev.ErrorText(), 160)
		}
		p.printf("%s\n", line)
	case engine.EvQuorumLost:
		if ev.Role != "" { // only the support role failed: the panel's quorum holds
			p.printf("the %s failed in round %d (%s); the quorum of %s holds (%d valid, %d needed)\n",
				p.supporter, ev.Round, p.whoAll(ev.Failed), p.members, ev.Valid, ev.Needed)
			return
		}
		p.printf("quorum lost in round %d: %d valid, %d needed (failed: %s)\n", ev.Round, ev.Valid, ev.Needed, p.whoAll(ev.Failed))
	case engine.EvDecision:
		if ev.Point == engine.PointStop {
			p.printf("stopped after round %d (%s): %s\n", ev.Round, ev.By, ev.Reason)
			return
		}
		if ev.Point == engine.PointOpening {
			p.printf("left out after round %d (by %s): %s; %s\n", ev.Round, p.byWord(ev.By), strings.Join(ev.Dropped, ", "), ev.Reason)
			return
		}
		point := string(ev.Point)
		if point == "judge" {
			point = p.finalWord()
		}
		s := fmt.Sprintf("decision at the %s menu: %s (by %s)", point, ev.Choice, p.byWord(ev.By))
		if len(ev.Dropped) > 0 {
			s += "; out of the debate: " + strings.Join(ev.Dropped, ", ")
		}
		if ev.ExtraCalls > 0 {
			s += fmt.Sprintf("; +%d call(s), ≈%s", ev.ExtraCalls, engine.USD(ev.ExtraUSD))
		}
		if ev.Winner != "" {
			s += "; winner " + label.Proposal(ev.Winner)
		}
		if ev.Point == bugfolder.PointBudget && ev.Reason != "" {
			s += "; " + ev.Reason // the cap, the spend and the call held back
		}
		p.printf("%s\n", s)
	case engine.EvJudgeStarted:
		p.printf("%s (attempt %d)\n", p.finalWord(), ev.Attempt)
	case engine.EvReadingOrder:
		if ev.Role == bugfolder.RoleJudge && !slices.IsSorted(ev.Order) {
			p.printf("  order-swap check: every proposal moved and relabelled (%s)\n", strings.Join(ev.Order, ", "))
		}
	case engine.EvJudgeFinished:
		if ev.Winner == "" {
			p.printf("  final answer written (by %s)\n", p.byWord(ev.By))
		} else {
			p.printf("  winner: %s (decided by %s)\n", label.Proposal(ev.Winner), p.byWord(ev.By))
		}
	case engine.EvJudgeFailed:
		p.printf("  %s failed: %s\n", p.finalWord(), clip(ev.Reason, 200))
	case engine.EvWarning:
		p.printf("warning: %s\n", ev.Text)
	case engine.EvDebateFinished:
		p.printf("%s: %d calls, %s tokens, %s — %s\n", ev.Outcome, ev.Calls, digits.Grouped(ev.Tokens), eventCost(ev.USD, ev.CostUnknown), p.reg.Rel(ev.Path))
		if ev.Reason != "" && ev.Outcome != engine.OutcomeDone {
			p.printf("%s\n", ev.Reason)
		}
	}
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// eventCost is a cost as the headless output shows it (money.Total): a
// cost nothing prices reads "cost unknown", not a bare "unknown" beside
// the token counts.
func eventCost(usd float64, unknown bool) string {
	if s := money.Total(usd, unknown); s != "unknown" {
		return s
	}
	return "cost unknown"
}

// callDuration is a call's time in the headless column: under ten seconds
// always with one decimal ("7.0s" above "7.4s"), so the column reads alike.
func callDuration(d time.Duration) string {
	if d >= time.Second && d < 10*time.Second {
		return fmt.Sprintf("%.1fs", d.Round(100*time.Millisecond).Seconds())
	}
	return humanDuration(d)
}
