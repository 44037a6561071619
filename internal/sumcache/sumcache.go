// Package sumcache keeps what a listing derived from each folder, keyed by
// the folder's path and a fingerprint of every file beneath it (names,
// sizes, modification times), in one owner-only file of the user's cache
// folder. It is never trusted over the files: a folder whose fingerprint
// changed is read again, and a cache that cannot be read (damaged, of
// another format) is ignored and rebuilt.
package sumcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/renameio/v2"
)

// format is the cache file's layout; a file of another is ignored.
const format = 1

// settle is how old a folder's newest file must be for its summary to be
// stored: a file rewritten within the same clock tick at the same size
// would keep its fingerprint.
const settle = 2 * time.Second

// maxDepth bounds how deep a fingerprint looks beneath a folder (a bug
// folder's files are at most three levels down: debate/rodada-1/x.md).
const maxDepth = 4

type item struct {
	FP    string          `json:"fp"`
	Value json.RawMessage `json:"value"`
}

type file struct {
	Format int             `json:"format"`
	Scope  string          `json:"scope"`
	Items  map[string]item `json:"items"`
}

// Cache is one listing's cache: what the last run stored, and what this
// run found. Safe for concurrent use.
type Cache struct {
	path  string
	scope string
	old   map[string]item
	mu    sync.Mutex
	fresh map[string]item
	dirty bool
}

// Open loads the cache of a scope (what the summaries depend on besides
// the folders: the register, its settings, the program) from dir; dir ""
// disables caching (moot's is $XDG_CACHE_HOME/moot/list). A missing or unreadable cache is an empty one.
func Open(dir, scope string) *Cache {
	c := &Cache{scope: scope, old: map[string]item{}, fresh: map[string]item{}}
	if dir == "" {
		return c
	}
	sum := sha256.Sum256([]byte(scope))
	c.path = filepath.Join(dir, hex.EncodeToString(sum[:12])+".json")
	raw, err := os.ReadFile(c.path)
	if err != nil {
		return c
	}
	var f file
	if json.Unmarshal(raw, &f) == nil && f.Format == format && f.Scope == scope && f.Items != nil {
		c.old = f.Items
	}
	return c
}

// Get returns the value stored for key when it was derived from files
// with this fingerprint, and keeps it for the next save.
func (c *Cache) Get(key, fp string) (json.RawMessage, bool) {
	it, ok := c.old[key]
	if !ok || it.FP != fp || fp == "" {
		return nil, false
	}
	c.mu.Lock()
	c.fresh[key] = it
	c.mu.Unlock()
	return it.Value, true
}

// Put stores the value derived for key from files with fingerprint fp
// (nothing when fp is "": the folder is too fresh to be trusted).
func (c *Cache) Put(key, fp string, v any) {
	if fp == "" || c.path == "" {
		return
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.mu.Lock()
	c.fresh[key] = item{FP: fp, Value: raw}
	c.dirty = true
	c.mu.Unlock()
}

// Save writes the cache — the values this run got or stored, so folders
// gone from the listing leave it — atomically and owner-only, when it
// changed. A cache that cannot be written is only a slower next listing.
func (c *Cache) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.path == "" || !c.dirty && len(c.fresh) == len(c.old) {
		return nil
	}
	raw, err := json.Marshal(file{Format: format, Scope: c.scope, Items: c.fresh})
	if err != nil {
		return fmt.Errorf("list cache %s: %w", c.path, err)
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return fmt.Errorf("list cache %s: %w", c.path, err)
	}
	if err := renameio.WriteFile(c.path, raw, 0o600, renameio.WithStaticPermissions(0o600)); err != nil {
		return fmt.Errorf("list cache %s: %w", c.path, err)
	}
	return nil
}

// errSymlink stops a fingerprint at a symbolic link.
var errSymlink = errors.New("a symbolic link")

// Fingerprint hashes the name, type, size and modification time of dir
// and of every file and folder beneath it (to maxDepth). It is "" when
// something cannot be read, is a symbolic link, or was changed within the
// last two seconds (now is the clock): such a folder is never served from
// the cache.
func Fingerprint(dir string, now time.Time) string {
	h := sha256.New()
	newest := time.Time{}
	var walk func(path, rel string, depth int) error
	walk = func(path, rel string, depth int) error {
		ents, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		for _, e := range ents {
			info, err := e.Info()
			if errors.Is(err, fs.ErrNotExist) {
				return err // removed while we looked: not settled
			} else if err != nil {
				return err
			}
			if info.Mode()&fs.ModeSymlink != 0 {
				return errSymlink // what it points at is not fingerprinted
			}
			name := rel + "/" + e.Name()
			fmt.Fprintf(h, "%s\x00%o\x00%d\x00%d\n", name, info.Mode(), info.Size(), info.ModTime().UnixNano())
			if info.ModTime().After(newest) {
				newest = info.ModTime()
			}
			if e.IsDir() && depth < maxDepth {
				if err := walk(filepath.Join(path, e.Name()), name, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() {
		return ""
	}
	fmt.Fprintf(h, ".\x00%o\x00%d\n", info.Mode(), info.ModTime().UnixNano())
	newest = info.ModTime()
	if walk(dir, "", 1) != nil || now.Sub(newest) < settle {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
