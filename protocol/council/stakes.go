package council

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// ValueAtRiskOver is the council protocol's value-at-risk trigger: a decision that
// puts more than this at risk (in the register's currency) escalates.
const ValueAtRiskOver = 100_000

// The council's time limits (docs/protocols/council.md), its defaults (a flag or the engines
// file overrides each).
const (
	CallLimit   = 30 * time.Second
	RoundLimit  = 120 * time.Second
	DebateLimit = 300 * time.Second
)

// TimeLimits are the council protocol's limits: 30 s a call, 120 s a round, 300 s in
// all.
func (Protocol) TimeLimits() engine.TimeLimits {
	return engine.TimeLimits{Call: CallLimit, Round: RoundLimit, Debate: DebateLimit}
}

// stakesHeading opens the section of P that freezes the stakes; the
// last one in P is moot's (Pack appends it after the bug's text).
func stakesHeading(l bugfolder.Lang) string {
	return t(l, "### Riscos da decisão (council)", "### Stakes of the decision (council)")
}

// writeStakes appends the stakes section to P (nothing when none were
// stated).
func writeStakes(w *strings.Builder, l bugfolder.Lang, s engine.Stakes) {
	if !s.Stated() {
		return
	}
	w.WriteString("\n" + stakesHeading(l) + "\n\n")
	value := t(l, "não informado", "not stated")
	if s.Valued {
		value = strconv.FormatFloat(s.ValueAtRisk, 'f', -1, 64)
	}
	fmt.Fprintf(w, t(l, "%s %s (escala acima de %d)\n", "%s %s (escalates over %d)\n"), valueLabel(l), value, ValueAtRiskOver)
	fmt.Fprintf(w, "%s %s\n", irreversibleLabel(l), t(l, yesNo(s.Irreversible, "sim", "não"), yesNo(s.Irreversible, "yes", "no")))
}

func valueLabel(l bugfolder.Lang) string { return t(l, "Valor em risco:", "Value at risk:") }
func irreversibleLabel(l bugfolder.Lang) string {
	return t(l, "Decisão irreversível:", "Irreversible decision:")
}

func yesNo(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// stakesOf reads the stakes back from a frozen P: moot's own section, which
// Pack writes as P's tail. A stakes heading with anything else after it is
// text the bug or its evidence brought (fenced in P), never a stated stake,
// so P without moot's tail states none.
func stakesOf(l bugfolder.Lang, p string) engine.Stakes {
	var s engine.Stakes
	i := strings.LastIndex(p, "\n"+stakesHeading(l)+"\n")
	if i < 0 {
		return s
	}
	lines := strings.Split(p[i+1:], "\n")[1:]
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, valueLabel(l)) && !strings.HasPrefix(line, irreversibleLabel(l)) {
			return engine.Stakes{}
		}
	}
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, valueLabel(l)); ok {
			if f := strings.Fields(v); len(f) > 0 {
				if n, err := strconv.ParseFloat(f[0], 64); err == nil {
					s.ValueAtRisk, s.Valued = n, true
				}
			}
		}
		if v, ok := strings.CutPrefix(line, irreversibleLabel(l)); ok {
			s.Irreversible = strings.TrimSpace(v) == t(l, "sim", "yes")
		}
	}
	return s
}

// stakesReasons are the escalations the stakes call for (docs/protocols/council.md: value
// at risk over ValueAtRiskOver; an irreversible decision).
func stakesReasons(l bugfolder.Lang, s engine.Stakes) []string {
	var out []string
	if s.Valued && s.ValueAtRisk > ValueAtRiskOver {
		out = append(out, fmt.Sprintf(t(l, "valor em risco de %s (> %d)", "value at risk of %s (> %d)"), strconv.FormatFloat(s.ValueAtRisk, 'f', -1, 64), ValueAtRiskOver))
	}
	if s.Irreversible {
		out = append(out, t(l, "decisão irreversível", "irreversible decision"))
	}
	return out
}
