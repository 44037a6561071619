package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/renameio/v2"
	"github.com/reversa/moot/internal/safefs"
)

// TrustReasons lists what in an engines file needs the user's trust
// before it may be used from a cloned project — every effect the file can
// have beyond choosing among vendor engines at their default endpoints:
// engines that run a command; that point a client or a CLI at another
// endpoint (a base_url not on this machine, or one on this machine that
// would receive a key or a stored login); that read an environment
// variable as their key (api_key_env: the file would choose which secret
// is sent, and where); that set or widen a child's environment (env,
// env_passthrough); that replay a cassette outside project (any file moot
// could read); that set their own prices (the plan's cost and the dollar
// cap would believe them). A command's program files inside project are
// named with their sha256 (TrustSum covers them). Empty when the file
// only names vendor engines at their default endpoints. (A project's
// budget: never loosens the user's own caps: see MergeBudget.)
func TrustReasons(c *Config, project string) []string {
	var out []string
	for _, name := range c.Order {
		e := c.Engines[name]
		if e.Kind == KindCommand {
			r := fmt.Sprintf("engine %s runs a command (%s)", name, argvString(e.Command))
			for _, f := range commandFiles(e, c.Path, project) {
				r += fmt.Sprintf("; its program %s has sha256 %s", f.path, f.sum)
			}
			out = append(out, r)
		}
		if e.Kind == KindReplay && e.Cassette != "" {
			p := e.Cassette
			if !filepath.IsAbs(p) {
				p = filepath.Join(configDirOf(c.Path), p)
			}
			if _, ok := beneath(project, p); !ok {
				out = append(out, fmt.Sprintf("engine %s replays a cassette outside the project (%s)", name, p))
			}
		}
		switch {
		case e.BaseURL != "" && !IsLoopback(e.BaseURL):
			out = append(out, fmt.Sprintf("engine %s sends its calls to %s", name, e.BaseURL))
		case e.BaseURL != "" && sendsCredential(e):
			out = append(out, fmt.Sprintf("engine %s sends its calls, with %s, to %s (a port on this machine the file chose)", name, credentialOf(e), e.BaseURL))
		}
		if e.APIKeyEnv != "" {
			to := e.BaseURL
			if to == "" {
				to = "the " + string(e.Kind) + " vendor"
			}
			out = append(out, fmt.Sprintf("engine %s reads environment variable %s and sends its value as an API key to %s", name, e.APIKeyEnv, to))
		}
		if e.Price != nil {
			out = append(out, fmt.Sprintf("engine %s sets its own prices ($%g in, $%g out per million tokens): the plan's cost and the dollar cap would use them", name, e.Price.InputPerMTok, e.Price.OutputPerMTok))
		}
		if len(e.Env) > 0 {
			keys := make([]string, 0, len(e.Env))
			for k := range e.Env {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			out = append(out, fmt.Sprintf("engine %s sets environment variables (%v)", name, keys))
		}
		if len(e.EnvPassthrough) > 0 {
			out = append(out, fmt.Sprintf("engine %s passes through environment variables (%v)", name, e.EnvPassthrough))
		}
	}
	return out
}

// sendsCredential reports whether an engine's calls carry a key or a
// stored login: every kind but an openai-compatible client without
// api_key_env (a local server needs none, and none is sent).
func sendsCredential(e *EngineConfig) bool {
	switch {
	case e.APIKeyEnv != "":
		return true
	case e.Kind == KindOpenAI, e.Kind == KindCommand, e.Kind == KindReplay:
		return false
	}
	return true
}

// credentialOf names what an engine's calls carry.
func credentialOf(e *EngineConfig) string {
	switch {
	case e.APIKeyEnv != "":
		return "the value of " + e.APIKeyEnv
	case e.Kind == KindAnthropic:
		return "your ANTHROPIC_API_KEY"
	}
	return "your " + string(e.Kind) + " login or key"
}

// MergeBudget is the cap a run keeps when a project's engines file is
// used: each of the user's own caps (their engines file's budget:) still
// holds, and the project's may only tighten it — the stricter of the two
// for each field.
func MergeBudget(own, project Budget) Budget {
	return Budget{MaxUSD: stricter(own.MaxUSD, project.MaxUSD), MaxTokens: int(stricter(float64(own.MaxTokens), float64(project.MaxTokens)))}
}

// stricter is the smaller of two caps, where 0 is no cap.
func stricter(a, b float64) float64 {
	switch {
	case a <= 0:
		return max(b, 0)
	case b <= 0:
		return a
	}
	return min(a, b)
}

// TrustSum is what `moot trust` remembers of an engines file: the sha256
// of its bytes, and, when its command engines run programs inside
// project, of those programs too, so a replaced script needs trust again.
func TrustSum(c *Config, project string) string {
	h := sha256.New()
	h.Write([]byte(c.SHA256))
	files := 0
	for _, name := range c.Order {
		for _, f := range commandFiles(c.Engines[name], c.Path, project) {
			fmt.Fprintf(h, "\x00%s\x00%s\x00%s", name, f.path, f.sum)
			files++
		}
	}
	if files == 0 {
		return c.SHA256
	}
	return hex.EncodeToString(h.Sum(nil))
}

// programFile is a file a command engine runs, with its content's digest.
type programFile struct{ path, sum string }

// commandFiles lists the files inside project that a command engine's argv
// names (its program, and a script given to an interpreter), resolved as
// the adapter resolves them. A file that cannot be read counts with the
// digest "unreadable".
func commandFiles(e *EngineConfig, configPath, project string) []programFile {
	if e.Kind != KindCommand || project == "" {
		return nil
	}
	dir := configDirOf(configPath)
	var out []programFile
	for i, a := range e.Command {
		if strings.Contains(a, "{") || (i > 0 && !strings.ContainsRune(a, '/')) {
			continue
		}
		p := resolveProgram(a, dir)
		if i > 0 && !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if _, ok := beneath(project, p); !ok {
			continue
		}
		sum := fileSHA256(p)
		if sum == "" {
			if _, err := os.Lstat(p); err != nil {
				continue
			}
			sum = "unreadable"
		}
		out = append(out, programFile{p, sum})
	}
	return out
}

func argvString(argv []string) string {
	b, _ := json.Marshal(argv)
	return string(b)
}

// TrustStore is where the user's trusted engines files are remembered:
// each file's absolute path and the sha256 of the content trusted.
type TrustStore struct {
	// Path is the store's file ("" when the user has no config folder).
	Path string
}

// DefaultTrustStore is $XDG_CONFIG_HOME/moot/trusted.json (~/.config).
func DefaultTrustStore() TrustStore {
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return TrustStore{}
		}
		base = filepath.Join(h, ".config")
	}
	return TrustStore{Path: filepath.Join(base, "moot", "trusted.json")}
}

