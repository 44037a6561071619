package harness

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/reversa/moot/internal/lazyre"
)

// scratchPrefix starts the name of every private folder moot makes for a
// call: moot-<kind>-<pid>-<random>. The pid lets a later moot remove the
// folders of a moot that was killed before it could clean up.
const scratchPrefix = "moot-"

var sweepOnce sync.Once

// scratchMark is the file every scratch folder holds from its creation:
// the sweep removes only folders that carry it, never another program's
// (or the user's) folder whose name merely looks like one.
const scratchMark = ".moot-scratch"

// scratchName is a scratch folder's whole name: moot-<kind>-<pid>-<digits>.
var scratchName = lazyre.New(`^moot-[a-z]+-([0-9]+)-[0-9]+$`)

// newScratch makes an owner-only temporary folder for one call; the first
// one starts sweeping the folders of moot processes that died, in the
// background (WaitRemovals waits for it too): the sweep lists the whole
// temp folder and never touches this process's folders, so no call waits
// for it.
func newScratch(kind string) (string, error) {
	sweepOnce.Do(func() {
		removals.Add(1)
		go func() {
			defer removals.Done()
			sweepStale()
		}()
	})
	if kind == spareKind {
		if dir, ok := spares.take(); ok {
			return dir, nil
		}
	}
	return makeScratch(kind)
}

// makeScratch makes a scratch folder with its mark.
func makeScratch(kind string) (string, error) {
	dir, err := os.MkdirTemp("", scratchPrefix+kind+"-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, scratchMark), nil, 0o600); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// removals are the scratch folders being removed off their calls' paths
// (removeLater), and the sweep of dead processes' folders.
var removals sync.WaitGroup

// removeLater removes a command call's scratch folder (its P.md link and
// its mark: nothing of the project, no credentials) in the background, so
// the call's answer does not wait for the unlinks: on a busy disk they
// took about 4 ms a call. WaitRemovals waits for them; a folder a killed
// moot left behind is swept at the next start (sweepStale).
func removeLater(dir string) {
	removals.Add(1)
	go func() {
		defer removals.Done()
		removeScratch(dir)
	}()
}

// removeScratch removes a scratch folder with its mark last: a removal cut
// short (its process exited first) leaves a marked folder, which the next
// start sweeps, rather than an unmarked one nobody removes.
func removeScratch(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != scratchMark {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
	_ = os.RemoveAll(dir)
}

// WaitRemovals returns once every scratch folder handed to removeLater is
// gone, and every spare call folder (PrepareScratch): moot calls it
// before it exits.
func WaitRemovals() {
	spares.drain()
	removals.Wait()
}

// spareKind is the kind of scratch folder made ahead: a command engine's
// call folder (a vendor CLI's holds more, made per call).
const spareKind = "call"

// spares are call folders made ahead of the calls that take them. On a
// disk where every new inode costs most of a millisecond (about 0.75 ms a
// folder and as much its mark, measured here), making a stage's folders
// as its calls start spread the starts and delayed the first one; made
// while the previous stage's engines run, they cost the calls nothing.
var spares sparePool

// sparePool holds the spare folders; want is how many it keeps (every one
// taken is replaced in the background while fewer than want are left).
type sparePool struct {
	mu     sync.Mutex
	dirs   []string
	want   int
	making int         // folders being made
	later  *time.Timer // the refill scheduled, if any
}

// refillAfter is how long after a call takes its folder the pool is
// refilled: not while the stage's calls start (the folders would compete
// with their starts for the processor and the disk), but while their
// engines run.
const refillAfter = 100 * time.Millisecond

// PrepareScratch keeps n call folders made ahead, in the background:
// the engine asks for a stage's width before the first stage, and for
// fewer before the last (those beyond n are removed in the background).
// Folders are the same private, marked folders a call would make; one
// made for another TMPDIR is never handed out; WaitRemovals removes those
// left, and a killed moot's are swept as any scratch folder is.
func PrepareScratch(n int) {
	spares.mu.Lock()
	defer spares.mu.Unlock()
	spares.want = max(n, 0)
	for len(spares.dirs) > spares.want {
		removeLater(spares.dirs[len(spares.dirs)-1])
		spares.dirs = spares.dirs[:len(spares.dirs)-1]
	}
	spares.fill()
}

// take hands out a spare folder made in this TMPDIR, and has another made.
func (p *sparePool) take() (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.dirs) > 0 {
		dir := p.dirs[len(p.dirs)-1]
		p.dirs = p.dirs[:len(p.dirs)-1]
		if p.later == nil {
			removals.Add(1) // done once the refill has started, or is stopped
			p.later = time.AfterFunc(refillAfter, func() {
				defer removals.Done()
				p.mu.Lock()
				defer p.mu.Unlock()
				p.later = nil
				p.fill()
			})
		}
		if filepath.Dir(dir) == filepath.Clean(os.TempDir()) {
			return dir, true
		}
		removeLater(dir)
	}
	return "", false
}

// fill makes, in the background, the spare folders the pool lacks (under
// p.mu); removals counts them, so WaitRemovals waits for them before
// draining the pool.
func (p *sparePool) fill() {
	for ; len(p.dirs)+p.making < p.want; p.making++ {
		removals.Add(1)
		go func() {
			defer removals.Done()
			dir, err := makeScratch(spareKind)
			p.mu.Lock()
			p.making--
			keep := err == nil && len(p.dirs) < p.want
			if keep {
				p.dirs = append(p.dirs, dir)
			}
			p.mu.Unlock()
			if err == nil && !keep {
				removeScratch(dir)
			}
		}()
	}
}

// drain stops making spares and removes those made, once the ones being
// made have landed.
func (p *sparePool) drain() {
	p.mu.Lock()
	p.want = 0
	if p.later != nil && p.later.Stop() {
		p.later = nil
		removals.Done()
	}
	p.mu.Unlock()
	removals.Wait() // spares being made land (or are removed at once)
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, dir := range p.dirs {
		removeLater(dir)
	}
	p.dirs = nil
}

// sweepStale removes the call folders left by moot processes that no
// longer run (killed with SIGKILL, or a crashed machine): folders named as
// newScratch names them, owned by this user, holding its mark, whose
// process is gone.
func sweepStale() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), scratchPrefix+"*-*-*"))
	for _, m := range matches {
		sub := scratchName.FindStringSubmatch(filepath.Base(m))
		if sub == nil {
			continue
		}
		pid, err := strconv.Atoi(sub[1])
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			continue
		}
		fi, err := os.Lstat(m)
		if err != nil || !fi.IsDir() || !ownedByMe(fi) {
			continue
		}
		if mark, err := os.Lstat(filepath.Join(m, scratchMark)); err == nil && mark.Mode().IsRegular() {
			_ = os.RemoveAll(m)
		}
	}
}

