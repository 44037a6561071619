package engine

import (
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestBudgetHeadSaysTheSpend: the line of a cut final answer says the
// spend as the budget menu does: no tokens spent is "0 tokens", never
// "no cap", and a dollar cap shows a $0 spend (every engine unpriced).
func TestBudgetHeadSaysTheSpend(t *testing.T) {
	tests := []struct {
		name string
		lang bugfolder.Lang
		cap  Budget
		usd  float64
		tok  int
		want string
	}{
		{"no tokens spent", bugfolder.EN, Budget{MaxTokens: 100}, 0, 0, "cap of 100 tokens; spent 0 tokens in all"},
		{"unpriced under a dollar cap", bugfolder.EN, Budget{MaxUSD: 1, MaxTokens: 900}, 0, 500, "cap of $1.00 and 900 tokens; spent $0.00 and 500 tokens in all"},
		{"priced, in Portuguese", bugfolder.PT, Budget{MaxUSD: 1}, 0.5, 500, "teto de $1.00; gasto $0.50 e 500 tokens ao todo"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &runner{lang: tc.lang, bud: &budget{cap: tc.cap, usd: tc.usd, tok: tc.tok, cut: true}}
			if got := r.budgetHead(); !strings.Contains(got, tc.want) {
				t.Errorf("budgetHead() = %q, want it to say %q", got, tc.want)
			}
		})
	}
}
