package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/safefs"
	"github.com/reversa/moot/internal/seal"
	"golang.org/x/sys/unix"
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

// Folder is a review's stamped folder. Everything moot writes there is
// created beneath its anchor (the git root, or the bug's folder) by the
// kernel, never through a symbolic link: a linked .moot/reviews, review/
// or round folder is refused before anything is created.
type Folder struct {
	Dir string
	ID  string
	// anchor is the real folder the review's path is resolved beneath;
	// rel is the review folder's path from it.
	anchor, rel string
	mu          sync.Mutex
	// sealMu guards seals, every sealed file's HMAC (the stamp's files).
	sealMu  sync.Mutex
	seals   map[string]string
	pending map[string]string
	created string
}

// LinkError refuses a review folder reached through a symbolic link.
type LinkError struct {
	Path string
	Err  error
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s: a symbolic link (or a file) is on the way to the review folder: moot never creates or writes anything through a link, so nothing was written there; replace it with a real folder", e.Path)
}

func (e *LinkError) Unwrap() error { return e.Err }

// linkErr turns the safe layer's refusal of a link into a LinkError
// naming the review folder, and keeps any other error with its path.
func linkErr(path string, err error) error {
	if errors.Is(err, safefs.ErrEscape) {
		le := &LinkError{Path: path, Err: err}
		return &bugfolder.InputError{Path: path, Msg: le.Error(), Err: le}
	}
	return fmt.Errorf("write %s: %w", path, err)
}

// anchorOf splits a review folder's path into the real folder its layout
// starts from (the git root above .moot/reviews, the bug above review/)
// and the path beneath it; an unknown layout is anchored at dir itself.
func anchorOf(dir string) (anchor, rel string) {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	switch {
	case filepath.Base(parent) == "reviews" && filepath.Base(filepath.Dir(parent)) == ".moot":
		return filepath.Dir(filepath.Dir(parent)), filepath.Join(ReviewsDir, filepath.Base(dir))
	case filepath.Base(parent) == BugReviewDir:
		return filepath.Dir(parent), filepath.Join(BugReviewDir, filepath.Base(dir))
	}
	return dir, "."
}

// root opens the folder's anchor (never a link itself).
func (f *Folder) root() (*safefs.Root, error) {
	if f.anchor == "" {
		f.anchor, f.rel = anchorOf(f.Dir)
	}
	r, err := safefs.OpenRoot(f.anchor, safefs.NoSymlinks)
	if err != nil {
		return nil, linkErr(f.anchor, err)
	}
	return r, nil
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
	// Why is set when a stamp is there but not moot's.
	Why string
}

func (e *UnstampedError) Error() string {
	if e.Why != "" {
		return fmt.Sprintf("%s: %s: moot did not stamp it, so it will not write there (nothing was deleted); move the folder away or choose another review", e.Dir, e.Why)
	}
	return fmt.Sprintf("%s holds %s but no %s: moot did not stamp it, so it will not write there (nothing was deleted); move those files away or choose another review", e.Dir, strings.Join(e.Files, ", "), StampFile)
}

