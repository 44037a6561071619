package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/google/renameio/v2"

	"github.com/reversa/moot/internal/safefs"
)

// callDirs are the private folders of one vendor-CLI call, all under a
// fresh owner-only temporary root that is removed when the call ends.
type callDirs struct {
	root, home, tmp, work string
}

// callSetup is what a CLI's argv and settings are built from.
type callSetup struct {
	e    *EngineConfig
	dirs callDirs
	// key is the value of the entry's api_key_env ("" when none).
	key string
	// storedAuth is set when stored credentials were copied in.
	storedAuth bool
	// dir is the folder the CLI runs in: the scratch folder, or the
	// project for an engine with read-only project access.
	dir string
	env []string
}

// setenv adds a variable to the call's environment.
func (c *callSetup) setenv(k, v string) { c.env = append(c.env, k+"="+v) }

// hasEnv reports whether the call's environment sets k to a non-empty value.
func (c *callSetup) hasEnv(k string) bool {
	for _, kv := range c.env {
		if strings.HasPrefix(kv, k+"=") && len(kv) > len(k)+1 {
			return true
		}
	}
	return false
}

// credFile is a stored-credentials file of a vendor CLI.
type credFile struct {
	// home is its path under HOME, where the CLI looks for it.
	home string
	// envDir, when set in moot's environment, names the folder that holds
	// the file instead (CODEX_HOME, CLAUDE_CONFIG_DIR).
	envDir string
	// xdgData, when $XDG_DATA_HOME is set, is its path under that folder.
	xdgData string
}

