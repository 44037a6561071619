// Package seal stamps what moot writes and later reads back (a review's
// record, its verdicts and envelopes) with an HMAC keyed by a secret in
// the user's own config folder, created owner-only on first use. A file
// anyone else wrote — committed to a repository, forged, or copied from
// another user's machine — does not verify, so moot refuses to act on it.
package seal

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/reversa/moot/internal/safefs"
)

// KeyName is the key's file name in moot's user config folder.
const KeyName = "seal.key"

// keySize is the key's length in bytes.
const keySize = 32

// KeyPath is $XDG_CONFIG_HOME/moot/seal.key (~/.config/moot/seal.key),
// beside the user's trusted.json; "" when the user has no config folder.
func KeyPath() string {
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		base = filepath.Join(h, ".config")
	}
	return filepath.Join(base, "moot", KeyName)
}

var (
	mu    sync.Mutex
	cache = map[string][]byte{}
)

// Key reads the user's key, creating it (random, owner-only, in an
// owner-only folder) when there is none.
func Key() ([]byte, error) {
	p := KeyPath()
	if p == "" {
		return nil, errors.New("no config folder to keep moot's seal key in (set XDG_CONFIG_HOME or HOME)")
	}
	mu.Lock()
	defer mu.Unlock()
	if k, ok := cache[p]; ok {
		return k, nil
	}
	k, err := readKey(p)
	if errors.Is(err, fs.ErrNotExist) {
		k, err = createKey(p)
	}
	if err != nil {
		return nil, err
	}
	cache[p] = k
	return k, nil
}

// readKey reads a key file, refusing one another user could read or write.
func readKey(p string) ([]byte, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s: moot's seal key must be a regular file only its owner can read (mode 0600); remove it and moot creates a new one (reviews sealed with it are then refused)", p)
	}
	b, err := safefs.ReadFile(p, 4<<10)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	k, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(k) != keySize {
		return nil, fmt.Errorf("%s is not a seal key (%d hex digits); remove it and moot creates a new one", p, 2*keySize)
	}
	return k, nil
}

// createKey writes a new random key, never over an existing file.
func createKey(p string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", filepath.Dir(p), err)
	}
	k := make([]byte, keySize)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return readKey(p) // another moot made it first
	}
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", p, err)
	}
	_, werr := f.WriteString(hex.EncodeToString(k) + "\n")
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		return nil, fmt.Errorf("write %s: %w", p, err)
	}
	return k, nil
}

// Sum is the HMAC-SHA256 of parts under key, in hex; each part is
// written after its length, so no two lists of parts read the same.
func Sum(key []byte, parts ...string) string {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		fmt.Fprintf(m, "%d:%s", len(p), p)
	}
	return hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether mac is Sum(key, parts...), in constant time.
func Verify(key []byte, mac string, parts ...string) bool {
	want, err := hex.DecodeString(mac)
	if err != nil {
		return false
	}
	got, _ := hex.DecodeString(Sum(key, parts...))
	return hmac.Equal(want, got)
}

// Digest is the sha256 of data in hex, what a file's seal covers.
func Digest(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}