// checkStamp refuses dir when it holds review-shaped files without the
// stamp, or a stamp whose content is not the one moot writes for this
// folder (its owner and ID); a folder with only foreign files (or none)
// is no risk.
func checkStamp(dir string) (stamped bool, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", dir, err)
	}
	var shaped []string
	for _, e := range entries {
		if e.Name() == StampFile {
			if why := badStamp(dir); why != "" {
				ue := &UnstampedError{Dir: dir, Files: []string{StampFile}, Why: why}
				return false, &bugfolder.InputError{Path: dir, Msg: ue.Error(), Err: ue}
			}
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

// stampContent is what moot writes in a review's stamp file: who wrote
// it and for which review, the seal of every file moot wrote there (an
// HMAC keyed by the user's own secret, internal/seal) and the stamp's own.
type stampContent struct {
	Owner   string            `json:"owner"`
	ID      string            `json:"id"`
	Created string            `json:"created"`
	Files   map[string]string `json:"files,omitempty"`
	// Pending are the seals of files being written: a moot killed between
	// a file's write and its seal's leaves either content verifiable.
	Pending map[string]string `json:"pending,omitempty"`
	MAC     string            `json:"mac"`
}

// stampOwner is the stamp's owner field.
const stampOwner = "moot review"

// stampParts are what the stamp's own seal covers: the stamp and every
// file seal it lists.
func stampParts(c stampContent) []string {
	parts := []string{"moot review stamp", c.Owner, c.ID, c.Created}
	for _, rel := range slices.Sorted(maps.Keys(c.Files)) {
		parts = append(parts, rel, c.Files[rel])
	}
	for _, rel := range slices.Sorted(maps.Keys(c.Pending)) {
		parts = append(parts, "pending", rel, c.Pending[rel])
	}
	return parts
}

// fileParts are what one file's seal covers: the review, its path and
// its content's digest.
func fileParts(id, rel string, data []byte) []string {
	return []string{"moot review file", id, filepath.ToSlash(rel), seal.Digest(data)}
}

// readStamp reads dir's stamp and checks it is moot's for dir, sealed
// with the user's key ("" why when it is).
func readStamp(dir string) (stampContent, string) {
	var c stampContent
	b, err := safefs.ReadFile(filepath.Join(dir, StampFile), 1<<20)
	if err != nil {
		return c, "its stamp cannot be read (" + err.Error() + ")"
	}
	if err := json.Unmarshal(b, &c); err != nil || c.Owner != stampOwner || c.ID != filepath.Base(dir) {
		return c, fmt.Sprintf("its %s is not the one moot writes for review %s", StampFile, filepath.Base(dir))
	}
	key, err := seal.Key()
	if err != nil {
		return c, "its stamp cannot be checked: " + err.Error()
	}
	if !seal.Verify(key, c.MAC, stampParts(c)...) {
		return c, fmt.Sprintf("its %s was not sealed by moot for this user (its seal does not verify with %s): it was written elsewhere, copied from another machine or edited", StampFile, seal.KeyPath())
	}
	return c, ""
}

// badStamp says why dir's stamp file is not moot's for dir ("" when it is).
func badStamp(dir string) string {
	_, why := readStamp(dir)
	return why
}

// SealError refuses a file of a review folder whose seal does not verify:
// moot did not write it for this user (exit 2, nothing called or written).
type SealError struct {
	Path string
	Why  string
}

func (e *SealError) Error() string {
	return fmt.Sprintf("%s: %s; moot acts only on what it wrote and sealed (%s), so it refuses it and nothing was called or written", e.Path, e.Why, StampFile)
}

// readSealed reads a file moot wrote in the review folder dir, checking
// it against the seal the stamp records; a missing, forged or edited file
// is an input error naming it.
func readSealed(dir, rel string, limit int64) ([]byte, error) {
	p := filepath.Join(dir, rel)
	refuse := func(why string) error {
		se := &SealError{Path: p, Why: why}
		return &bugfolder.InputError{Path: p, Msg: se.Error(), Err: se}
	}
	c, why := readStamp(dir)
	if why != "" {
		return nil, refuse("the review's stamp does not verify: " + why)
	}
	b, err := safefs.ReadFile(p, limit)
	if err != nil {
		return nil, &bugfolder.InputError{Path: p, Msg: "cannot be read: " + err.Error(), Err: err}
	}
	key, err := seal.Key()
	if err != nil {
		return nil, refuse(err.Error())
	}
	verifies := func(m map[string]string) bool {
		mac, ok := m[filepath.ToSlash(rel)]
		return ok && seal.Verify(key, mac, fileParts(c.ID, rel, b)...)
	}
	if !verifies(c.Files) && !verifies(c.Pending) {
		return nil, refuse("its content is not what moot sealed for review " + c.ID)
	}
	return b, nil
}

// ReadSealedSeat reads a lens's verdict file of round k, verified.
func ReadSealedSeat(dir string, k int, lens string) (*Seat, error) {
	rel := filepath.Join(RoundDir(k), VerdictsDir, lens+".json")
	b, err := readSealed(dir, rel, 8<<20)
	if err != nil {
		return nil, err
	}
	var s Seat
	if err := json.Unmarshal(b, &s); err != nil {
		p := filepath.Join(dir, rel)
		return nil, &bugfolder.InputError{Path: p, Msg: "is not a verdict file: " + err.Error(), Err: err}
	}
	return &s, nil
}

// ReadSealedEnvelope reads round k's envelope as the jurors read it, verified.
func ReadSealedEnvelope(dir string, k int) (string, error) {
	b, err := readSealed(dir, filepath.Join(RoundDir(k), EnvelopeFile), 64<<20)
	return string(b), err
}

// NewFolder creates a review's folder under parent, named by its stamp
// (UTC, to the second; -2, -3… when taken), and writes the stamp first.
// parent and the folder are created beneath the layout's anchor (the git
// root or the bug's folder), never through a symbolic link.
func NewFolder(parent string, now time.Time) (*Folder, error) {
	anchor, relParent := anchorOf(filepath.Join(parent, "x"))
	if relParent == "." { // an unknown layout: anchored at parent
		anchor = parent
	}
	relParent = filepath.Dir(relParent)
	root, err := safefs.OpenRoot(anchor, safefs.NoSymlinks)
	if err != nil {
		return nil, linkErr(anchor, err)
	}
	defer root.Close()
	if err := root.MkdirAll(relParent, bugfolder.DirPerm); err != nil {
		return nil, linkErr(parent, err)
	}
	pd, err := root.Open(relParent, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, linkErr(parent, err)
	}
	defer pd.Close()
	base := now.UTC().Format("20060102-150405")
	for i := 1; ; i++ {
		id := base
		if i > 1 {
			id = fmt.Sprintf("%s-%d", base, i)
		}
		dir := filepath.Join(parent, id)
		err := unix.Mkdirat(int(pd.Fd()), id, uint32(bugfolder.DirPerm))
		if errors.Is(err, unix.EEXIST) {
			if _, cerr := checkStamp(dir); cerr != nil {
				return nil, cerr
			}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", dir, err)
		}
		f := &Folder{Dir: dir, ID: id, anchor: anchor, rel: filepath.Join(relParent, id)}
		return f, f.stamp(now)
	}
}

// OpenFolder opens an existing review's folder: it must carry moot's
// stamp (a folder of a review's shape without it, or with a stamp moot
// did not write, is refused, naming the files; one with only foreign
// files is stamped and used).
func OpenFolder(dir string) (*Folder, error) {
	stamped, err := checkStamp(dir)
	if err != nil {
		return nil, err
	}
	f := &Folder{Dir: dir, ID: filepath.Base(dir)}
	f.anchor, f.rel = anchorOf(dir)
	if !stamped {
		if err := f.stamp(time.Now()); err != nil {
			return nil, err
		}
		return f, nil
	}
	c, _ := readStamp(dir) // verified by checkStamp
	f.seals, f.created = c.Files, c.Created
	return f, nil
}

// stamp writes the folder's first stamp.
func (f *Folder) stamp(now time.Time) error {
	f.created = now.UTC().Format(time.RFC3339)
	return f.writeStamp()
}

// writeStamp writes the stamp with every seal so far; the caller holds
// sealMu (or is the only writer yet).
func (f *Folder) writeStamp() error {
	key, err := seal.Key()
	if err != nil {
		return fmt.Errorf("seal %s: %w", f.Dir, err)
	}
	c := stampContent{Owner: stampOwner, ID: f.ID, Created: f.created, Files: f.seals, Pending: f.pending}
	c.MAC = seal.Sum(key, stampParts(c)...)
	b, _ := json.MarshalIndent(c, "", "  ")
	return f.write(StampFile, append(b, '\n'))
}

// Write writes a file of the review atomically, owner-only, beneath the
// folder's anchor (never through a link), and seals it in the stamp so
// that moot can trust it when it reads it back.
func (f *Folder) Write(rel string, data []byte) error {
	key, err := seal.Key()
	if err != nil {
		return fmt.Errorf("seal %s: %w", filepath.Join(f.Dir, rel), err)
	}
	f.sealMu.Lock()
	defer f.sealMu.Unlock()
	name, mac := filepath.ToSlash(rel), seal.Sum(key, fileParts(f.ID, rel, data)...)
	// the new seal is recorded before the file, the old one dropped after:
	// a kill in between leaves the file verifiable, old or new
	f.pending = map[string]string{name: mac}
	if err := f.writeStamp(); err != nil {
		f.pending = nil
		return err
	}
	f.pending = nil
	if err := f.write(rel, data); err != nil {
		return err
	}
	if f.seals == nil {
		f.seals = map[string]string{}
	}
	f.seals[name] = mac
	return f.writeStamp()
}

// write writes a file of the review without sealing it.
func (f *Folder) write(rel string, data []byte) error {
	root, err := f.root()
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.WriteFile(filepath.Join(f.rel, rel), data, bugfolder.FilePerm, bugfolder.DirPerm, true); err != nil {
		return linkErr(filepath.Join(f.Dir, rel), err)
	}
	return nil
}

// FreshRound refuses round k when its folder already exists: moot writes
// only into a round it creates.
func (f *Folder) FreshRound(k int) error {
	p := filepath.Join(f.Dir, RoundDir(k))
	if _, err := os.Lstat(p); err == nil {
		return &bugfolder.InputError{Path: p, Msg: fmt.Sprintf("already exists, but the review's record has %d round(s): moot writes only into a round it creates; move it away (nothing was called or written)", k-1)}
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
	root, err := f.root()
	if err != nil {
		return err
	}
	defer root.Close()
	fh, err := root.Open(filepath.Join(f.rel, EventsFile), unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT|unix.O_NONBLOCK, bugfolder.FilePerm)
	if err != nil {
		return linkErr(p, err)
	}
	defer fh.Close()
	if _, err := safefs.CheckRegular(fh); err != nil {
		return fmt.Errorf("append %s: %w (a link or device is never written through)", p, err)
	}
	if _, err := fh.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("append %s: %w", p, err)
	}
	return fh.Sync()
}

// WriteSeat writes a lens's verdict file of its round.
func (f *Folder) WriteSeat(s Seat) error {
	return f.WriteJSON(filepath.Join(RoundDir(s.Round), VerdictsDir, s.Lens+".json"), s)
}
