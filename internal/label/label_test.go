package label

import "testing"

// TestWinnerReadsProposalInEveryLanguage: a winner reads "proposal B" in the
// UI whatever language the documents use.
func TestWinnerReadsProposalInEveryLanguage(t *testing.T) {
	for _, tc := range []struct{ label, solver, want string }{
		{"Proposta B", "agente-2", "proposal B (agente-2)"},
		{"Proposal A", "", "proposal A"},
		{"A", "agent-1", "proposal A (agent-1)"},
		{"", "agente-3", "agente-3"},
		{"", "", "—"},
		{"agente-3", "", "agente-3"},
	} {
		if got := Winner(tc.label, tc.solver); got != tc.want {
			t.Errorf("Winner(%q, %q) = %q, want %q", tc.label, tc.solver, got, tc.want)
		}
	}
}
