package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/internal/fakeprovider"
)

// fakeCLI writes a stand-in for a vendor CLI on a fresh PATH: it prints a
// version, a help text with the given flags, and logs each invocation.
func fakeCLI(t *testing.T, name, flags string) (log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$*\" >> " + log + "\ncase \"$*\" in\n  *--version*) echo '" + name + " 9.9.9';;\n  *help*) echo 'usage: " + flags + "';;\n  *status*) echo 'Logged in'; exit 0;;\nesac\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

func calls(t *testing.T, log string) int {
	b, _ := os.ReadFile(log)
	return strings.Count(string(b), "\n")
}

func TestProbeCommand(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "llm")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o700)
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("x"), 0o600)
	for _, c := range []struct {
		argv []string
		want string // "" = passes
	}{
		{[]string{"./llm"}, ""},
		{[]string{"sh", "-c", "x"}, ""},
		{[]string{"./missing"}, "does not exist"},
		{[]string{"./plain"}, "not executable"},
		{[]string{"no-such-program-moot"}, "not on PATH"},
	} {
		r := Probe(context.Background(), &EngineConfig{Name: "c", Kind: KindCommand, Command: c.argv}, Options{ConfigDir: dir})
		if (c.want == "") != r.OK || !strings.Contains(r.Why(), c.want) {
			t.Errorf("%v: ok %v, %q; want %q", c.argv, r.OK, r.Why(), c.want)
		}
	}
}

func TestProbeCLIChecks(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no stored credentials
	for _, k := range specs[KindCodex].keyVars {
		t.Setenv(k, "")
	}
	full := strings.Join(specs[KindCodex].needFlags, " ")
	t.Run("ok with api_key_env set", func(t *testing.T) {
		fakeCLI(t, "codex", full)
		t.Setenv("MOOT_PROBE_KEY", "sk-x-123456789")
		r := Probe(context.Background(), &EngineConfig{Name: "cx", Kind: KindCodex, APIKeyEnv: "MOOT_PROBE_KEY"}, Options{})
		if !r.OK || r.Version != "codex 9.9.9" || !r.NonInteractive || !strings.Contains(r.Auth, "MOOT_PROBE_KEY") {
			t.Errorf("%+v", r)
		}
	})
	t.Run("api_key_env unset names the variable", func(t *testing.T) {
		fakeCLI(t, "codex", full)
		r := Probe(context.Background(), &EngineConfig{Name: "cx", Kind: KindCodex, APIKeyEnv: "MOOT_PROBE_UNSET"}, Options{})
		if r.OK || !strings.Contains(r.Why(), "MOOT_PROBE_UNSET is not set: export MOOT_PROBE_UNSET=") {
			t.Errorf("%+v", r)
		}
	})
	t.Run("an old version without the flags", func(t *testing.T) {
		fakeCLI(t, "codex", "--json")
		t.Setenv("CODEX_API_KEY", "sk-x-123456789")
		r := Probe(context.Background(), &EngineConfig{Name: "cx", Kind: KindCodex}, Options{})
		if r.OK || r.NonInteractive || !strings.Contains(r.Why(), "lacks --sandbox") || !strings.Contains(r.Why(), "npm install -g @openai/codex") {
			t.Errorf("%+v", r)
		}
	})
	t.Run("stored credentials by the status command", func(t *testing.T) {
		log := fakeCLI(t, "codex", full)
		r := Probe(context.Background(), &EngineConfig{Name: "cx", Kind: KindCodex}, Options{})
		if !r.OK || !strings.Contains(r.Auth, "codex login status") {
			t.Errorf("%+v", r)
		}
		if b, _ := os.ReadFile(log); !strings.Contains(string(b), "login status") {
			t.Errorf("the status command was not run: %s", b)
		}
	})
	t.Run("not on PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		r := Probe(context.Background(), &EngineConfig{Name: "g", Kind: KindGemini}, Options{})
		if r.OK || !strings.Contains(r.Why(), "gemini is not on PATH") || !strings.Contains(r.Why(), "@google/gemini-cli") {
			t.Errorf("%+v", r)
		}
	})
	t.Run("no credentials at all says what to set", func(t *testing.T) {
		fakeCLI(t, "gemini", strings.Join(specs[KindGemini].needFlags, " "))
		t.Setenv("GEMINI_API_KEY", "")
		t.Setenv("GOOGLE_API_KEY", "")
		r := Probe(context.Background(), &EngineConfig{Name: "g", Kind: KindGemini, Model: "gemini-2.5-pro"}, Options{})
		if r.OK || !strings.Contains(r.Why(), "set GEMINI_API_KEY") {
			t.Errorf("%+v", r)
		}
	})
}

