package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// engineKeyVar carries an entry's api_key_env value to CLIs that read the
// key from a variable moot names (codex's custom provider, opencode).
const engineKeyVar = "MOOT_ENGINE_KEY"

// specs are the vendor CLIs moot drives, with the facts of
// docs/engines.md: non-interactive and read-only flags, structured
// output, where each keeps stored credentials, how to point it at an
// endpoint, and how to keep it quiet.
var specs = map[Kind]*cliSpec{
	KindCodex: {
		kind: KindCodex, bin: "codex", npm: "@openai/codex",
		args:      codexArgs,
		setup:     codexSetup,
		parser:    func() outputParser { return newCodexParser() },
		keyVars:   []string{"CODEX_API_KEY", "OPENAI_API_KEY"},
		creds:     []credFile{{home: ".codex/auth.json", envDir: "CODEX_HOME"}},
		helpArgs:  []string{"exec", "--help"},
		needFlags: []string{"--sandbox", "--json", "--skip-git-repo-check", "--ephemeral"},
		status:    []string{"login", "status"},
		login:     "run: codex login",
	},
	KindClaude: {
		kind: KindClaude, bin: "claude", npm: "@anthropic-ai/claude-code",
		args:    claudeArgs,
		setup:   claudeSetup,
		parser:  func() outputParser { return newStreamJSONParser("claude") },
		keyVars: []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"},
		passVars: []string{"ANTHROPIC_BASE_URL", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX",
			"AWS_REGION", "AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
			"CLOUD_ML_REGION", "ANTHROPIC_VERTEX_PROJECT_ID", "GOOGLE_APPLICATION_CREDENTIALS"},
		creds:     []credFile{{home: ".claude/.credentials.json", envDir: "CLAUDE_CONFIG_DIR"}},
		helpArgs:  []string{"--help"},
		needFlags: []string{"--print", "--output-format", "--tools", "--include-partial-messages"},
		status:    []string{"auth", "status"},
		login:     "run: claude auth login",
	},
	KindGemini: {
		kind: KindGemini, bin: "gemini", npm: "@google/gemini-cli",
		args:        geminiArgs,
		setup:       geminiSetup,
		sharedFirst: (*callSetup).sharedAsSystemPrompt,
		parser:      func() outputParser { return newGeminiParser() },
		keyVars:     []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"},
		passVars: []string{"GOOGLE_GEMINI_BASE_URL", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT",
			"GOOGLE_CLOUD_LOCATION", "GOOGLE_APPLICATION_CREDENTIALS"},
		creds:     []credFile{{home: ".gemini/oauth_creds.json"}, {home: ".gemini/google_accounts.json"}},
		helpArgs:  []string{"--help"},
		needFlags: []string{"--output-format", "--approval-mode", "--model"},
		login:     "run gemini once and sign in with Google",
	},
	KindOpencode: {
		kind: KindOpencode, bin: "opencode", npm: "opencode-ai",
		args:   opencodeArgs,
		setup:  opencodeSetup,
		parser: func() outputParser { return newOpencodeParser() },
		keyVars: []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENROUTER_API_KEY", "GEMINI_API_KEY",
			"GOOGLE_GENERATIVE_AI_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "DEEPSEEK_API_KEY", "XAI_API_KEY"},
		creds:     []credFile{{home: ".local/share/opencode/auth.json", xdgData: "opencode/auth.json"}},
		helpArgs:  []string{"run", "--help"},
		needFlags: []string{"--format", "--dir", "--model", "--title"},
		status:    []string{"providers", "list"},
		login:     "run: opencode auth login",
	},
	KindQwen: {
		kind: KindQwen, bin: "qwen", npm: "@qwen-code/qwen-code",
		args:      qwenArgs,
		setup:     qwenSetup,
		parser:    func() outputParser { return newStreamJSONParser("qwen") },
		keyVars:   []string{"OPENAI_API_KEY", "DASHSCOPE_API_KEY"},
		passVars:  []string{"OPENAI_BASE_URL", "OPENAI_MODEL"},
		creds:     []credFile{{home: ".qwen/oauth_creds.json"}},
		helpArgs:  []string{"--help"},
		needFlags: []string{"--output-format", "--approval-mode", "--auth-type"},
		login:     "run qwen once and sign in",
	},
}

// tomlString quotes a value for a codex -c override.
func tomlString(s string) string {
	b, _ := json.Marshal(s) // JSON string escapes are valid TOML basic-string escapes
	return string(b)
}

func codexSetup(c *callSetup) error {
	home := filepath.Join(c.dirs.home, ".codex")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", home, err)
	}
	c.setenv("CODEX_HOME", home)
	if c.key != "" {
		if c.e.BaseURL != "" {
			c.setenv(engineKeyVar, c.key)
		} else {
			c.setenv("CODEX_API_KEY", c.key)
		}
	}
	return nil
}

func codexArgs(c *callSetup) []string {
	a := []string{"exec", "--skip-git-repo-check", "--ephemeral", "--sandbox", "read-only", "--json",
		"-C", c.dir,
		"-c", "check_for_update_on_startup=false", "-c", "analytics.enabled=false",
		"--disable", "plugins", "--disable", "apps", "--disable", "tool_suggest",
		"--disable", "unbounded_connection_retries"}
	if c.e.Model != "" {
		a = append(a, "-m", c.e.Model)
	}
	if c.e.BaseURL != "" {
		p := `{name="moot",base_url=` + tomlString(strings.TrimRight(c.e.BaseURL, "/")) +
			`,wire_api="responses",request_max_retries=0,stream_max_retries=0`
		if c.key != "" {
			p += `,env_key="` + engineKeyVar + `"`
		}
		a = append(a, "-c", "model_provider=moot", "-c", "model_providers.moot="+p+"}")
	}
	return append(a, "-")
}

