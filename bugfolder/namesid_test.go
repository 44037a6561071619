package bugfolder

import "testing"

// An id is named only as a whole: agente-10 does not name agente-1, and
// a word that merely ends in the id names nothing.
func TestNamesIDMatchesWholeIDsOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text, id string
		want     bool
	}{
		{"Concordo com agente-1.", "agente-1", true},
		{"AGENTE-1 erra o limite", "agente-1", true},
		{"agente-1", "agente-1", true},
		{"Concordo com a minha, agente-10.", "agente-1", false},
		{"agente-10 e agente-1 divergem", "agente-1", true},
		{"subagente-1 disse", "agente-1", false},
		{"(agente-2)", "agente-2", true},
		{"agente-2a", "agente-2", true},
		{"", "agente-1", false},
		{"agente-1", "", false},
	} {
		if got := namesID(c.text, c.id); got != c.want {
			t.Errorf("namesID(%q, %q) = %v, want %v", c.text, c.id, got, c.want)
		}
	}
}
