package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const goodConfig = `engines:
  local:
    kind: openai                 # any OpenAI-compatible server
    base_url: http://127.0.0.1:11434/v1
    model: qwen3:8b
  codex:
    kind: codex
    model: gpt-5-codex
    project_access: read-only
  mine:
    kind: command
    command: ["./my-llm", "--role", "{role}", "--who", "{solver_id}", "--round", "{round}"]
    external: false
    timeout: 2m
    context_tokens: 32000
    price: {input_per_mtok: 0.0, output_per_mtok: 0.0}
    env: {MY_FLAG: "1"}
  cloud:
    kind: openai
    base_url: https://api.example.com/v1
    api_key_env: EXAMPLE_API_KEY
  vllm:
    kind: openai
    base_url: http://10.0.0.5:8000/v1
  tape:
    kind: replay
    cassette: testdata/demo.yaml
defaults:
  solver: local
  judge: local
`

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig("moot.yaml", []byte(goodConfig))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Order, ",") != "local,codex,mine,cloud,vllm,tape" || c.Defaults.Solver != "local" || c.Defaults.Judge != "local" {
		t.Errorf("order %v defaults %+v", c.Order, c.Defaults)
	}
	mine := c.Engines["mine"]
	if mine.Kind != KindCommand || mine.Timeout != 2*time.Minute || mine.ContextTokens != 32000 || mine.Price == nil || mine.External || mine.Env["MY_FLAG"] != "1" || len(mine.Command) != 7 || mine.Line != 10 {
		t.Errorf("mine: %+v", mine)
	}
	external := map[string]bool{"local": false, "codex": true, "mine": false, "cloud": true, "vllm": true, "tape": false}
	for name, want := range external {
		if got := c.Engines[name].External; got != want {
			t.Errorf("%s external = %v, want %v", name, got, want)
		}
	}
	if c.Engines["codex"].ProjectAccess != "read-only" || c.Engines["local"].ProjectAccess != "none" {
		t.Error("project_access")
	}
}

func TestDefaultExternal(t *testing.T) {
	tests := []struct {
		kind Kind
		url  string
		want bool
	}{
		{KindCommand, "", true}, {KindCodex, "", true}, {KindClaude, "", true}, {KindGemini, "", true},
		{KindOpencode, "", true}, {KindQwen, "", true}, {KindAnthropic, "", true}, {KindReplay, "", false},
		{KindOpenAI, "http://127.0.0.1:11434/v1", false}, {KindOpenAI, "http://localhost:8080/v1", false},
		{KindOpenAI, "http://[::1]:8080/v1", false}, {KindOpenAI, "https://api.openai.com/v1", true},
		{KindOpenAI, "http://192.168.1.9:11434/v1", true},
	}
	for _, tt := range tests {
		if got := DefaultExternal(tt.kind, tt.url); got != tt.want {
			t.Errorf("%s %q: %v, want %v", tt.kind, tt.url, got, tt.want)
		}
	}
}

