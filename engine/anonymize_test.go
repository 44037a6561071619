package engine

import (
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestAnonymizerKeepsProse: participant ids in every form a model uses and
// distinctive engine and model names are hidden; plain words stay.
func TestAnonymizerKeepsProse(t *testing.T) {
	names := []string{"local", "claude", "zeta-engine", "qwen3:8b", "gpt-5-codex"}
	for _, tc := range []struct {
		mode     AnonymizeMode
		in, want string
	}{
		{HideAll, "agente-2 e Agent #3 e o debatedor 1 e critic-1", "[debatedor] e [debatedor] e o [debatedor] e [debatedor]"},
		{HideAll, "o debater no. 2 e o crítico-2 e o agente #3 e solver-2", "o [debatedor] e o [debatedor] e o [debatedor] e [debatedor]"},
		// "agente 2" followed by ordinary words is prose
		{HideAll, "um agente 2 vezes mais lento e um crítico 3 dias depois", "um agente 2 vezes mais lento e um crítico 3 dias depois"},
		{HideAll, "o agente nº 2, o Agente Nº1 e o agent no. 3", "o [debatedor], o [debatedor] e o [debatedor]"},
		{HideAll, "o agente no 2º dia falhou", "o agente no 2º dia falhou"},
		// a vendor name used as an engine name is distinctive
		{HideAll, "rodamos local, sem openai nem claude", "rodamos local, sem openai nem [modelo]"},
		{HideAll, "eu sou zeta-engine com qwen3:8b e gpt-5-codex", "eu sou [modelo] com [modelo] e [modelo]"},
		{KeepIDs, "agente-2 rodou em zeta-engine", "agente-2 rodou em [modelo]"},
		{HideAll, "os agentes 2 e o agenda-2", "os agentes 2 e o agenda-2"},
	} {
		if got := NewAnonymizer(bugfolder.PT, names, tc.mode).Apply(tc.in); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
	// only ordinary words (and names under 3 letters)
	// cannot be hidden; vendor, model-family and invented names can
	for name, want := range map[string]bool{"local": false, "omega": false, "Default": false, "fast": false, "ab": false, "cx": false,
		"claude": true, "zorbatron": true, "mistral": true, "deepseek": true, "qwen": true, "gpt": true, "zeta-engine": true, "qwen3:8b": true} {
		if Distinctive(name) != want {
			t.Errorf("Distinctive(%q) = %v", name, !want)
		}
	}
}