func TestProbeHTTP(t *testing.T) {
	plantKey()
	srv := fakeprovider.New()
	defer srv.Close()
	oa := func(model string) *EngineConfig {
		return &EngineConfig{Name: "o", Kind: KindOpenAI, Model: model, BaseURL: srv.URL + "/v1", APIKeyEnv: "MOOT_TEST_KEY"}
	}
	an := &EngineConfig{Name: "a", Kind: KindAnthropic, Model: "fake-model", BaseURL: srv.URL, APIKeyEnv: "MOOT_TEST_KEY"}
	if r := Probe(context.Background(), oa("fake-model"), Options{}); !r.OK || len(r.Models) != 1 || r.Ollama {
		t.Errorf("openai ok: %+v", r)
	}
	if r := Probe(context.Background(), oa("llama-99"), Options{}); r.OK || !strings.Contains(r.Why(), "model llama-99 is not served") {
		t.Errorf("unknown model: %+v", r)
	}
	if r := Probe(context.Background(), an, Options{}); !r.OK {
		t.Errorf("anthropic ok: %+v", r)
	}
	srv.SetMode(fakeprovider.Unauthorized)
	for _, e := range []*EngineConfig{oa("fake-model"), an} {
		if r := Probe(context.Background(), e, Options{}); r.OK || !strings.Contains(r.Why(), "401") {
			t.Errorf("%s refused key: %+v", e.Kind, r)
		}
	}
	srv.SetMode(fakeprovider.OK)
	srv.Ollama = true
	if r := Probe(context.Background(), oa("fake-model"), Options{}); !r.OK || r.ContextTokens != srv.ContextLength || !r.Ollama {
		t.Errorf("ollama context window: %+v", r)
	}
	if r := Probe(context.Background(), &EngineConfig{Name: "x", Kind: KindOpenAI, Model: "m", BaseURL: "http://127.0.0.1:9/v1"}, Options{}); r.OK || !strings.Contains(r.Why(), "no server at") {
		t.Errorf("unreachable: %+v", r)
	}
	if r := Probe(context.Background(), &EngineConfig{Name: "x", Kind: KindAnthropic, APIKeyEnv: "MOOT_PROBE_UNSET"}, Options{}); r.OK || !strings.Contains(r.Why(), "MOOT_PROBE_UNSET") {
		t.Errorf("anthropic without key: %+v", r)
	}
}

func TestProbeCache(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	log := fakeCLI(t, "codex", strings.Join(specs[KindCodex].needFlags, " "))
	t.Setenv("MOOT_PROBE_KEY", "sk-x-123456789")
	cfg := &Config{Engines: map[string]*EngineConfig{"cx": {Name: "cx", Kind: KindCodex, APIKeyEnv: "MOOT_PROBE_KEY"}}, Order: []string{"cx"}}
	cache := ProbeCache{Path: filepath.Join(t.TempDir(), "moot", "probe.json"), TTL: time.Hour}
	first := ProbeEngines(context.Background(), cfg, cfg.Order, Options{}, cache, false)
	n := calls(t, log)
	second := ProbeEngines(context.Background(), cfg, cfg.Order, Options{}, cache, false)
	if !first[0].OK || first[0].Cached || !second[0].Cached || calls(t, log) != n {
		t.Errorf("the second probe must come from the cache without running the CLI: %+v %+v (%d→%d calls)", first[0], second[0], n, calls(t, log))
	}
	if fi, err := os.Stat(cache.Path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the cache file must be owner-only: %v %v", fi.Mode(), err)
	}
	b, _ := os.ReadFile(cache.Path)
	if strings.Contains(string(b), "sk-x-123456789") {
		t.Error("the cache holds the key")
	}
	if r := ProbeEngines(context.Background(), cfg, cfg.Order, Options{}, cache, true); r[0].Cached || calls(t, log) == n {
		t.Error("--refresh must probe again")
	}
	// unsetting the key changes what the probe depends on: probed again
	t.Setenv("MOOT_PROBE_KEY", "")
	if r := ProbeEngines(context.Background(), cfg, cfg.Order, Options{}, cache, false); r[0].Cached || r[0].OK {
		t.Errorf("a changed environment must not reuse the cached pass: %+v", r[0])
	}
	if refusals := ProbeRefusals([]ProbeResult{{Engine: "cx", Problems: []string{"MOOT_PROBE_KEY is not set"}}}); len(refusals) != 1 || !strings.Contains(refusals[0], "engine cx failed its probe: MOOT_PROBE_KEY is not set") {
		t.Errorf("refusal: %v", refusals)
	}
}