func TestConfigErrorsNameFileEngineAndField(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown kind", "engines:\n  x:\n    kind: gpt\n", "moot.yaml:3: engines.x.kind: \"gpt\" is not a kind"},
		{"missing kind", "engines:\n  x:\n    model: m\n", "engines.x.kind: missing"},
		{"bad timeout", "engines:\n  x:\n    kind: command\n    command: [a]\n    timeout: 2x\n", "moot.yaml:5: engines.x.timeout: \"2x\" is not a positive duration"},
		{"negative context", "engines:\n  x:\n    kind: openai\n    context_tokens: -5\n", "engines.x.context_tokens"},
		{"typo field", "engines:\n  x:\n    kind: openai\n    modle: m\n", "moot.yaml:4: engines.x.modle: unknown field"},
		{"command without argv", "engines:\n  x:\n    kind: command\n", "engines.x.command: missing"},
		{"command as a string", "engines:\n  x:\n    kind: command\n    command: ./run --x\n", "engines.x.command: must be a list"},
		{"replay without cassette", "engines:\n  x:\n    kind: replay\n", "engines.x.cassette: missing"},
		{"bad url", "engines:\n  x:\n    kind: openai\n    base_url: 127.0.0.1:11434\n", "engines.x.base_url"},
		{"key in the file", "engines:\n  x:\n    kind: openai\n    api_key_env: sk-abc123secret\n", "engines.x.api_key_env: \"sk-abc123secret\" is not an environment variable name"},
		{"read-only project access on claude", "engines:\n  x:\n    kind: claude\n    project_access: read-only\n", "only kind codex"},
		{"claude declared local", "engines:\n  x:\n    kind: claude\n    external: false\n", "engines.x.external"},
		{"openai at a LAN address declared local", "engines:\n  x:\n    kind: openai\n    base_url: http://10.0.0.5:8000/v1\n    external: false\n", "engines.x.external"},
		{"env_passthrough on a vendor CLI", "engines:\n  x:\n    kind: codex\n    env_passthrough: [HOME]\n", "engines.x.env_passthrough"},
		{"env_passthrough not a list", "engines:\n  x:\n    kind: command\n    command: [x]\n    env_passthrough: HOME\n", "engines.x.env_passthrough"},
		{"bad price", "engines:\n  x:\n    kind: openai\n    price: {input_per_mtok: cheap}\n", "engines.x.price.input_per_mtok"},
		{"unknown default", "engines:\n  x:\n    kind: openai\ndefaults:\n  solver: y\n", "moot.yaml:5: defaults.solver: names \"y\""},
		{"unknown top-level key", "engine:\n  x:\n    kind: openai\n", "moot.yaml:1: engine: unknown key"},
		{"no engines", "defaults: {}\n", "engines"},
		{"not yaml", "engines: [\n", "not valid YAML"},
		{"empty", "", "is empty"},
		{"bad name", "engines:\n  \"my engine\":\n    kind: openai\n", "letters, digits"},
		{"lenses not a mapping", "engines:\n  x:\n    kind: openai\nlenses: [cfo]\n", "moot.yaml:4: lenses: must be a mapping"},
		{"a key set twice", "engines:\n  x:\n    kind: command\n    command: [x]\n    external: true\n    external: false\n", "moot.yaml:6: external: is set twice"},
		{"lens text not a value", "engines:\n  x:\n    kind: openai\nlenses:\n  cfo: {a: b}\n", "moot.yaml:5: lenses.cfo: must be the lens's text"},
		{"budget not a mapping", "engines:\n  x:\n    kind: openai\nbudget: 5\n", "moot.yaml:4: budget: must be a mapping"},
		{"budget negative usd", "engines:\n  x:\n    kind: openai\nbudget:\n  max_usd: -1\n", "moot.yaml:5: budget.max_usd: must be a positive amount"},
		{"budget usd not a number", "engines:\n  x:\n    kind: openai\nbudget:\n  max_usd: lots\n", "moot.yaml:5: budget.max_usd"},
		{"budget fractional tokens", "engines:\n  x:\n    kind: openai\nbudget:\n  max_tokens: 1.5\n", "moot.yaml:5: budget.max_tokens: must be a positive whole number"},
		{"claude declared unknown", "engines:\n  cl:\n    kind: claude\n    family: unknown\n", "moot.yaml:4: engines.cl.family: is \"unknown\", but a claude engine is of family anthropic"},
		{"claude declared google", "engines:\n  cl2:\n    kind: claude\n    model: claude-opus-4-1\n    family: google\n", "moot.yaml:5: engines.cl2.family: is \"google\""},
		{"codex declared anthropic", "engines:\n  cx:\n    kind: codex\n    family: anthropic\n", "a codex engine is of family openai"},
		{"opencode serving claude declared openai", "engines:\n  oc:\n    kind: opencode\n    model: anthropic/claude-sonnet-4\n    family: openai\n", "serving \"anthropic/claude-sonnet-4\" is of family anthropic"},
		{"verdict_reasoning_effort on claude", "engines:\n  x:\n    kind: claude\n    verdict_reasoning_effort: none\n", "moot.yaml:4: engines.x.verdict_reasoning_effort: is for openai engines only"},
		{"budget unknown key", "engines:\n  x:\n    kind: openai\nbudget:\n  max_eur: 3\n", "moot.yaml:5: budget.max_eur: unknown key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig("moot.yaml", []byte(tt.yaml))
			if !isInputError(err) {
				t.Fatalf("err = %v, want an input error", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%q\ndoes not contain %q", err, tt.want)
			}
		})
	}
}

