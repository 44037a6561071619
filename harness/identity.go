package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Identity is what an engine is, beyond its name: the fields a debate
// locks so that a resume is answered by the same program and model.
type Identity struct {
	Kind  string
	Model string
	// Host is the endpoint's host (with its port) when a base_url is set.
	Host string
	// ArgvSHA256 is the digest of a command engine's argv (placeholders
	// unexpanded), NUL-separated.
	ArgvSHA256 string
	// Program is a command engine's program resolved the way the adapter
	// starts it (relative to the engines file's folder, or on PATH).
	Program string
	// ProgramSHA256 is the digest of the program file's content, so the
	// same relative command in another engines file is another engine.
	ProgramSHA256 string
}

// identityKeys are the fields of an Identity in the order they are written.
var identityKeys = []string{"kind", "model", "host", "argv_sha256", "program", "program_sha256"}

// IdentityKeys lists the field names of an identity, in written order.
func IdentityKeys() []string { return slices.Clone(identityKeys) }

// IdentityOf returns an engine's identity; configPath is the engines file
// it was read from ("" for built-in engines), whose folder relative
// programs start at.
func IdentityOf(e *EngineConfig, configPath string) Identity {
	id := Identity{Kind: string(e.Kind), Model: e.Model}
	if e.BaseURL != "" {
		if u, err := url.Parse(e.BaseURL); err == nil && u.Host != "" {
			id.Host = u.Host
		} else {
			id.Host = e.BaseURL
		}
	}
	if e.Kind == KindCommand {
		sum := sha256.Sum256([]byte(strings.Join(e.Command, "\x00")))
		id.ArgvSHA256 = hex.EncodeToString(sum[:])
		if len(e.Command) > 0 {
			id.Program = resolveProgram(e.Command[0], configDirOf(configPath))
			id.ProgramSHA256 = fileSHA256(id.Program)
		}
	}
	return id
}

// configDirOf is the absolute folder of an engines file ("" for none).
func configDirOf(path string) string {
	if path == "" {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	return filepath.Dir(abs)
}

// resolveProgram resolves a command's program as the adapter starts it:
// a relative path with a slash starts at the engines file's folder; a bare
// name is looked up on PATH (left as is when not found).
func resolveProgram(p, configDir string) string {
	switch {
	case strings.ContainsRune(p, '/') && !filepath.IsAbs(p) && configDir != "":
		return filepath.Join(configDir, p)
	case !strings.ContainsRune(p, '/'):
		if found, err := exec.LookPath(p); err == nil {
			if abs, err := filepath.Abs(found); err == nil {
				return abs
			}
			return found
		}
	}
	return p
}

// Fields lists the identity's non-empty fields in the order they are
// written: kind, model, host, argv_sha256, program, program_sha256.
func (i Identity) Fields() [][2]string {
	var out [][2]string
	vals := []string{i.Kind, i.Model, i.Host, i.ArgvSHA256, i.Program, i.ProgramSHA256}
	for n, k := range identityKeys {
		kv := [2]string{k, vals[n]}
		if kv[1] != "" {
			out = append(out, kv)
		}
	}
	return out
}

// Map returns the identity as field → value (empty fields left out).
func (i Identity) Map() map[string]string {
	m := map[string]string{}
	for _, kv := range i.Fields() {
		m[kv[0]] = kv[1]
	}
	return m
}
