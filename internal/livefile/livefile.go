// Package livefile publishes what a running debate's event log does not
// hold — how much each call in flight has streamed so far — to a small
// owner-only sidecar in the debate folder, so that another moot process
// watching the debate can show its tokens moving. The sidecar is for
// display only: rewritten atomically at most twice a second, removed when
// the run ends, and never read as part of the protocol.
package livefile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/safefs"
)

// Name is the sidecar's name inside a debate folder.
const Name = ".moot.live.json"

// Every is the least time between two writes of the sidecar.
const Every = 500 * time.Millisecond

// maxSize bounds what Read accepts.
const maxSize = 64 << 10

// State is what the sidecar holds.
type State struct {
	PID       int       `json:"pid"`
	UpdatedAt time.Time `json:"updated_at"`
	// Streamed is the bytes each call in flight has streamed, by Key.
	Streamed map[string]int `json:"streamed"`
	// Attempt is each call in flight's attempt number, by Key (a file
	// of that attempt, once written, has the call's own figures).
	Attempt map[string]int `json:"attempt"`
	// Started is when each call in flight started, by Key.
	Started map[string]time.Time `json:"started"`
}

// Key names a call in flight: its round and its debater's id.
func Key(round int, id string) string { return strconv.Itoa(round) + "/" + id }

// ParseKey reads a Key back.
func ParseKey(k string) (round int, id string, ok bool) {
	r, id, found := strings.Cut(k, "/")
	n, err := strconv.Atoi(r)
	if !found || err != nil || n < 0 || id == "" {
		return 0, "", false
	}
	return n, id, true
}

// Publisher keeps the sidecar of the debate a run writes.
type Publisher struct {
	mu      sync.Mutex
	dir     string
	st      State
	last    time.Time
	pending *time.Timer
	closed  bool
	now     func() time.Time
	// seq numbers the states taken for writing; wmu serializes the writes
	// and the removal, outside mu, and written is the last state written
	// (an older one that lost the race for wmu is dropped).
	seq     int
	wmu     sync.Mutex
	written int
}

// New starts a publisher; it learns the debate folder from the run's
// setup or resumed event.
func New() *Publisher {
	return &Publisher{st: State{PID: os.Getpid(), Streamed: map[string]int{}, Attempt: map[string]int{}, Started: map[string]time.Time{}}, now: time.Now}
}

// Wrap returns a sink that records each event, then hands it to next.
func (p *Publisher) Wrap(next func(engine.Event)) func(engine.Event) {
	return func(ev engine.Event) {
		p.observe(ev)
		if next != nil {
			next(ev)
		}
	}
}

func (p *Publisher) observe(ev engine.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	switch ev.Type {
	case engine.EvSetup, engine.EvResumed:
		if filepath.IsAbs(ev.Path) {
			p.dir = ev.Path
		}
		return
	case engine.EvCallStarted:
		p.st.Streamed[Key(ev.Round, ev.SolverID)] = 0
		p.st.Attempt[Key(ev.Round, ev.SolverID)] = ev.Attempt
		p.st.Started[Key(ev.Round, ev.SolverID)] = ev.Time.UTC()
	case engine.EvOutput:
		p.st.Streamed[Key(ev.Round, ev.SolverID)] += len(ev.Text)
	case engine.EvCallFinished:
		delete(p.st.Streamed, Key(ev.Round, ev.SolverID))
		delete(p.st.Attempt, Key(ev.Round, ev.SolverID))
		delete(p.st.Started, Key(ev.Round, ev.SolverID))
	default:
		return
	}
	p.schedule()
}

// schedule writes the sidecar at the end of the interval since the last
// write (at once when it is over), so the last change is never lost. The
// write runs on the timer's goroutine: the run's events, whose sink calls
// observe, never wait for it or for the disk.
func (p *Publisher) schedule() {
	if p.dir == "" || p.pending != nil {
		return
	}
	p.pending = time.AfterFunc(max(Every-p.now().Sub(p.last), 0), p.flush)
}

// flush takes the state and writes it; a failure only costs the watcher
// its figures.
func (p *Publisher) flush() {
	p.mu.Lock()
	p.pending = nil
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.last = p.now()
	p.st.UpdatedAt = p.last.UTC()
	data, err := json.Marshal(p.st)
	p.seq++
	seq, dir := p.seq, p.dir
	p.mu.Unlock()
	if err != nil {
		return
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if seq < p.written || p.isClosed() {
		return // a newer state is on disk, or the run ended and removed it
	}
	p.written = seq
	root, err := safefs.OpenRoot(dir, safefs.NoSymlinks)
	if err != nil {
		return
	}
	defer root.Close()
	// display only, removed when the run ends: replaced atomically for a
	// reader, never synced to disk (no fsync on the run's way)
	_ = root.ReplaceFile(Name, data, 0o600, 0o700)
}

// isClosed reports whether Close was called.
func (p *Publisher) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// Close stops publishing and removes the sidecar (the run released its
// lock). It is safe to call more than once.
func (p *Publisher) Close() {
	p.mu.Lock()
	p.closed = true
	if p.pending != nil {
		p.pending.Stop()
		p.pending = nil
	}
	dir := p.dir
	p.mu.Unlock()
	// a write in progress ends first; none starts after
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if dir != "" {
		_ = os.Remove(filepath.Join(dir, Name))
	}
}

// Read reads a debate folder's sidecar (opened safely: a symlink, FIFO or
// oversized file is refused). No sidecar is an empty state, not an error.
func Read(dir string) (State, error) {
	var st State
	raw, err := safefs.ReadFile(filepath.Join(dir, Name), maxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("read %s: %w", filepath.Join(dir, Name), err)
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return State{}, fmt.Errorf("read %s: %w", filepath.Join(dir, Name), err)
	}
	return st, nil
}