// ownedByMe reports whether this user owns a folder (never touch others').
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// NewPFile writes P once, for every call of a debate, as the owner-only,
// read-only file P.md of a private temporary folder, and returns its path
// and what removes it. Calls link it into their scratch folders
// (Request.PFile) instead of each writing its own copy.
func NewPFile(p string) (string, func(), error) {
	dir, err := newScratch("p")
	if err != nil {
		return "", nil, fmt.Errorf("create the folder of P: %w", err)
	}
	remove := func() { _ = os.RemoveAll(dir) }
	name := filepath.Join(dir, "P.md")
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o400)
	if err == nil {
		_, err = f.WriteString(p)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		remove()
		return "", nil, fmt.Errorf("write %s: %w", name, err)
	}
	return name, remove, nil
}

// placeP puts P into a call's folder as P.md (mode perm): a hard link of
// the debate's P file when there is one (a streamed copy of it when the
// link fails), else the request's P written out.
func placeP(dir string, req Request, perm os.FileMode) error {
	dst := filepath.Join(dir, "P.md")
	if req.PFile == "" {
		if req.P == "" {
			return nil
		}
		return writeP(dst, strings.NewReader(req.P), perm)
	}
	if err := os.Link(req.PFile, dst); err == nil {
		return nil
	}
	src, err := os.Open(req.PFile)
	if err != nil {
		return fmt.Errorf("copy P into the scratch folder: %w", err)
	}
	defer src.Close()
	return writeP(dst, src, perm)
}

// writeP writes P.md from r, without holding P in memory again.
func writeP(dst string, r io.Reader, perm os.FileMode) error {
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return fmt.Errorf("copy P into the scratch folder: %w", err)
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("copy P into %s: %w", dst, err)
	}
	return nil
}