// source is the file's path on this machine.
func (f credFile) source() string {
	if f.envDir != "" {
		if d := os.Getenv(f.envDir); d != "" {
			return filepath.Join(d, filepath.Base(f.home))
		}
	}
	if f.xdgData != "" {
		if d := os.Getenv("XDG_DATA_HOME"); d != "" {
			return filepath.Join(d, f.xdgData)
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, f.home)
}

// target is where the CLI finds the file under a private HOME.
func (f credFile) target(home string) string { return filepath.Join(home, f.home) }

// cliSpec is everything moot knows about driving one vendor CLI.
type cliSpec struct {
	kind Kind
	bin  string
	// npm is the package that installs it (for the "not found" message).
	npm string
	// args builds the arguments after the binary.
	args func(c *callSetup) []string
	// setup writes the CLI's settings into the private HOME and sets the
	// variables that point it at its endpoint and key.
	setup func(c *callSetup) error
	// parser reads the CLI's structured output.
	parser func() outputParser
	// keyVars are the vendor's own key variables, passed through from
	// moot's environment when the entry names no api_key_env.
	keyVars []string
	// passVars are further vendor variables passed through when set.
	passVars []string
	// creds are the stored credentials copied into the private HOME when
	// the entry names no api_key_env.
	creds []credFile
	// helpArgs prints the help that must mention every flag in needFlags.
	helpArgs  []string
	needFlags []string
	// status checks stored credentials without a model call (nil: the
	// presence of a credentials file is the check).
	status []string
	// login says how to log in with stored credentials.
	login string
	// sharedFirst, when set, places the prompt's shared block where the
	// CLI's requests begin (before anything it adds per call) and returns
	// what goes on stdin.
	sharedFirst func(c *callSetup, req Request) ([]string, error)
}

// quietEnv turns off telemetry, update checks and background traffic in
// every CLI that offers a switch.
var quietEnv = []string{
	"NO_COLOR=1", "TERM=dumb", "CI=1", "NO_UPDATE_NOTIFIER=1",
	"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_MAX_RETRIES=0",
	"GEMINI_CLI_TRUST_WORKSPACE=true",
	"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_SHARE=1",
	"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_AUTOCOMPACT=1",
	"OPENCODE_DISABLE_CLAUDE_CODE=1",
}

// inheritEnv are the variables of moot's environment every CLI keeps:
// how to find programs, the locale, proxies and certificates.
var inheritEnv = []string{
	"PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ",
	"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy", "ALL_PROXY", "all_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
}

// minimalEnv is the environment of a vendor-CLI call before the kind adds
// its own variables.
func minimalEnv(d callDirs) []string {
	var env []string
	for _, k := range inheritEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	env = append(env,
		"HOME="+d.home, "TMPDIR="+d.tmp, "USERPROFILE="+d.home,
		"XDG_CONFIG_HOME="+filepath.Join(d.home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(d.home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(d.home, ".cache"),
		"XDG_STATE_HOME="+filepath.Join(d.home, ".local", "state"),
	)
	return append(env, quietEnv...)
}

// vendorCLI drives a vendor's coding-agent CLI.
type vendorCLI struct {
	cfg  *EngineConfig
	opts Options
	spec *cliSpec
}

func (v *vendorCLI) extraSecrets() []string {
	if v.cfg.APIKeyEnv != "" {
		return nil
	}
	var out []string
	for _, f := range v.spec.creds {
		out = append(out, credentialSecrets(f.source())...)
	}
	return out
}

// newCallDirs makes the private folders of one call.
func newCallDirs(kind Kind) (callDirs, error) {
	root, err := newScratch(string(kind))
	if err != nil {
		return callDirs{}, fmt.Errorf("create a private folder: %w", err)
	}
	d := callDirs{root: root, home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp"), work: filepath.Join(root, "work")}
	for _, p := range []string{d.home, d.tmp, d.work} {
		if err := os.Mkdir(p, safefs.DirPerm); err != nil {
			os.RemoveAll(root)
			return callDirs{}, fmt.Errorf("create %s: %w", p, err)
		}
	}
	return d, nil
}

// prepare makes the private folders and the environment of a call.
func (v *vendorCLI) prepare(req Request) (*callSetup, error) {
	d, err := newCallDirs(v.cfg.Kind)
	if err != nil {
		return nil, err
	}
	c := &callSetup{e: v.cfg, dirs: d, dir: d.work, env: minimalEnv(d)}
	if err := placeP(d.work, req, 0o400); err != nil {
		os.RemoveAll(d.root)
		return nil, err
	}
	if v.cfg.ProjectAccess == "read-only" && v.opts.ProjectDir != "" {
		c.dir = v.opts.ProjectDir
	}
	if v.cfg.APIKeyEnv != "" {
		c.key = os.Getenv(v.cfg.APIKeyEnv)
	} else {
		for _, k := range v.spec.keyVars {
			if val := os.Getenv(k); val != "" {
				c.setenv(k, val)
			}
		}
		for _, f := range v.spec.creds {
			if copied, err := copyCredential(f.source(), f.target(d.home)); err != nil {
				os.RemoveAll(d.root)
				return nil, err
			} else if copied {
				c.storedAuth = true
			}
		}
	}
	for _, k := range v.spec.passVars {
		if val := os.Getenv(k); val != "" {
			c.setenv(k, val)
		}
	}
	if v.spec.setup != nil {
		if err := v.spec.setup(c); err != nil {
			os.RemoveAll(d.root)
			return nil, err
		}
	}
	for k, val := range v.cfg.Env {
		c.setenv(k, val)
	}
	return c, nil
}

// binary finds the CLI on PATH.
func (v *vendorCLI) binary() (string, error) {
	p, err := exec.LookPath(v.spec.bin)
	if err != nil {
		return "", fmt.Errorf("%s is not on PATH: install it (npm install -g %s) or put it on PATH", v.spec.bin, v.spec.npm)
	}
	return p, nil
}

func (v *vendorCLI) Call(ctx context.Context, req Request) Result {
	bin, err := v.binary()
	if err != nil {
		return errorf(FailEngine, "%v", err)
	}
	c, err := v.prepare(req)
	if err != nil {
		return errorf(FailStart, "%v", err)
	}
	defer os.RemoveAll(c.dirs.root)
	stdin := req.promptPieces()
	if v.spec.sharedFirst != nil {
		if stdin, err = v.spec.sharedFirst(c, req); err != nil {
			return errorf(FailStart, "%v", err)
		}
	}
	argv := append([]string{bin}, v.spec.args(c)...)
	res := runProcess(ctx, proc{
		argv: argv, env: c.env, dir: c.dir, stdin: stdin, timeout: req.Timeout,
		grace: v.opts.Grace, cap: v.opts.OutputCap, stdout: req.Stdout, stderr: req.Stderr, onOutput: req.OnOutput, group: req.Group,
	}, v.spec.parser)
	if c.storedAuth {
		v.syncBack(c)
	}
	if v.opts.inspect != nil {
		v.opts.inspect(c.dirs.root)
	}
	return res
}

// syncBack copies refreshed stored credentials back: a CLI that refreshes
// an OAuth token in the private HOME may have spent the refresh token the
// user's own copy still holds.
func (v *vendorCLI) syncBack(c *callSetup) {
	for _, f := range v.spec.creds {
		src := f.source()
		orig, err := os.ReadFile(src)
		if err != nil {
			continue
		}
		now, err := os.ReadFile(f.target(c.dirs.home))
		if err != nil || bytes.Equal(orig, now) || !json.Valid(now) {
			continue
		}
		_ = writeOwnerOnly(src, now)
	}
}

// copyCredential copies a stored-credentials file, owner-only, when it
// exists.
func copyCredential(src, dst string) (bool, error) {
	if src == "" {
		return false, nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return false, nil // absent or unreadable: the CLI reports its own auth error
	}
	if err := os.MkdirAll(filepath.Dir(dst), safefs.DirPerm); err != nil {
		return false, fmt.Errorf("copy stored credentials: %w", err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		return false, fmt.Errorf("copy stored credentials: %w", err)
	}
	return true, nil
}

// writeOwnerOnly replaces a file atomically with owner-only permissions.
func writeOwnerOnly(path string, data []byte) error {
	return renameio.WriteFile(path, data, 0o600, renameio.WithStaticPermissions(0o600))
}

// credentialSecrets lists the token-like strings of a credentials file, so
// that they are redacted if a CLI ever prints them.
func credentialSecrets(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			for _, y := range t {
				walk(y)
			}
		case []any:
			for _, y := range t {
				walk(y)
			}
		case string:
			if len(t) >= 20 && !strings.ContainsAny(t, " \n") {
				out = append(out, t)
			}
		}
	}
	walk(v)
	return out
}

// writeJSONFile writes a settings file under the private HOME.
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), safefs.DirPerm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// trimV1 drops a trailing /v1 from an API root for clients that add it.
func trimV1(u string) string {
	u = strings.TrimRight(u, "/")
	return strings.TrimSuffix(u, "/v1")
}
