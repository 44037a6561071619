package harness

import (
	"context"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Redacted replaces a secret wherever moot writes or shows text.
const Redacted = "[REDACTED]"

// minSecretLen keeps trivially short values (a "1", an "on") from being
// treated as secrets: replacing them would garble every output. A short
// password (hunt3r) is still a secret.
const minSecretLen = 4

// commonValues are values a secret-named variable holds that are settings,
// not secrets; replacing them would destroy prose.
var commonValues = []string{"true", "false", "yes", "no", "on", "off", "null", "none", "nil", "unset", "empty", "disabled", "enabled", "default"}

// secretValue reports whether v (trimmed) is redacted: at least
// minSecretLen bytes and not a common setting value. It is the one rule
// for which values are too trivial to redact.
func secretValue(v string) bool {
	return len(v) >= minSecretLen && !slices.Contains(commonValues, strings.ToLower(v))
}

// Redactor replaces known secret values in text.
type Redactor struct {
	secrets []string // longest first, so a secret containing another is replaced whole
	longest int
}

// NewRedactor makes a redactor for the given values and their upper- and
// lower-cased forms; empty and short ones are ignored.
func NewRedactor(values ...string) *Redactor {
	r := &Redactor{}
	seen := map[string]bool{}
	for _, v := range values {
		v = strings.TrimSpace(v)
		if !secretValue(v) || seen[v] {
			continue
		}
		// an engine that prints a key upper- or lower-cased leaks it all the
		// same; a value that is not UTF-8 has no case (and its case forms
		// would be U+FFFD runs, which redact other text)
		forms := []string{v}
		if utf8.ValidString(v) {
			forms = append(forms, strings.ToUpper(v), strings.ToLower(v))
		}
		for _, form := range forms {
			if seen[form] {
				continue
			}
			seen[form] = true
			r.secrets = append(r.secrets, form)
			if len(form) > r.longest {
				r.longest = len(form)
			}
		}
	}
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	return r
}

// Empty reports whether there is nothing to redact.
func (r *Redactor) Empty() bool { return r == nil || len(r.secrets) == 0 }

// String redacts a whole text.
func (r *Redactor) String(s string) string {
	if r.Empty() {
		return s
	}
	for _, v := range r.secrets {
		if strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, Redacted)
		}
	}
	return s
}

// heldBack is how many bytes at the end of text might be the start of a
// secret that the next chunk completes.
func (r *Redactor) heldBack(text string) int {
	max := r.longest - 1
	if max > len(text) {
		max = len(text)
	}
	for n := max; n > 0; n-- {
		tail := text[len(text)-n:]
		for _, v := range r.secrets {
			if strings.HasPrefix(v, tail) {
				return n
			}
		}
	}
	return 0
}

// stream redacts text that arrives in chunks: a secret split across two
// chunks is still caught, because a tail that could start one is held back
// until the next chunk or Flush.
type stream struct {
	r       *Redactor
	mu      sync.Mutex
	pending string
	emit    func(string)
}

func (s *stream) write(chunk string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	text := s.r.String(s.pending + chunk)
	hold := s.r.heldBack(text)
	s.pending = text[len(text)-hold:]
	if out := text[:len(text)-hold]; out != "" {
		s.emit(out)
	}
}

func (s *stream) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending != "" {
		s.emit(s.pending)
		s.pending = ""
	}
}

// Writer wraps w so that secrets never reach it. Call the returned flush
// when the writing is over.
func (r *Redactor) Writer(w io.Writer) (io.Writer, func()) {
	if r.Empty() || w == nil {
		return w, func() {}
	}
	s := &stream{r: r, emit: func(t string) { _, _ = io.WriteString(w, t) }}
	return writerFunc(func(p []byte) (int, error) {
		s.write(string(p))
		return len(p), nil
	}), s.flush
}

