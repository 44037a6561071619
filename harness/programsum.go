package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A command engine's identity holds the digest of its program's content
// (program_sha256), taken before a debate's first call: for a program of a
// few MB that is tens of ms of reading and hashing on every run, before
// anything else can start. The digests are kept in the user's cache
// folder ($XDG_CACHE_HOME/moot/programs.json), each under the program's
// path with the file's fingerprint when it was hashed: its device, inode,
// size, modification and change times. Any write to the file changes its
// change time, which no user can set back, so a digest is reused only for
// the very file it was taken of; a cache that cannot be read is ignored
// and a file changed within the last two seconds is not stored (a write
// within the same clock tick could keep the fingerprint).

// programCacheFormat is the cache file's layout; a file of another is
// ignored.
const programCacheFormat = 1

// programSettle is how old a file's last change must be for its digest to
// be stored.
const programSettle = 2 * time.Second

type programSum struct {
	Fingerprint string `json:"fingerprint"`
	SHA256      string `json:"sha256"`
}

type programCache struct {
	Format   int                   `json:"format"`
	Programs map[string]programSum `json:"programs"`
}

// programCacheMu orders this process's reads and writes of the cache
// file (other processes replace it whole, atomically).
var programCacheMu sync.Mutex

// programCachePath is the cache file ("" when the user has no cache folder).
func programCachePath() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "moot", "programs.json")
}

// fileSHA256 is the digest of a regular file's content ("" when it is
// not one or cannot be read), from the cache when the file is the one
// hashed then.
func fileSHA256(path string) string { return programDigest(path, programCachePath(), time.Now()) }

// programDigest is fileSHA256 with the cache file at cachePath ("" for
// none), the file's age measured at now.
func programDigest(path, cachePath string, now time.Time) string {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0) // a FIFO never blocks
	if err != nil {
		return ""
	}
	defer f.Close()
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return ""
	}
	fp := fmt.Sprintf("%d:%d:%d:%d:%d", st.Dev, st.Ino, st.Size, st.Mtim.Nano(), st.Ctim.Nano())
	programCacheMu.Lock()
	defer programCacheMu.Unlock()
	cache := loadProgramCache(cachePath)
	if s, ok := cache.Programs[path]; ok && s.Fingerprint == fp && len(s.SHA256) == sha256.Size*2 {
		return s.SHA256
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	sum := hex.EncodeToString(h.Sum(nil))
	changed := time.Unix(0, max(st.Mtim.Nano(), st.Ctim.Nano()))
	if cachePath != "" && now.Sub(changed) >= programSettle {
		cache.Programs[path] = programSum{Fingerprint: fp, SHA256: sum}
		saveProgramCache(cachePath, cache)
	}
	return sum
}

// loadProgramCache reads the cache; a missing, damaged or other-format
// one is empty.
func loadProgramCache(path string) programCache {
	c := programCache{}
	if path != "" {
		if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &c) == nil && c.Format == programCacheFormat && c.Programs != nil {
			return c
		}
	}
	return programCache{Format: programCacheFormat, Programs: map[string]programSum{}}
}

// saveProgramCache replaces the cache file, owner-only, through a temp
// file and a rename (not synced: a cache lost or torn by a power cut is
// only ignored and rebuilt).
func saveProgramCache(path string, c programCache) {
	b, err := json.Marshal(c)
	if err != nil || os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".programs.json.*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		_ = os.Remove(tmp.Name())
	}
}