func TestFindConfig(t *testing.T) {
	root := t.TempDir()
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	if got := FindConfig("", root); got != "" {
		t.Errorf("none: %q", got)
	}
	os.MkdirAll(filepath.Join(xdg, "moot"), 0o755)
	os.WriteFile(filepath.Join(xdg, "moot", "moot.yaml"), []byte(goodConfig), 0o644)
	if got := FindConfig("", root); got != filepath.Join(xdg, "moot", "moot.yaml") {
		t.Errorf("xdg: %q", got)
	}
	os.WriteFile(filepath.Join(root, "moot.yaml"), []byte(goodConfig), 0o644)
	if got := FindConfig("", root); got != filepath.Join(root, "moot.yaml") {
		t.Errorf("the register's file comes first: %q", got)
	}
	if got := FindConfig("x.yaml", root); got != "x.yaml" {
		t.Errorf("explicit: %q", got)
	}
	if _, err := LoadConfig(filepath.Join(root, "missing.yaml")); !isInputError(err) || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
}

func TestBuiltinConfig(t *testing.T) {
	c := BuiltinConfig()
	if c.Engines["local"].External || c.Engines["local"].BaseURL != DefaultOllamaURL {
		t.Errorf("builtin: %+v", c.Engines["local"])
	}
}

// FuzzParseConfig: the engines file is outside input; never panic, and an
// accepted file always names a known kind for every engine.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(goodConfig))
	f.Add([]byte("engines:\n  x: {kind: command, command: [a], env: {A: b}}\n"))
	f.Add([]byte("engines: {x: {kind: openai, price: {input_per_mtok: 1e9}}}\ndefaults: {solver: x}\n"))
	f.Add([]byte("engines:\n  x: {kind: command, command: [a], env_passthrough: [\"FAKE_*\", HOME]}\n"))
	f.Add([]byte("engines:\n  x: {kind: openai, base_url: \"http://10.0.0.1/v1\", external: false}\n"))
	f.Add([]byte("engines:\n  x: {kind: openai}\nbudget: {max_usd: 2.5, max_tokens: 40000}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseConfig("f.yaml", b)
		if err != nil {
			return
		}
		if c.Budget.MaxUSD < 0 || c.Budget.MaxTokens < 0 {
			t.Fatalf("accepted a negative budget %+v", c.Budget)
		}
		for _, name := range c.Order {
			e := c.Engines[name]
			ok := false
			for _, k := range Kinds {
				ok = ok || k == e.Kind
			}
			if !ok {
				t.Fatalf("accepted kind %q", e.Kind)
			}
			if (e.Kind.VendorCLI() || e.Kind == KindAnthropic || e.Kind == KindOpenAI && e.BaseURL != "") && !e.External && !IsLoopback(e.BaseURL) {
				t.Fatalf("%s engine %s accepted as local", e.Kind, name)
			}
			// whatever runs a command or leaves the machine needs trust
			if (e.Kind == KindCommand || len(e.Env) > 0 || len(e.EnvPassthrough) > 0 || e.BaseURL != "" && !IsLoopback(e.BaseURL)) && len(TrustReasons(c, "")) == 0 {
				t.Fatalf("engine %s needs no trust", name)
			}
		}
	})
}

// The engines file's lenses: mapping is read in file order with its lines.
func TestConfigLenses(t *testing.T) {
	c, err := ParseConfig("moot.yaml", []byte("engines:\n  x:\n    kind: openai\nlenses:\n  cfo: unit economics\n  ops: \"on-call toil\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []LensEntry{{Name: "cfo", Text: "unit economics", Line: 5}, {Name: "ops", Text: "on-call toil", Line: 6}}
	if len(c.Lenses) != 2 || c.Lenses[0] != want[0] || c.Lenses[1] != want[1] {
		t.Errorf("lenses %+v", c.Lenses)
	}
}

// budget: at the top of the engines file is read as the debate's cap.
func TestConfigBudget(t *testing.T) {
	c, err := ParseConfig("moot.yaml", []byte("engines:\n  x: {kind: openai}\nbudget: {max_usd: 2.5, max_tokens: 40000}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Budget != (Budget{MaxUSD: 2.5, MaxTokens: 40000}) || !c.Budget.Set() {
		t.Errorf("budget = %+v", c.Budget)
	}
}
