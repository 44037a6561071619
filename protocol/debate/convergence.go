package debate

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/reversa/moot/bugfolder"
)

// RoundMetrics is one row of convergencia.md.
type RoundMetrics struct {
	Round int
	// Valid of Panel solvers answered validly.
	Valid, Panel int
	// Low, Medium, High count the stated confidences.
	Low, Medium, High int
	// Spread is the distance between the lowest and highest confidence (0–2).
	Spread int
	// Agreement is the mean pairwise similarity (0–1) of the root causes
	// (fix strategies in repair, rule readings in spec); -1 when fewer than
	// two solvers answered.
	Agreement float64
	// Movement is how much each solver's proposal changed since the last
	// round (0 = same words, 1 = all new); absent in round 0.
	Movement map[string]float64
}

// MeanMovement averages the solvers' movement (-1 when unknown).
func (m RoundMetrics) MeanMovement() float64 {
	if len(m.Movement) == 0 {
		return -1
	}
	s := 0.0
	for _, v := range m.Movement {
		s += v
	}
	return s / float64(len(m.Movement))
}

// agreementSection is the section whose agreement is measured in a mode.
func agreementSection(m bugfolder.Mode) bugfolder.SectionKey {
	switch m {
	case bugfolder.Repair:
		return bugfolder.SecFixStrategy
	case bugfolder.Spec:
		return bugfolder.SecRuleReading
	}
	return bugfolder.SecRootCause
}

// Measure computes a round's metrics from the valid bodies of this round
// and of the previous one (solver id → body).
func Measure(mode bugfolder.Mode, round, panel int, cur, prev map[string]string) RoundMetrics {
	m := RoundMetrics{Round: round, Valid: len(cur), Panel: panel, Agreement: -1}
	lo, hi := 4, 0
	ids := make([]string, 0, len(cur))
	for id := range cur {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var sets []map[string]bool
	for _, id := range ids {
		body := cur[id]
		c := bugfolder.ParseConfidence(firstWord(bugfolder.SectionText(body, bugfolder.SecConfidence)))
		switch c {
		case bugfolder.ConfLow:
			m.Low++
		case bugfolder.ConfMedium:
			m.Medium++
		case bugfolder.ConfHigh:
			m.High++
		}
		if c != bugfolder.ConfUnknown {
			lo, hi = min(lo, int(c)), max(hi, int(c))
		}
		sets = append(sets, words(bugfolder.SectionText(body, agreementSection(mode))))
		if old, ok := prev[id]; ok {
			if m.Movement == nil {
				m.Movement = map[string]float64{}
			}
			m.Movement[id] = 1 - jaccard(words(old), words(body))
		}
	}
	if hi >= lo {
		m.Spread = hi - lo
	}
	if len(sets) >= 2 {
		sum, n := 0.0, 0
		for i := range sets {
			for j := i + 1; j < len(sets); j++ {
				sum += jaccard(sets[i], sets[j])
				n++
			}
		}
		m.Agreement = sum / float64(n)
	}
	return m
}

func firstWord(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// stopwords are dropped before comparing texts.
// Built on first use, not at every start of the binary.
var stopwords = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(`a o as os um uma de da do das dos e em no na nos nas que por para com se ao à é não mais
		the an of to in on and or is are be it this that for with as by at from not`) {
		set[w] = true
	}
	return set
})

// words is the set of content words of a text (lower case, no accents).
func words(text string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > 1 && !stopwords()[w] {
			set[w] = true
		}
	}
	return set
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// RenderConvergence writes convergencia.md: a table with one row per round
// (the round number first), then notes.
func RenderConvergence(l bugfolder.Lang, mode bugfolder.Mode, rows []RoundMetrics, notes []string) string {
	pt := l == bugfolder.PT
	t := func(a, b string) string {
		if pt {
			return a
		}
		return b
	}
	var w strings.Builder
	w.WriteString(t("# Convergência\n\n", "# Convergence\n\n"))
	sec := agreementSection(mode).Title(l)
	fmt.Fprintf(&w, t("Só auditoria: as rodadas são fixas e nada aqui encerra o debate. Concordância compara %q entre os debatedores (0–1); movimento é quanto cada proposta mudou desde a rodada anterior (0–1).\n\n",
		"Audit only: rounds are fixed and nothing here stops the debate. Agreement compares %q between the debaters (0–1); movement is how much each proposal changed since the previous round (0–1).\n\n"), sec)
	w.WriteString(t("| rodada | válidos | confiança (baixa/média/alta) | dispersão | concordância | movimento |\n",
		"| round | valid | confidence (low/medium/high) | spread | agreement | movement |\n"))
	w.WriteString("|---|---|---|---|---|---|\n")
	for _, r := range rows {
		agree, move := "—", "—"
		if r.Agreement >= 0 {
			agree = fmt.Sprintf("%.2f", r.Agreement)
		}
		if mm := r.MeanMovement(); mm >= 0 {
			var per []string
			ids := make([]string, 0, len(r.Movement))
			for id := range r.Movement {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			for _, id := range ids {
				per = append(per, fmt.Sprintf("%s %.2f", id, r.Movement[id]))
			}
			move = fmt.Sprintf("%.2f (%s)", mm, strings.Join(per, ", "))
		}
		fmt.Fprintf(&w, "| %d | %d/%d | %d/%d/%d | %d | %s | %s |\n", r.Round, r.Valid, r.Panel, r.Low, r.Medium, r.High, r.Spread, agree, move)
	}
	if len(notes) > 0 {
		w.WriteString(t("\nNotas:\n\n", "\nNotes:\n\n"))
		for _, n := range notes {
			w.WriteString("- " + n + "\n")
		}
	}
	return w.String()
}
