package review

import (
	"slices"
	"testing"

	"github.com/reversa/moot/harness"
)

// TestEngineLabels: the builder's and the panel's distinctive engine
// names and model ids are scanned for; plain words, kinds, families and
// vendors' model words are not, nor a bare family given as --builder.
func TestEngineLabels(t *testing.T) {
	cfg := &harness.Config{Engines: map[string]*harness.EngineConfig{
		"builderbot": {Kind: harness.KindCommand},
		"juror-a":    {Kind: harness.KindCommand, Model: "claude-sonnet-4"},
		"local":      {Kind: harness.KindOpenAI, Model: "qwen2.5-coder:7b"},
		"claude":     {Kind: harness.KindClaude},
		"gpt5":       {Kind: harness.KindCodex},
		"openai":     {Kind: harness.KindOpenAI},
		"security":   {Kind: harness.KindCommand},
	}}
	cases := []struct {
		builder string
		panel   []string
		want    []string
	}{
		{"builderbot", nil, []string{"builderbot"}},
		{"openai", []string{"juror-a", "local"}, []string{"claude-sonnet-4", "juror-a", "qwen2.5-coder:7b"}},
		{"gpt-5-codex", []string{"claude", "gpt5", "openai", "security"}, []string{"gpt-5-codex"}},
		{"", []string{"nosuch"}, []string{"nosuch"}},
	}
	for _, c := range cases {
		if got := EngineLabels(cfg, c.builder, c.panel); !slices.Equal(got, c.want) {
			t.Errorf("builder %q panel %v: %q, want %q", c.builder, c.panel, got, c.want)
		}
	}
}
