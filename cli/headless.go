package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
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
}

func newProgress(e *env, reg *bugfolder.Register, asJSON bool) *progress {
	p := &progress{human: e.stderr, reg: reg}
	if asJSON {
		p.json = e.stdout
	}
	return p
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

// marshal writes an event as a JSON line; on a restricted bug an answer's
// text is replaced by its size in bytes.
func (p *progress) marshal(ev engine.Event) ([]byte, error) {
	if !p.restricted || ev.Type != engine.EvOutput {
		return json.Marshal(ev)
	}
	n := len(ev.Text)
	ev.Text = ""
	b, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	delete(m, "text")
	m["bytes"], m["restricted"] = n, true
	return json.Marshal(m)
}

func (p *progress) printf(format string, args ...any) {
	fmt.Fprintf(p.human, format, args...)
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
		if ev.Role == bugfolder.RoleJudge && ev.Status == string(bugfolder.StatusOK) {
			return // judge_finished says it
		}
		tok := fmt.Sprintf("%s→%s tokens", thousands(ev.TokensIn), thousands(ev.TokensOut))
		if ev.Estimated {
			tok += " (est.)"
		}
		line := fmt.Sprintf("  %-10s %-14s %-8s %s  %s", ev.SolverID, ev.Status, humanDuration(ms(ev.DurationMS)), tok, eventCost(ev.CostUSD, ev.CostUnknown))
		if ev.Attempt > 1 {
			line += fmt.Sprintf("  attempt %d", ev.Attempt)
		}
		if ev.Error != "" {
			line += "  — " + clip(ev.Error, 160)
		}
		p.printf("%s\n", line)
	case engine.EvQuorumLost:
		p.printf("quorum lost in round %d: %d valid, %d needed (failed: %s)\n", ev.Round, ev.Valid, ev.Needed, strings.Join(ev.Failed, ", "))
	case engine.EvDecision:
		s := fmt.Sprintf("decision at the %s menu: %s (by %s)", ev.Point, ev.Choice, ev.By)
		if len(ev.Dropped) > 0 {
			s += "; out of the debate: " + strings.Join(ev.Dropped, ", ")
		}
		if ev.ExtraCalls > 0 {
			s += fmt.Sprintf("; +%d call(s), ≈%s", ev.ExtraCalls, engine.USD(ev.ExtraUSD))
		}
		if ev.Winner != "" {
			s += "; winner " + ev.Winner
		}
		p.printf("%s\n", s)
	case engine.EvJudgeStarted:
		p.printf("judge (attempt %d)\n", ev.Attempt)
	case engine.EvJudgeFinished:
		p.printf("  winner: %s (decided by %s)\n", ev.Winner, ev.By)
	case engine.EvJudgeFailed:
		p.printf("  judge failed: %s\n", clip(ev.Reason, 200))
	case engine.EvWarning:
		p.printf("warning: %s\n", ev.Text)
	case engine.EvDebateFinished:
		p.printf("%s: %d calls, %s tokens, %s — %s\n", ev.Status, ev.Calls, thousands(ev.Tokens), eventCost(ev.USD, ev.CostUnknown), p.reg.Rel(ev.Path))
		if ev.Reason != "" && ev.Status != string(engine.OutcomeDone) {
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

// eventCost is a cost as the headless output shows it: "cost unknown" when
// no price recorded it, never $0.00.
func eventCost(usd float64, unknown bool) string {
	if unknown {
		return "cost unknown"
	}
	return engine.USD(usd)
}
