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

	"github.com/google/renameio/v2"
	"github.com/reversa/moot/internal/safefs"
)

// TrustReasons lists what in an engines file needs the user's trust
// before it may be used from a cloned project: engines that run a command,
// that point a client or a CLI at another endpoint (a base_url that is not
// on this machine), or that set
// or widen a child's environment (env, env_passthrough). Empty when the
// file only names vendor engines at their default endpoints.
func TrustReasons(c *Config) []string {
	var out []string
	for _, name := range c.Order {
		e := c.Engines[name]
		if e.Kind == KindCommand {
			out = append(out, fmt.Sprintf("engine %s runs a command (%s)", name, argvString(e.Command)))
		}
		if e.BaseURL != "" && !IsLoopback(e.BaseURL) {
			out = append(out, fmt.Sprintf("engine %s sends its calls to %s", name, e.BaseURL))
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
