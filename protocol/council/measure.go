package council

import (
	"fmt"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Thresholds of docs/protocols/council.md ("Quando escalar"): under Escalate a result is
// flagged escalate; a synthesis confidence under Human goes to a human.
const (
	EscalateBelow = 70
	HumanBelow    = 50
)

// Row is one round's measure. Convergence is the share of agreements
// among the agreements and disagreements the members' rebuttals list
// (items of "Concordo com" over those of "Concordo com" and "Discordo
// de"), in percent; -1 when not measured (round 0, which has no
// rebuttals; a round with fewer than two valid members; or rebuttals that
// list neither).
type Row struct {
	Round, Called, Valid int
	Agree, Disagree      int
	// Kept, Partly and Changed count the answers of "Mantenho minha
	// posição": sim, parcialmente, não.
	Kept, Partly, Changed int
	// Confidence is the members' mean confidence, -1 when none stated one.
	Confidence  int
	Convergence int
}

// Measure measures round j from its valid member answers.
func (Protocol) Measure(m bugfolder.Mode, j, called int, cur, prev map[string]string) engine.ConvergenceRow {
	return measure(j, called, cur)
}

// measure counts agreements, disagreements, kept positions and mean
// confidence over answers.
func measure(j, called int, cur map[string]string) Row {
	row := Row{Round: j, Called: called, Valid: len(cur), Confidence: -1, Convergence: -1}
	sum, n := 0, 0
	for _, body := range cur {
		got := sectionsOf(body, memberSections(j))
		if c, ok := confidence(got[secConfidence]); ok {
			sum, n = sum+c, n+1
		}
		if j == 0 {
			continue
		}
		row.Agree += len(items(got[secAgree]))
		row.Disagree += len(items(got[secDisagree]))
		switch keepWord(got[secKeep]) {
		case "sim":
			row.Kept++
		case "parcialmente":
			row.Partly++
		case "não":
			row.Changed++
		}
	}
	if n > 0 {
		row.Confidence = (sum + n/2) / n
	}
	if j > 0 && len(cur) >= 2 && row.Agree+row.Disagree > 0 { // a lone member agrees with nobody
		row.Convergence = (100*row.Agree + (row.Agree+row.Disagree)/2) / (row.Agree + row.Disagree)
	}
	return row
}

// sectionsOf reads an answer's sections without judging it.
func sectionsOf(body string, want []heading) map[heading]string {
	_, secs := bugfolder.ParseSections(body)
	got := map[heading]string{}
	for _, s := range secs {
		if h, ok := match(s.Heading, want); ok {
			if _, dup := got[h]; !dup {
				got[h] = s.Text()
			}
		}
	}
	return got
}

// pct renders a measure, "—" when not measured.
func pct(v int) string {
	if v < 0 {
		return "—"
	}
	return fmt.Sprintf("%d %%", v)
}

// RenderConvergence writes convergencia.md: per round, who answered, the
// agreements and disagreements, who kept its position, the mean
// confidence and the convergence, then how convergence is measured.
func (Protocol) RenderConvergence(l bugfolder.Lang, m bugfolder.Mode, rows []engine.ConvergenceRow, notes []string) string {
	var b strings.Builder
	b.WriteString(t(l, "# Convergência (council)\n\n", "# Convergence (council)\n\n"))
	b.WriteString(t(l, "| rodada | membros chamados | válidos | concordâncias | discordâncias | mantêm sim/parcial/não | confiança média | convergência |\n|---|---|---|---|---|---|---|---|\n",
		"| round | members called | valid | agreements | disagreements | keep yes/partly/no | mean confidence | convergence |\n|---|---|---|---|---|---|---|---|\n"))
	for _, r := range rows {
		row, ok := r.(Row)
		if !ok {
			continue
		}
		keep := "—"
		if row.Round > 0 {
			keep = fmt.Sprintf("%d/%d/%d", row.Kept, row.Partly, row.Changed)
		}
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %s | %s | %s |\n", row.Round, row.Called, row.Valid, row.Agree, row.Disagree, keep, pct(row.Confidence), pct(row.Convergence))
	}
	fmt.Fprintf(&b, t(l, "\nConvergência = itens de \"Concordo com\" ÷ itens de \"Concordo com\" e \"Discordo de\" nas réplicas da rodada; abaixo de %d %% na última rodada, o resultado é escalado.\n",
		"\nConvergence = items of \"Agree with\" ÷ items of \"Agree with\" and \"Disagree with\" in the round's rebuttals; under %d %% in the last round, the result is escalated.\n"), EscalateBelow)
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return b.String()
}

// Verdict is what the thresholds make of a council's result.
type Verdict struct {
	// Escalate flags the result (convergence or synthesis confidence
	// under EscalateBelow, or a critical divergence left unresolved).
	Escalate bool
	// Human is set when the synthesis confidence is under HumanBelow:
	// the decision goes straight to a human.
	Human   bool
	Reasons []string
}

// judge applies the council protocol's thresholds (docs/protocols/council.md) to the final convergence (-1: not
// measured), the synthesis confidence and the critical divergences, and
// its two other triggers to the stakes frozen in P: a value at risk over
// ValueAtRiskOver, an irreversible decision.
func judge(l bugfolder.Lang, convergence, synthConf int, criticals []string, st engine.Stakes) Verdict {
	var v Verdict
	v.Reasons = append(v.Reasons, stakesReasons(l, st)...)
	switch {
	case convergence < 0:
		v.Reasons = append(v.Reasons, t(l, "convergência final não medida (menos de dois membros responderam, ou nenhuma réplica listou concordâncias ou discordâncias)", "final convergence not measured (fewer than two members answered, or no rebuttal listed agreements or disagreements)"))
	case convergence < EscalateBelow:
		v.Reasons = append(v.Reasons, fmt.Sprintf(t(l, "convergência final de %d %% (< %d %%)", "final convergence of %d %% (< %d %%)"), convergence, EscalateBelow))
	}
	if synthConf < EscalateBelow {
		v.Reasons = append(v.Reasons, fmt.Sprintf(t(l, "confiança da síntese de %d %% (< %d %%)", "synthesis confidence of %d %% (< %d %%)"), synthConf, EscalateBelow))
	}
	for _, c := range criticals {
		v.Reasons = append(v.Reasons, fmt.Sprintf(t(l, "divergência crítica não resolvida: %s", "unresolved critical divergence: %s"), short(c)))
	}
	v.Escalate = len(v.Reasons) > 0
	v.Human = synthConf < HumanBelow
	return v
}