// trustFile is the store's format.
type trustFile struct {
	// Files maps an engines file's absolute path to the sha256 trusted.
	Files map[string]string `json:"files"`
}

func (s TrustStore) read() (trustFile, error) {
	t := trustFile{Files: map[string]string{}}
	if s.Path == "" {
		return t, nil
	}
	b, err := safefs.ReadFile(s.Path, 4<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return t, fmt.Errorf("read %s: %w", s.Path, err)
	}
	if err := json.Unmarshal(b, &t); err != nil {
		return t, fmt.Errorf("%s is not valid JSON (%v); remove it and trust your projects again", s.Path, err)
	}
	if t.Files == nil {
		t.Files = map[string]string{}
	}
	return t, nil
}

func (s TrustStore) write(t trustFile) error {
	if s.Path == "" {
		return errors.New("no config folder to remember trust in (set XDG_CONFIG_HOME or HOME)")
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(s.Path), err)
	}
	b, _ := json.MarshalIndent(t, "", "  ")
	if err := renameio.WriteFile(s.Path, append(b, '\n'), 0o600, renameio.WithStaticPermissions(0o600)); err != nil {
		return fmt.Errorf("write %s: %w", s.Path, err)
	}
	return nil
}

// Trusted reports whether the engines file at path is trusted with the
// content whose sha256 is sum.
func (s TrustStore) Trusted(path, sum string) bool {
	t, err := s.read()
	if err != nil {
		return false
	}
	abs, _ := filepath.Abs(path)
	return sum != "" && t.Files[abs] == sum
}

// Trust remembers the engines file at path with the content whose sha256
// is sum.
func (s TrustStore) Trust(path, sum string) error {
	t, err := s.read()
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(path)
	t.Files[abs] = sum
	return s.write(t)
}

// Revoke forgets the engines file at path; it reports whether it was
// trusted.
func (s TrustStore) Revoke(path string) (bool, error) {
	t, err := s.read()
	if err != nil {
		return false, err
	}
	abs, _ := filepath.Abs(path)
	if _, ok := t.Files[abs]; !ok {
		return false, nil
	}
	delete(t.Files, abs)
	return true, s.write(t)
}

// sha256Hex is the hex sha256 of b.
func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
