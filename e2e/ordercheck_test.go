package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// The order-swap check's second call moves every proposal to another
// slot under another label, so a judge drawn to a slot (the middle of
// three, which a reversal leaves in place) or to a letter (always "B",
// which a reversal never moves) picks another proposal: unstable. A judge
// that reads, naming the same proposal wherever it is, stays stable.
func TestOrderCheckCatchesSlotAndLabelBias(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, judge string
		stable      bool
	}{
		{"a judge drawn to the middle slot", "middle", false},
		{"a judge drawn to the letter B", "winner:B", false},
		{"a judge that reads the proposals", "content:S3", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			p.Plan = "solver=mark,judge=" + tc.judge
			r := p.moot("run", "7", "--mode", "diagnosis", "-n", "3", "-r", "0", "--verify-judge", "--yes", "--headless", "--on-judge-failure", "cancel")
			d := p.readDebate()
			var orders [][]string
			for _, ev := range d.Events {
				if ev.Type == bugfolder.EvReadingOrder && ev.SolverID == "juiz" {
					orders = append(orders, ev.Order)
				}
			}
			if len(orders) != 2 || !slices.Equal(orders[0], []string{"A", "B", "C"}) || !slices.Equal(orders[1], []string{"C", "A", "B"}) {
				t.Errorf("the check's second call does not move every proposal: %v", orders)
			}
			second := p.prompt(0, "juiz", 2)
			for slot, l := range []string{"A", "B", "C"} {
				first := p.prompt(0, "juiz", 1)
				if labelOfText(first, l) == labelOfText(second, l) {
					t.Errorf("slot %d: the proposal shown as %s in the first call keeps its label in the second", slot, l)
				}
			}
			if tc.stable {
				r.mustExit(t, 0)
				if !strings.Contains(p.final(), "judge_order_check: stable") || !strings.Contains(p.final(), "winner_solver: agente-3") {
					t.Errorf("a reading judge is not stable:\n%s", p.final())
				}
				return
			}
			r.mustExit(t, 3)
			var reason string
			for _, ev := range d.Events {
				if ev.Type == bugfolder.EvJudgeFailed {
					reason = ev.Reason
				}
			}
			if !strings.Contains(reason, "unstable verdict") {
				t.Errorf("a biased judge passed the check: %q\n%s", reason, r.stderr)
			}
		})
	}
}

// labelOfText is the label under which a judge's prompt shows the proposal
// whose trace token (TRACESOLVER…S<n>) is the one shown under label l in
// that prompt: the token itself, so two prompts can be compared.
func labelOfText(prompt, l string) string {
	i := strings.Index(prompt, "PROPOSTA "+l+" ")
	if i < 0 {
		return ""
	}
	j := strings.Index(prompt[i:], "TRACESOLVER")
	if j < 0 {
		return ""
	}
	tok := prompt[i+j:]
	return tok[:strings.IndexAny(tok, "\n ")]
}