func claudeSetup(c *callSetup) error {
	c.setenv("CLAUDE_CONFIG_DIR", filepath.Join(c.dirs.home, ".claude"))
	if c.e.BaseURL != "" {
		c.setenv("ANTHROPIC_BASE_URL", trimV1(c.e.BaseURL))
	}
	if c.key != "" {
		c.setenv("ANTHROPIC_API_KEY", c.key)
	}
	return nil
}

func claudeArgs(c *callSetup) []string {
	a := []string{"-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages",
		"--tools", "", "--no-session-persistence", "--strict-mcp-config"}
	if c.hasEnv("ANTHROPIC_API_KEY") {
		// minimal mode: no hooks, plugins, CLAUDE.md discovery or keychain;
		// it authenticates only with an API key, so it is used only then
		a = append(a, "--bare")
	}
	if c.e.Model != "" {
		a = append(a, "--model", c.e.Model)
	}
	return a
}

// geminiModel is the model gemini is called with: it must always get one,
// or it makes a routing call first.
func geminiModel(e *EngineConfig) string {
	if e.Model != "" {
		return e.Model
	}
	return DefaultModel(KindGemini)
}

func geminiSetup(c *callSetup) error {
	if c.e.BaseURL != "" {
		c.setenv("GOOGLE_GEMINI_BASE_URL", strings.TrimRight(c.e.BaseURL, "/"))
	}
	if c.key != "" {
		c.setenv("GEMINI_API_KEY", c.key)
	}
	auth := "gemini-api-key"
	switch {
	case c.hasEnv("GEMINI_API_KEY") || c.hasEnv("GOOGLE_API_KEY"):
	case c.hasEnv("GOOGLE_GENAI_USE_VERTEXAI"):
		auth = "vertex-ai"
	case c.storedAuth:
		auth = "oauth-personal"
	}
	settings := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": auth}},
		"general": map[string]any{"maxAttempts": 1, "retryFetchErrors": false,
			"disableAutoUpdate": true, "disableUpdateNag": true, "checkpointing": map[string]any{"enabled": false}},
		"telemetry": map[string]any{"enabled": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
	}
	return writeJSONFile(filepath.Join(c.dirs.home, ".gemini", "settings.json"), settings)
}

func geminiArgs(c *callSetup) []string {
	return []string{"-o", "stream-json", "-m", geminiModel(c.e), "--approval-mode", "plan"}
}

// opencodeModel is the provider/model opencode is called with ("" leaves
// the choice to opencode).
func opencodeModel(e *EngineConfig) string {
	if e.BaseURL != "" && e.Model != "" {
		return "moot/" + e.Model
	}
	return e.Model
}

func opencodeSetup(c *callSetup) error {
	cfg := map[string]any{"autoupdate": false, "share": "disabled"}
	providers := map[string]any{}
	if c.e.BaseURL != "" {
		opts := map[string]any{"baseURL": strings.TrimRight(c.e.BaseURL, "/")}
		if c.key != "" {
			opts["apiKey"] = "{env:" + engineKeyVar + "}"
		}
		p := map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "moot", "options": opts}
		if c.e.Model != "" {
			p["models"] = map[string]any{c.e.Model: map[string]any{"name": c.e.Model}}
		}
		providers["moot"] = p
	} else if c.key != "" {
		if i := strings.IndexByte(c.e.Model, '/'); i > 0 {
			providers[c.e.Model[:i]] = map[string]any{"options": map[string]any{"apiKey": "{env:" + engineKeyVar + "}"}}
		}
	}
	if len(providers) > 0 {
		cfg["provider"] = providers
	}
	if c.key != "" {
		c.setenv(engineKeyVar, c.key)
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	c.setenv("OPENCODE_CONFIG_CONTENT", string(b))
	// the read-only mode: the edit, shell and fetch tools are removed
	// (--agent plan still runs shell commands)
	c.setenv("OPENCODE_PERMISSION", `{"edit":"deny","bash":"deny","webfetch":"deny"}`)
	return nil
}

func opencodeArgs(c *callSetup) []string {
	a := []string{"run", "--format", "json", "--title", "debate", "--pure", "--dir", c.dir}
	if m := opencodeModel(c.e); m != "" {
		a = append(a, "-m", m)
	}
	return a
}

func qwenSetup(c *callSetup) error {
	if c.e.BaseURL != "" {
		c.setenv("OPENAI_BASE_URL", strings.TrimRight(c.e.BaseURL, "/"))
		if c.key == "" && !c.hasEnv("OPENAI_API_KEY") {
			c.setenv("OPENAI_API_KEY", "none") // a local server needs no key; qwen wants one set
		}
	}
	if c.key != "" {
		c.setenv("OPENAI_API_KEY", c.key)
	}
	if c.e.Model != "" {
		c.setenv("OPENAI_MODEL", c.e.Model)
	}
	settings := map[string]any{
		"memory":    map[string]any{"enableManagedAutoMemory": false, "enableManagedAutoDream": false},
		"telemetry": map[string]any{"enabled": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"general":   map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
		// moot owns the retry policy: qwen would back off for minutes
		"model": map[string]any{"generationConfig": map[string]any{"maxRetries": 0}},
	}
	return writeJSONFile(filepath.Join(c.dirs.home, ".qwen", "settings.json"), settings)
}

func qwenArgs(c *callSetup) []string {
	auth := "openai"
	if !c.hasEnv("OPENAI_API_KEY") && c.storedAuth {
		auth = "qwen-oauth"
	}
	a := []string{"--auth-type", auth, "-o", "stream-json", "--include-partial-messages", "--approval-mode", "plan"}
	if c.e.Model != "" {
		a = append(a, "-m", c.e.Model)
	}
	return a
}
