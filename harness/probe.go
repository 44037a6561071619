package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/renameio/v2"

	"github.com/reversa/moot/internal/humantime"
	"github.com/reversa/moot/internal/lazyre"
)

// ProbeResult is what a probe learned about an engine, without a model
// call: its version, that its non-interactive mode exists, its auth, and
// its context window.
type ProbeResult struct {
	Engine string `json:"engine"`
	Kind   string `json:"kind"`
	OK     bool   `json:"ok"`
	// Version is the tool's version line (vendor CLIs).
	Version string `json:"version,omitempty"`
	// NonInteractive is set when the flags moot runs the tool with exist.
	NonInteractive bool `json:"non_interactive"`
	// Auth says how the engine authenticates ("MOOT_KEY is set", "stored
	// credentials (codex login status)", "none needed (local server)").
	Auth string `json:"auth,omitempty"`
	// ContextTokens is the context window (0: unknown, a warning).
	ContextTokens int `json:"context_tokens,omitempty"`
	// Problems say why the probe failed, each with what to do.
	Problems []string `json:"problems,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Ollama is set when an openai engine's server is Ollama (called on its
	// native endpoint).
	Ollama bool `json:"ollama,omitempty"`
	// Models lists what an HTTP server offers (first few).
	Models    []string  `json:"models,omitempty"`
	CheckedAt time.Time `json:"checked_at"`
	// Cached is set when the result came from the cache.
	Cached bool `json:"cached"`
}

// Why is the probe's failure in one line.
func (p ProbeResult) Why() string { return strings.Join(p.Problems, "; ") }

func (p *ProbeResult) fail(format string, args ...any) {
	p.Problems = append(p.Problems, fmt.Sprintf(format, args...))
}

// Probe checks one engine now, without a model call.
func Probe(ctx context.Context, e *EngineConfig, o Options) ProbeResult {
	o = o.withDefaults()
	r := ProbeResult{Engine: e.Name, Kind: string(e.Kind), CheckedAt: time.Now().UTC()}
	switch {
	case e.Kind == KindCommand:
		probeCommand(e, o, &r)
	case e.Kind == KindReplay:
		r.NonInteractive, r.Auth = true, "none needed (a recording)"
		if _, err := newReplay(e, o); err != nil {
			r.fail("%v", err)
		}
	case e.Kind == KindOpenAI:
		probeOpenAI(ctx, e, &r)
	case e.Kind == KindAnthropic:
		probeAnthropic(ctx, e, &r)
	case e.Kind.VendorCLI():
		probeCLI(ctx, e, o, &r)
	}
	if r.ContextTokens == 0 {
		r.ContextTokens = LimitsOf(e).ContextTokens
	}
	if r.ContextTokens == 0 && e.Kind != KindReplay {
		r.Warnings = append(r.Warnings, "context window unknown: a prompt too large for it cannot be refused before the call; set context_tokens in the engines file")
	}
	r.OK = len(r.Problems) == 0
	return r
}

// probeCommand checks a command engine without running it: the program
// exists and may be executed.
func probeCommand(e *EngineConfig, o Options, r *ProbeResult) {
	r.NonInteractive, r.Auth = true, "the command's own"
	c := newCommand(e, o)
	p := c.program()
	if !strings.ContainsRune(p, '/') {
		if _, err := exec.LookPath(p); err != nil {
			r.fail("%s is not on PATH", p)
		}
		return
	}
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		r.fail("%s does not exist (command: of engine %s)", p, e.Name)
	case fi.IsDir() || fi.Mode()&0o111 == 0:
		r.fail("%s is not executable: chmod +x it", p)
	}
}

// quickTimeout bounds a probe command. A vendor CLI spends about three
// seconds of CPU starting node; a loaded two-core machine probing five of
// them at once (twice each) took over 30 s, which refused a working engine.
const quickTimeout = 2 * time.Minute

// quick runs a short command of a CLI (version, help, auth status) in a
// private HOME holding the stored credentials, bounded by quickTimeout.
func quick(ctx context.Context, v *vendorCLI, bin string, args ...string) (string, int, error) {
	c, err := v.prepare(Request{})
	if err != nil {
		return "", -1, err
	}
	defer os.RemoveAll(c.dirs.root)
	var out, errb bytes.Buffer
	res := runProcess(ctx, proc{argv: append([]string{bin}, args...), env: c.env, dir: c.dirs.work,
		timeout: quickTimeout, grace: time.Second, cap: 1 << 20, stdout: &out, stderr: &errb}, plainOutput)
	code := -1
	if res.ExitCode != nil {
		code = *res.ExitCode
	}
	if res.Failure == FailTimeout {
		return out.String(), code, fmt.Errorf("no answer within %s", humantime.Duration(quickTimeout))
	}
	return out.String() + errb.String(), code, nil
}

var ansiRE = lazyre.New(`\x1b\[[0-9;]*[A-Za-z]`)

func probeCLI(ctx context.Context, e *EngineConfig, o Options, r *ProbeResult) {
	spec := specs[e.Kind]
	v := &vendorCLI{cfg: e, opts: o, spec: spec}
	bin, err := v.binary()
	if err != nil {
		r.fail("%v", err)
		return
	}
	var wg sync.WaitGroup
	var version, help, status string
	var verErr, helpErr, statusErr error
	statusCode := 0
	wg.Add(2)
	go func() {
		defer wg.Done()
		version, _, verErr = quick(ctx, v, bin, "--version")
	}()
	go func() {
		defer wg.Done()
		help, _, helpErr = quick(ctx, v, bin, spec.helpArgs...)
	}()
	auth, needStatus := cliAuth(e, spec)
	if needStatus && spec.status != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, statusCode, statusErr = quick(ctx, v, bin, spec.status...)
		}()
	}
	wg.Wait()
	if verErr != nil {
		r.fail("%s --version failed: %v", spec.bin, verErr)
	} else if line := firstLine(ansiRE.ReplaceAllString(version, "")); line != "" {
		r.Version = line
	}
	if helpErr != nil {
		r.fail("%s %s failed: %v", spec.bin, strings.Join(spec.helpArgs, " "), helpErr)
	} else {
		var missing []string
		for _, f := range spec.needFlags {
			if !strings.Contains(help, f) {
				missing = append(missing, f)
			}
		}
		if len(missing) > 0 {
			r.fail("this %s (%s) lacks %s, which moot needs to run it non-interactively and read-only: install a current one (npm install -g %s)", spec.bin, orUnknown(r.Version), strings.Join(missing, ", "), spec.npm)
		} else {
			r.NonInteractive = true
		}
	}
	switch {
	case auth != "":
		r.Auth = auth
	case e.APIKeyEnv != "":
		r.fail("%s is not set: export %s=… with the key of engine %s", e.APIKeyEnv, e.APIKeyEnv, e.Name)
	case spec.status != nil:
		clean := ansiRE.ReplaceAllString(status, "")
		if statusErr == nil && statusCode == 0 && storedLoggedIn(e.Kind, clean) {
			r.Auth = "stored credentials (" + spec.bin + " " + strings.Join(spec.status, " ") + ")"
		} else {
			r.fail("%s has no credentials: set %s (or api_key_env in the engines file), or %s", spec.bin, strings.Join(spec.keyVars[:min(2, len(spec.keyVars))], " or "), spec.login)
		}
	default:
		found := ""
		for _, f := range spec.creds {
			if _, err := os.Stat(f.source()); err == nil {
				found = f.source()
				break
			}
		}
		if found != "" {
			r.Auth = "stored credentials (" + found + ")"
		} else {
			r.fail("%s has no credentials: set %s (or api_key_env in the engines file), or %s", spec.bin, strings.Join(spec.keyVars[:min(2, len(spec.keyVars))], " or "), spec.login)
		}
	}
}

// cliAuth decides auth without running anything when it can: the entry's
// key variable, a local endpoint, or a vendor key variable. needStatus is
// set when only the stored credentials are left to check.
func cliAuth(e *EngineConfig, spec *cliSpec) (auth string, needStatus bool) {
	if e.APIKeyEnv != "" {
		if os.Getenv(e.APIKeyEnv) != "" {
			return e.APIKeyEnv + " is set (api_key_env)", false
		}
		return "", false
	}
	if e.BaseURL != "" && IsLoopback(e.BaseURL) {
		return "none needed (local endpoint " + e.BaseURL + ")", false
	}
	for _, k := range spec.keyVars {
		if os.Getenv(k) != "" {
			return k + " is set", false
		}
	}
	return "", true
}

// storedLoggedIn reads a status command's output.
func storedLoggedIn(k Kind, out string) bool {
	switch k {
	case KindClaude:
		var s struct {
			LoggedIn bool `json:"loggedIn"`
		}
		if i := strings.IndexByte(out, '{'); i >= 0 && json.Unmarshal([]byte(out[i:strings.LastIndexByte(out, '}')+1]), &s) == nil {
			return s.LoggedIn
		}
		return false
	case KindOpencode:
		// "N credentials" and "N environment variable(s)"
		for _, m := range regexp.MustCompile(`(\d+) (credentials?|environment variables?)`).FindAllStringSubmatch(out, -1) {
			if n, _ := strconv.Atoi(m[1]); n > 0 {
				return true
			}
		}
		return false
	case KindCodex:
		return !strings.Contains(strings.ToLower(out), "not logged in")
	}
	return true
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "WARNING") {
			return l
		}
	}
	return ""
}

func orUnknown(s string) string {
	if s == "" {
		return "version unknown"
	}
	return s
}

func probeOpenAI(ctx context.Context, e *EngineConfig, r *ProbeResult) {
	r.NonInteractive = true
	o := newOpenAI(e, Options{})
	key, err := o.key()
	if err != nil {
		r.fail("%v", err)
		return
	}
	switch {
	case e.APIKeyEnv != "":
		r.Auth = e.APIKeyEnv + " is set (api_key_env)"
	case key != "":
		r.Auth = "OPENAI_API_KEY is set"
	default:
		r.Auth = "no key sent"
	}
	ids, status, err := listModels(ctx, o.base+"/models", map[string]string{"Authorization": "Bearer " + key})
	switch {
	case status == 401 || status == 403:
		r.fail("%s refused the key (HTTP %d): check %s", o.base, status, orName(e.APIKeyEnv, "the key"))
		return
	case status == 0 && err != nil:
		if o.base == DefaultOllamaURL {
			why := strings.TrimSuffix(err.Error(), " (is the server running?)")
			r.fail("no Ollama at %s (%s): start it with ollama serve, or point base_url at your server", o.base, why)
		} else {
			r.fail("no server at %s: %v", o.base, err)
		}
		return
	case err != nil:
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s has no usable model list (%v); the key and model were not verified", o.base, err))
	}
	r.Models = firstN(ids, 12)
	if len(ids) > 0 {
		if e.Model == "" && len(ids) > 1 {
			r.fail("model is not set and %s offers %d models (%s): set model: in the engines file", o.base, len(ids), strings.Join(firstN(ids, 6), ", "))
		} else if e.Model != "" && !contains(ids, e.Model) && !contains(ids, e.Model+":latest") {
			hint := ""
			if o.isOllama(ctx) {
				hint = " (ollama pull " + e.Model + ")"
			}
			r.fail("model %s is not served by %s%s; it offers: %s", e.Model, o.base, hint, strings.Join(firstN(ids, 6), ", "))
		}
	}
	r.Ollama = o.isOllama(ctx)
	if r.Ollama && e.ContextTokens == 0 {
		model := e.Model
		if model == "" && len(ids) == 1 {
			model = ids[0]
		}
		r.ContextTokens = ollamaContext(ctx, o.origin(), model)
	}
}

// ollamaContext asks Ollama for a model's trained context length.
func ollamaContext(ctx context.Context, origin, model string) int {
	if model == "" {
		return 0
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	body, _ := json.Marshal(map[string]string{"model": model})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, origin+"/api/show", bytes.NewReader(body))
	if err != nil {
		return 0
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	var v struct {
		ModelInfo map[string]any `json:"model_info"`
	}
	if resp.StatusCode != 200 || json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(&v) != nil {
		return 0
	}
	for k, x := range v.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			return intOf(x)
		}
	}
	return 0
}

func probeAnthropic(ctx context.Context, e *EngineConfig, r *ProbeResult) {
	r.NonInteractive = true
	a := newAnthropic(e, Options{})
	key, from := apiKey(e, "ANTHROPIC_API_KEY")
	if key == "" {
		r.fail("no key for engine %s: export %s=… (or name another variable in api_key_env)", e.Name, orName(e.APIKeyEnv, "ANTHROPIC_API_KEY"))
		return
	}
	r.Auth = from + " is set"
	_, status, err := listModels(ctx, a.base()+"/v1/models", map[string]string{"X-Api-Key": key, "Anthropic-Version": "2023-06-01"})
	switch {
	case status == 401 || status == 403:
		r.fail("%s refused the key in %s (HTTP %d)", a.base(), from, status)
	case err != nil && status == 0:
		r.fail("cannot reach %s: %v", a.base(), err)
	case err != nil:
		r.Warnings = append(r.Warnings, fmt.Sprintf("the model list of %s failed (%v); the key was not verified", a.base(), err))
	}
}

func orName(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ProbeCache keeps probe results on disk so that the wizard, plan and run
// do not re-run every CLI each time.
type ProbeCache struct {
	// Path is the cache file ("" disables caching).
	Path string
	// TTL is how long a passed probe stays valid; a failed one is kept
	// for a tenth of it, so a fix shows soon.
	TTL time.Duration
}

// DefaultProbeTTL is how long a passed probe is trusted.
const DefaultProbeTTL = time.Hour

// DefaultProbeCache is $XDG_CACHE_HOME/moot/probe.json (the user's cache
// folder), with the default time-to-live.
func DefaultProbeCache() ProbeCache {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ProbeCache{TTL: DefaultProbeTTL}
	}
	return ProbeCache{Path: filepath.Join(dir, "moot", "probe.json"), TTL: DefaultProbeTTL}
}

// fingerprint identifies what a probe depends on: the entry, which key
// variables are set (never their values), the tool binary and the stored
// credentials' modification times.
func fingerprint(e *EngineConfig) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s|%s|%s|%s|%s|%s|%d|", e.Name, e.Kind, e.Model, e.BaseURL, e.APIKeyEnv, e.ProjectAccess, e.ContextTokens)
	keys := make([]string, 0, len(e.Env))
	for k := range e.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(h, "%v|%t|", keys, e.APIKeyEnv != "" && os.Getenv(e.APIKeyEnv) != "")
	if spec, ok := specs[e.Kind]; ok {
		for _, k := range spec.keyVars {
			fmt.Fprintf(h, "%t", os.Getenv(k) != "")
		}
		if p, err := exec.LookPath(spec.bin); err == nil {
			if fi, err := os.Stat(p); err == nil {
				fmt.Fprintf(h, "|%s|%d|%d", p, fi.Size(), fi.ModTime().UnixNano())
			}
		}
		for _, f := range spec.creds {
			if fi, err := os.Stat(f.source()); err == nil {
				fmt.Fprintf(h, "|%d", fi.ModTime().UnixNano())
			}
		}
	}
	if e.Kind == KindOpenAI && e.APIKeyEnv == "" {
		fmt.Fprintf(h, "|%t", os.Getenv("OPENAI_API_KEY") != "")
	}
	if e.Kind == KindAnthropic && e.APIKeyEnv == "" {
		fmt.Fprintf(h, "|%t", os.Getenv("ANTHROPIC_API_KEY") != "")
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// cached reports whether a kind's probe is worth caching: command and
// replay probes only stat a file.
func cached(k Kind) bool { return k != KindCommand && k != KindReplay }

func (c ProbeCache) load() map[string]ProbeResult {
	m := map[string]ProbeResult{}
	if c.Path == "" {
		return m
	}
	b, err := os.ReadFile(c.Path)
	if err == nil {
		_ = json.Unmarshal(b, &m) // a damaged cache is only re-probed
	}
	return m
}

func (c ProbeCache) save(m map[string]ProbeResult) {
	if c.Path == "" {
		return
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(c.Path), 0o700) == nil {
		_ = renameio.WriteFile(c.Path, b, 0o600, renameio.WithStaticPermissions(0o600))
	}
}

var probeFileMu sync.Mutex

// ProbeEngines probes the named engines at once, using the cache unless
// refresh is set, and returns the results in the order asked.
func ProbeEngines(ctx context.Context, cfg *Config, names []string, o Options, cache ProbeCache, refresh bool) []ProbeResult {
	probeFileMu.Lock()
	stored := cache.load()
	probeFileMu.Unlock()
	now := time.Now()
	out := make([]ProbeResult, len(names))
	var wg sync.WaitGroup
	var mu sync.Mutex
	fresh := map[string]ProbeResult{}
	for i, name := range names {
		e, err := cfg.Engine(name)
		if err != nil {
			out[i] = ProbeResult{Engine: name, Problems: []string{err.Error()}, CheckedAt: now.UTC()}
			continue
		}
		fp := fingerprint(e)
		if prev, ok := stored[fp]; ok && !refresh && cached(e.Kind) {
			ttl := cache.TTL
			if !prev.OK {
				ttl /= 10
			}
			if now.Sub(prev.CheckedAt) < ttl {
				prev.Cached = true
				out[i] = prev
				continue
			}
		}
		wg.Add(1)
		go func(i int, e *EngineConfig, fp string) {
			defer wg.Done()
			r := Probe(ctx, e, o)
			out[i] = r
			if cached(e.Kind) && ctx.Err() == nil {
				mu.Lock()
				fresh[fp] = r
				mu.Unlock()
			}
		}(i, e, fp)
	}
	wg.Wait()
	if len(fresh) > 0 {
		probeFileMu.Lock()
		stored = cache.load()
		for k, v := range fresh {
			stored[k] = v
		}
		for k, v := range stored { // forget what is long stale
			if now.Sub(v.CheckedAt) > 24*time.Hour {
				delete(stored, k)
			}
		}
		cache.save(stored)
		probeFileMu.Unlock()
	}
	return out
}

// ProbeRefusals lists, for the engines that failed their probe, why the
// run is refused.
func ProbeRefusals(results []ProbeResult) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range results {
		if !r.OK && !seen[r.Engine] {
			seen[r.Engine] = true
			out = append(out, fmt.Sprintf("engine %s failed its probe: %s (see moot engines --probe)", r.Engine, r.Why()))
		}
	}
	return out
}
