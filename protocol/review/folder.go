package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// Files of a review's folder.
const (
	// StampFile is written first: moot owns a folder that holds it.
	StampFile = ".moot-review-stamp"
	// StateFile is the review's record (source, contract, builder, rounds).
	StateFile = "review.json"
	// EventsFile is the append-only event log (the engine's typed events).
	EventsFile = "eventos.jsonl"
	// RoutesFile is a round's route table.
	RoutesFile = "routes.md"
	// EnvelopeFile is a round's envelope as the jurors read it.
	EnvelopeFile = "envelope.md"
	// VerdictsDir holds a round's verdict files, LENS.json.
	VerdictsDir = "verdicts"
	// DecisionFile is the human decision on a stalled review.
	DecisionFile = bugfolder.DecisionFile
)

// ReviewsDir is where a review outside a register lives, under the git root.
var ReviewsDir = filepath.Join(".moot", "reviews")

// BugReviewDir is a bug's review folder's parent, under the bug folder.
const BugReviewDir = "review"

// SummaryFile is the summary's name: resumo.md in a Portuguese project.
func SummaryFile(l bugfolder.Lang) string {
	if l == bugfolder.PT {
		return "resumo.md"
	}
	return "summary.md"
}

// RoundDir is round k's folder inside a review.
func RoundDir(k int) string { return fmt.Sprintf("round-%d", k) }

// Folder is a review's stamped folder.
type Folder struct {
	Dir string
	ID  string
	mu  sync.Mutex
}

// reviewShaped reports whether a folder entry is of the shape a review
// writes (a folder holding one without the stamp is refused).
func reviewShaped(name string) bool {
	switch name {
	case StateFile, EventsFile, RoutesFile, EnvelopeFile, "summary.md", "resumo.md", DecisionFile:
		return true
	}
	return strings.HasPrefix(name, "round-")
}

// UnstampedError refuses a folder of a review's shape that moot did not stamp.
type UnstampedError struct {
	Dir   string
	Files []string
}

func (e *UnstampedError) Error() string {
	return fmt.Sprintf("%s holds %s but no %s: moot did not stamp it, so it will not write there (nothing was deleted); move those files away or choose another review", e.Dir, strings.Join(e.Files, ", "), StampFile)
}

// checkStamp refuses dir when it holds review-shaped files without the
// stamp; a folder with only foreign files (or none) is no risk.
func checkStamp(dir string) (stamped bool, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", dir, err)
	}
	var shaped []string
	for _, e := range entries {
		if e.Name() == StampFile {
			return true, nil
		}
		if reviewShaped(e.Name()) {
			shaped = append(shaped, e.Name())
		}
	}
	if len(shaped) > 0 {
		slices.Sort(shaped)
		return false, &bugfolder.InputError{Path: dir, Msg: (&UnstampedError{Dir: dir, Files: shaped}).Error(), Err: &UnstampedError{Dir: dir, Files: shaped}}
	}
	return false, nil
}

// NewFolder creates a review's folder under parent, named by its stamp
// (UTC, to the second; -2, -3… when taken), and writes the stamp first.
func NewFolder(parent string, now time.Time) (*Folder, error) {
	if err := bugfolder.MkdirPrivate(parent); err != nil {
		return nil, err
	}
	base := now.UTC().Format("20060102-150405")
	for i := 1; ; i++ {
		id := base
		if i > 1 {
			id = fmt.Sprintf("%s-%d", base, i)
		}
		dir := filepath.Join(parent, id)
		err := os.Mkdir(dir, bugfolder.DirPerm)
		if errors.Is(err, os.ErrExist) {
			if _, cerr := checkStamp(dir); cerr != nil {
				return nil, cerr
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", dir, err)
		}
		f := &Folder{Dir: dir, ID: id}
		return f, f.stamp(now)
	}
}

// OpenFolder opens an existing review's folder: it must carry moot's
// stamp (a folder of a review's shape without it is refused, naming the
// files; one with only foreign files is stamped and used).
func OpenFolder(dir string) (*Folder, error) {
	stamped, err := checkStamp(dir)
	if err != nil {
		return nil, err
	}
	f := &Folder{Dir: dir, ID: filepath.Base(dir)}
	if !stamped {
		if err := f.stamp(time.Now()); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func (f *Folder) stamp(now time.Time) error {
	b, _ := json.Marshal(map[string]string{"owner": "moot review", "id": f.ID, "created": now.UTC().Format(time.RFC3339)})
	return f.Write(StampFile, append(b, '\n'))
}

// Write writes a file of the review atomically, owner-only.
func (f *Folder) Write(rel string, data []byte) error {
	if err := bugfolder.WriteFileAtomic(filepath.Join(f.Dir, rel), data); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(f.Dir, rel), err)
	}
	return nil
}

// WriteJSON writes v as indented JSON.
func (f *Folder) WriteJSON(rel string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", rel, err)
	}
	return f.Write(rel, append(b, '\n'))
}

// Append adds one event to the event log (owner-only, append-only).
func (f *Folder) Append(ev engine.Event) error {
	line, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("encode event: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	p := filepath.Join(f.Dir, EventsFile)
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("append %s: not a regular file (a link or device is never written through)", p)
	}
	fh, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, bugfolder.FilePerm)
	if err != nil {
		return fmt.Errorf("open %s: %w", p, err)
	}
	defer fh.Close()
	if _, err := fh.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("append %s: %w", p, err)
	}
	return fh.Sync()
}

// WriteSeat writes a lens's verdict file of its round.
func (f *Folder) WriteSeat(s Seat) error {
	return f.WriteJSON(filepath.Join(RoundDir(s.Round), VerdictsDir, s.Lens+".json"), s)
}
