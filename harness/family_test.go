package harness

import (
	"strings"
	"testing"
)

func TestFamily(t *testing.T) {
	cases := []struct {
		name string
		e    EngineConfig
		want string
	}{
		{"the kind wins over a declaration the file could not load", EngineConfig{Kind: KindCodex, FamilyDecl: "acme"}, "openai"},
		{"openai kind may declare who serves it", EngineConfig{Kind: KindOpenAI, Model: "gpt-5", FamilyDecl: "acme"}, "acme"},
		{"codex cli is openai", EngineConfig{Kind: KindCodex, Model: "whatever"}, "openai"},
		{"claude cli is anthropic", EngineConfig{Kind: KindClaude}, "anthropic"},
		{"gemini cli is google", EngineConfig{Kind: KindGemini}, "google"},
		{"qwen cli is alibaba", EngineConfig{Kind: KindQwen}, "alibaba"},
		{"anthropic api", EngineConfig{Kind: KindAnthropic, Model: "claude-sonnet-4"}, "anthropic"},
		{"openai kind serving qwen is alibaba", EngineConfig{Kind: KindOpenAI, Model: "qwen2.5-coder:7b"}, "alibaba"},
		{"openai kind serving gpt", EngineConfig{Kind: KindOpenAI, Model: "gpt-4o-mini"}, "openai"},
		{"o-series", EngineConfig{Kind: KindOpenAI, Model: "o3-mini"}, "openai"},
		{"opencode provider/model", EngineConfig{Kind: KindOpencode, Model: "anthropic/claude-sonnet-4"}, "anthropic"},
		{"router path reads the model", EngineConfig{Kind: KindOpenAI, Model: "openrouter/google/gemini-2.5-pro"}, "google"},
		{"vendor prefix alone", EngineConfig{Kind: KindOpencode, Model: "openai/some-new-model"}, "openai"},
		{"command without family is unknown", EngineConfig{Kind: KindCommand, Command: []string{"./x"}}, ""},
		{"command with a model name", EngineConfig{Kind: KindCommand, Model: "llama3.1:8b"}, "meta"},
		{"family: unknown is unknown", EngineConfig{Kind: KindCommand, FamilyDecl: "unknown"}, ""},
		{"family: Unknown is unknown in any case", EngineConfig{Kind: KindOpenAI, Model: "gpt-5", FamilyDecl: "Unknown"}, ""},
		{"unknown model is unknown", EngineConfig{Kind: KindOpenAI, Model: "my-finetune"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.e.Family(); got != c.want {
				t.Fatalf("Family() = %q, want %q", got, c.want)
			}
		})
	}
	if SameFamily("", "") {
		t.Fatal("two unknown families must never clash")
	}
	if SameFamily("unknown", "UNKNOWN") {
		t.Fatal("family unknown must never clash, in any case")
	}
	if !SameFamily("openai", "OpenAI") {
		t.Fatal("a family compares without case")
	}
}

func TestFamilyField(t *testing.T) {
	c, err := ParseConfig("moot.yaml", []byte("engines:\n  x:\n    kind: command\n    command: [./x]\n    family: Acme\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Engines["x"].Family(); got != "acme" {
		t.Fatalf("family: Acme read as %q, want acme", got)
	}
	_, err = ParseConfig("moot.yaml", []byte("engines:\n  x:\n    kind: command\n    command: [./x]\n    family: \"open ai\"\n"))
	if err == nil || !strings.Contains(err.Error(), "engines.x.family") {
		t.Fatalf("a family with a space must be refused naming the field, got %v", err)
	}
}

// A family: that agrees with a vendor engine's kind is accepted, and a
// command or openai engine declares whatever family serves it; a known
// family spelt as a model or with a hyphen is that family.
func TestFamilyDeclAccepted(t *testing.T) {
	cases := []struct{ name, yaml, engine, want string }{
		{"claude declared anthropic", "engines:\n  cl:\n    kind: claude\n    family: Anthropic\n", "cl", "anthropic"},
		{"command declared google", "engines:\n  c:\n    kind: command\n    command: [x]\n    family: google\n", "c", "google"},
		{"openai kind serving llama declared acme", "engines:\n  o:\n    kind: openai\n    model: llama3.1:8b\n    family: acme\n", "o", "acme"},
		{"openai kind declared unknown", "engines:\n  o:\n    kind: openai\n    model: gpt-5\n    family: unknown\n", "o", ""},
		{"opencode with an unknown model declares", "engines:\n  oc:\n    kind: opencode\n    model: acme/x1\n    family: acme\n", "oc", "acme"},
		{"a model's word is its family", "engines:\n  c:\n    kind: command\n    command: [x]\n    family: claude\n", "c", "anthropic"},
		{"a hyphenated family", "engines:\n  c:\n    kind: command\n    command: [x]\n    family: open-ai\n", "c", "openai"},
		{"a product's word in capitals", "engines:\n  c:\n    kind: command\n    command: [x]\n    family: Gemini\n", "c", "google"},
		{"claude declared claude", "engines:\n  cl:\n    kind: claude\n    family: claude\n", "cl", "anthropic"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := ParseConfig("moot.yaml", []byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Engines[c.engine].Family(); got != c.want {
				t.Errorf("Family() = %q, want %q", got, c.want)
			}
		})
	}
}

// ModelWord reads a word as a model's name only when a known prefix ends
// where the word's letters do: "Phil" and "Gemmason" are people.
func TestModelWord(t *testing.T) {
	for w, want := range map[string]string{"Claude": "anthropic", "gpt-5": "openai", "Codex": "openai", "qwen2.5": "alibaba",
		"anthropic": "anthropic", "Phil": "", "Gemmason": "", "gpto": "", "": ""} {
		if got := ModelWord(w); got != want {
			t.Errorf("ModelWord(%q) = %q, want %q", w, got, want)
		}
	}
}