// Func wraps a delta callback the same way.
func (r *Redactor) Func(f func(string)) (func(string), func()) {
	if r.Empty() || f == nil {
		return f, func() {}
	}
	s := &stream{r: r, emit: f}
	return s.write, s.flush
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// secretEnvNames are the environment variables whose values moot treats as
// secrets wherever they are set: the keys of every vendor moot drives.
var secretEnvNames = []string{
	"OPENAI_API_KEY", "CODEX_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN",
	"CLAUDE_CODE_OAUTH_TOKEN", "GEMINI_API_KEY", "GOOGLE_API_KEY", "DASHSCOPE_API_KEY",
	"OPENROUTER_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "DEEPSEEK_API_KEY",
	"XAI_API_KEY", "TOGETHER_API_KEY", "FIREWORKS_API_KEY", "AZURE_OPENAI_API_KEY",
	"HF_TOKEN", "GITHUB_TOKEN", "GH_TOKEN",
}

// cloudSecretNames are credential variables whose names the patterns of
// SecretName would miss.
var cloudSecretNames = []string{
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
	"AZURE_CLIENT_SECRET", "AZURE_CLIENT_CERTIFICATE_PASSWORD", "ARM_CLIENT_SECRET", "ARM_ACCESS_KEY",
	"GOOGLE_OAUTH_ACCESS_TOKEN", "CLOUDSDK_AUTH_ACCESS_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN",
	"VAULT_TOKEN", "NPM_TOKEN", "DATABASE_URL", "SENTRY_DSN",
}

// secretSuffixes end the names of variables that hold a password or a
// credential under a short word (DB_PASS, MYSQL_PWD, GITHUB_AUTH): "_PWD",
// never the shell's PWD, a folder.
var secretSuffixes = []string{"_PAT", "_PASS", "_PWD", "_AUTH", "_DSN", "_COOKIE"}

// SecretName reports whether an environment variable's name says it holds
// a secret: *KEY*, *TOKEN*, *SECRET*, *PASSWORD*, *PASSWD*, *PASSPHRASE*,
// *CREDENTIAL*, a secretSuffixes ending, or a known cloud credential. It
// is the one rule for what moot redacts from the environment.
func SecretName(name string) bool {
	n := strings.ToUpper(name)
	if slices.Contains(cloudSecretNames, n) || slices.ContainsFunc(secretSuffixes, func(s string) bool { return strings.HasSuffix(n, s) }) {
		return true
	}
	for _, w := range []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// known holds the secret names every engines file read in this process
// declared (api_key_env of every engine) and the values of secret-named
// env entries, so an engine that echoes another engine's key is redacted
// too.
var known struct {
	sync.Mutex
	names  map[string]bool
	values map[string]bool
}

// rememberSecrets records an engine entry's secret names and values.
func rememberSecrets(e *EngineConfig) {
	known.Lock()
	defer known.Unlock()
	if known.names == nil {
		known.names, known.values = map[string]bool{}, map[string]bool{}
	}
	if e.APIKeyEnv != "" {
		known.names[e.APIKeyEnv] = true
	}
	for k, v := range e.Env {
		if SecretName(k) {
			known.values[v] = true
		}
	}
}

// SecretValues lists the secret values an engine could see or echo: every
// variable of moot's environment whose name looks secret (SecretName), the
// vendor key variables, the api_key_env of every engine of the engines
// file, and env entries whose names say they are secrets.
func SecretValues(e *EngineConfig) []string {
	var out []string
	if e != nil && e.APIKeyEnv != "" {
		out = append(out, os.Getenv(e.APIKeyEnv))
	}
	for _, n := range secretEnvNames {
		out = append(out, os.Getenv(n))
	}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && SecretName(k) {
			out = append(out, v)
		}
	}
	known.Lock()
	for n := range known.names {
		out = append(out, os.Getenv(n))
	}
	for v := range known.values {
		out = append(out, v)
	}
	known.Unlock()
	if e != nil {
		for k, v := range e.Env {
			if SecretName(k) {
				out = append(out, v)
			}
		}
	}
	return out
}

// secretSource is an adapter that knows further secrets (stored
// credentials it copies for a call).
type secretSource interface {
	extraSecrets() []string
}

// redacting wraps an adapter so that no secret reaches the raw files, the
// live output, the answer or the error, and no impossible usage reaches
// the budget (SaneUsage): every engine New makes is one.
type redacting struct {
	inner  Engine
	static []string
	// frames: the raw stdout is an HTTP stream whose deltas are redacted
	// on the text they carry together (frameWriter).
	frames bool
}

func (d *redacting) Call(ctx context.Context, req Request) Result {
	values := d.static
	if s, ok := d.inner.(secretSource); ok {
		values = append(append([]string(nil), values...), s.extraSecrets()...)
	}
	r := NewRedactor(values...)
	if r.Empty() {
		return SaneUsage(d.inner.Call(ctx, req))
	}
	var f1, f2, f3 func()
	if d.frames {
		req.Stdout, f1 = r.frameWriterFor(req.Stdout)
	} else {
		req.Stdout, f1 = r.Writer(req.Stdout)
	}
	req.Stderr, f2 = r.Writer(req.Stderr)
	req.OnOutput, f3 = r.Func(req.OnOutput)
	res := d.inner.Call(ctx, req)
	f1()
	f2()
	f3()
	res.Body = r.String(res.Body)
	res.Err = r.String(res.Err)
	return SaneUsage(res)
}
