package harness

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// scratchPrefix starts the name of every private folder moot makes for a
// call: moot-<kind>-<pid>-<random>. The pid lets a later moot remove the
// folders of a moot that was killed before it could clean up.
const scratchPrefix = "moot-"

var sweepOnce sync.Once

// newScratch makes an owner-only temporary folder for one call, first
// sweeping (once per process) the folders of moot processes that died.
func newScratch(kind string) (string, error) {
	sweepOnce.Do(sweepStale)
	return os.MkdirTemp("", scratchPrefix+kind+"-"+strconv.Itoa(os.Getpid())+"-")
}

// sweepStale removes the call folders left by moot processes that no
// longer run (killed with SIGKILL, or a crashed machine).
func sweepStale() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), scratchPrefix+"*-*-*"))
	for _, m := range matches {
		parts := strings.Split(filepath.Base(m), "-")
		if len(parts) < 4 {
			continue
		}
		pid, err := strconv.Atoi(parts[len(parts)-2])
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			if fi, err := os.Stat(m); err == nil && fi.IsDir() && ownedByMe(fi) {
				_ = os.RemoveAll(m)
			}
		}
	}
}

// ownedByMe reports whether this user owns a folder (never touch others').
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
