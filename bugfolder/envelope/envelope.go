// Package envelope assembles what a review's jurors read (docs/protocols/review.md): each file a change touched, whole and current, its test
// files, the contract and, on a bug, the context parts — nothing else: no
// diff hunks, no commit messages, no authorship. It knows git and files,
// never an engine; Scan finds the identities that must not reach a juror.
package envelope

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/safefs"
)

// Caps on what one envelope may carry; a bigger change is refused, never
// cut: a juror shown part of a file invents the rest.
const (
	MaxFiles = 400     // files in an envelope, test files included
	MaxBytes = 4 << 20 // bytes of file bodies in an envelope
)

// Contract is the change's intent in one line and its pass criteria.
type Contract struct{ Intent, Criteria string }

// ParseContract reads --contract "intent | pass criteria" (an InputError
// when either side is empty: words.go).
func ParseContract(s string) (Contract, error) {
	intent, criteria, ok := strings.Cut(s, "|")
	c := Contract{Intent: oneLine(intent), Criteria: strings.TrimSpace(criteria)}
	switch {
	case !ok:
		return Contract{}, contractRefusal(s, `give "intent | pass criteria" (the intent in one line, a "|", then what must hold for a pass)`)
	case c.Intent == "":
		return Contract{}, contractRefusal(s, `the intent (before "|") is empty: say in one line what the change is for`)
	case c.Criteria == "":
		return Contract{}, contractRefusal(s, `the pass criteria (after "|") are empty: say what must hold for a pass`)
	}
	return c, nil
}

// oneLine folds s's whitespace (newlines included) into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// File is one file the jurors read whole.
type File struct {
	Path    string // repo-relative, slash-separated
	Body    string
	Test    bool   // a test file of a touched file (found by naming convention), not itself touched
	Deleted bool   // deleted by the change: listed, no body
	Omitted string // why Body is empty for a file that exists ("binary", "symbolic link"), else ""
}

// Part is context that joins the contract on a bug (its title, its Summary section,
// the debate's final answer).
type Part struct{ Title, Body string }

// TestCheck is one check moot ran itself (--test-cmd / --red): Name is one
// of "new-tests-pass", "suite-not-worse", "tests-untouched-since-red",
// "false-green".
type TestCheck struct {
	Name   string
	OK     bool
	Detail string // what failed, short (a failing test name, "false green: …", the changed test file)
	File   string // the file it concerns, when one
}

// Envelope is everything a juror sees, nothing else.
type Envelope struct {
	Contract Contract
	Files    []File
	Context  []Part
	Tests    []TestCheck
	// Omitted says what was left out of the envelope and why (a spec
	// locator landing in a bug's record, a bug register's file the change
	// touched), one line each: the jurors read that it was left out.
	Omitted []string
	// Records are the files of a bug register the change touched, left
	// out (repo-relative): never shown, but a restricted bug's record
	// still makes the review restricted.
	Records []string
}

// Source says where the change is.
type Source struct {
	Repo     string   // the git root (for --files outside git: the project root)
	Change   string   // "A..B" (git range), or "" with Files
	Files    []string // --files (relative to Repo or absolute), or nil with Change
	Contract Contract
	Context  []Part
	// Omitted are what the caller left out of the context, one line each
	// (they join the envelope's Omitted).
	Omitted []string
	// Records are repo-relative folders whose files are records, not code
	// (a bug register named otherwise than _reversa_bugs): a change's file
	// in one is left out, as is one under any _reversa_bugs folder or
	// .moot/ (IsRecord).
	Records []string
	// Also are files that must be in the envelope besides those the range
	// touches (a resumed review's earlier files): listed deleted when gone.
	Also []string
	// Committed reads the range's end from its tree even when it is the
	// commit checked out (a resumed review whose first range ended at a
	// fixed commit, not at the working tree).
	Committed bool
}

// reader reads the files of one state of the project: a commit's tree,
// or the files on disk.
type reader interface {
	// read returns a file's body; exists false when it is not there;
	// omitted names why a file that is there has no body.
	read(rel string) (body string, exists bool, omitted string, err error)
	// has says whether a regular file is there (for test discovery).
	has(rel string) bool
	// close releases what the reader holds open.
	close()
}

// Build assembles the envelope from the CURRENT files: for a range, the
// files touched in A..B read as they are at B — or, when B is the commit
// checked out (HEAD), as they are on disk, uncommitted edits included;
// for --files, as they are on disk. Each touched file's test files (by
// naming convention) join it.
func Build(src Source) (*Envelope, error) {
	touched, deleted, r, err := locate(src)
	if err != nil {
		return nil, err
	}
	defer r.close()
	touched, records := withoutRecords(touched, src.Records)
	if len(touched) == 0 {
		return nil, fmt.Errorf("%s: every file the change touches is a record of a bug register (%s), not code: review the code's files", describe(src), strings.Join(records, ", "))
	}
	tests := testFilesOf(touched, deleted, r)
	if n := len(touched) + len(tests); n > MaxFiles {
		return nil, fmt.Errorf("%s: the envelope would hold %d files (%d touched, %d test files), more than the cap of %d (MaxFiles): review a narrower range or name fewer files with --files",
			describe(src), n, len(touched), len(tests), MaxFiles)
	}
	e := &Envelope{Contract: src.Contract, Context: slices.Clone(src.Context), Omitted: slices.Clone(src.Omitted)}
	e.Records = records
	for _, rel := range records {
		e.Omitted = append(e.Omitted, rel+" (touched by the change): a record of the bug register, not code — never shown")
	}
	total := 0
	for i, rel := range append(slices.Clip(touched), tests...) {
		f, err := readFile(r, rel, deleted[rel])
		if err != nil {
			return nil, err
		}
		if total += len(f.Body); total > MaxBytes {
			return nil, fmt.Errorf("%s: the envelope's files exceed the cap of %d bytes (MaxBytes) at %s: review a narrower range or name fewer files with --files",
				describe(src), MaxBytes, rel)
		}
		f.Test = i >= len(touched)
		e.Files = append(e.Files, f)
	}
	slices.SortFunc(e.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return e, nil
}

// locate finds the change: the files it touched (sorted), those deleted
// at its end, and the reader of their current state.
func locate(src Source) ([]string, map[string]bool, reader, error) {
	switch {
	case src.Repo == "":
		return nil, nil, nil, errors.New("envelope: no project root given")
	case src.Change != "" && len(src.Files) > 0:
		return nil, nil, nil, fmt.Errorf("--change %q and --files: give one of them, not both", src.Change)
	case src.Change != "":
		touched, deleted, r, err := fromRange(src.Repo, src.Change, src.Committed)
		if err != nil {
			return nil, nil, nil, err
		}
		if touched = withAlso(touched, src.Also); len(touched) == 0 {
			return nil, nil, nil, fmt.Errorf("--change %q: the range touches no file: check its ends (git diff --stat %s)", src.Change, src.Change)
		}
		return touched, deleted, r, nil
	case len(src.Files) > 0:
		d, err := newDiskReader(src.Repo)
		if err != nil {
			return nil, nil, nil, err
		}
		touched, err := fromFiles(src.Repo, d, src.Files)
		if err != nil {
			d.close()
			return nil, nil, nil, err
		}
		return touched, nil, d, nil
	}
	return nil, nil, nil, errors.New("envelope: no change to review: give --change A..B or --files followed by the files to review")
}

// withoutRecords splits the touched files into code and records of a bug
// register (IsRecord, or under one of the folders records).
func withoutRecords(touched, records []string) (code, left []string) {
	for _, rel := range touched {
		if IsRecord(rel, records) {
			left = append(left, rel)
		} else {
			code = append(code, rel)
		}
	}
	return code, left
}

// IsRecord reports whether the repo-relative slash path rel is a record
// of a bug register — bug.md, its debate, review and fix folders — rather
// than code: a file under a folder named _reversa_bugs or under moot's
// .moot/ (bugfolder.IsRecordPath), or under one of the folders records.
func IsRecord(rel string, records []string) bool {
	if bugfolder.IsRecordPath(rel) {
		return true
	}
	for _, d := range records {
		if d = strings.Trim(path.Clean(filepath.ToSlash(d)), "/"); d != "" && d != "." && (rel == d || strings.HasPrefix(rel, d+"/")) {
			return true
		}
	}
	return false
}

// withAlso adds the files of also (cleaned, slash paths) to touched,
// sorted and unique: a resumed review keeps every file it reviewed.
func withAlso(touched, also []string) []string {
	for _, a := range also {
		if a = path.Clean(filepath.ToSlash(a)); a != "." && !strings.HasPrefix(a, "../") && !path.IsAbs(a) {
			touched = append(touched, a)
		}
	}
	slices.Sort(touched)
	return slices.Compact(touched)
}

// readFile reads one file of the envelope through r: a deleted one has
// no body, nor has one r cannot show (binary, a link).
func readFile(r reader, rel string, deleted bool) (File, error) {
	if deleted {
		return File{Path: rel, Deleted: true}, nil
	}
	body, exists, omitted, err := r.read(rel)
	if err != nil {
		return File{}, err
	}
	return File{Path: rel, Body: body, Deleted: !exists, Omitted: omitted}, nil
}

// describe names the source in an error.
func describe(src Source) string {
	if src.Change != "" {
		return fmt.Sprintf("--change %q", src.Change)
	}
	return "--files"
}

// CheckFiles refuses --files that name no file of the project under
// review (root): outside it, missing, a folder — the rule Build applies,
// for a check made before anything is planned (moot review, and the TUI's
// wizard as the change is typed), worded in w (words.go).
func CheckFiles(root string, files []string, w Words) error {
	d, err := newDiskReader(root)
	if err != nil {
		return err
	}
	defer d.close()
	_, err = fromFiles(root, d, files)
	return w.Say(err)
}

// fromFiles resolves --files against root (read through d): repo-relative
// slash paths, sorted and unique; each must be a file inside root.
func fromFiles(root string, d diskReader, files []string) ([]string, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("project root %s: %w", root, err)
	}
	var out []string
	for _, f := range files {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(absRoot, p)
		}
		rel, err := filepath.Rel(absRoot, filepath.Clean(p))
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, &InputError{of: inputFiles, Given: f, Why: fmt.Sprintf("not inside the project root %s: name files of the project under review", absRoot)}
		}
		exists, omitted, err := d.check(filepath.ToSlash(rel))
		switch {
		case err != nil:
			return nil, &InputError{of: inputFiles, Why: err.Error()} // it names the path
		case !exists:
			return nil, &InputError{of: inputFiles, Given: f, Why: fmt.Sprintf("no such file in %s: check the path (relative to the project root, or absolute)", absRoot)}
		case omitted == "folder":
			return nil, &InputError{of: inputFiles, Given: f, Why: "a folder: name the files in it, one by one"}
		}
		out = append(out, filepath.ToSlash(rel))
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// testFilesOf lists the test files of the touched files (by naming
// convention) that r holds and that are not themselves touched, sorted.
func testFilesOf(touched []string, deleted map[string]bool, r reader) []string {
	isTouched := map[string]bool{}
	for _, t := range touched {
		isTouched[t] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range touched {
		if deleted[t] {
			continue
		}
		for _, c := range TestCandidates(t) {
			if !isTouched[c] && !seen[c] && r.has(c) {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

// diskReader reads the files on disk under a project root, each in one
// kernel-checked open that follows no symbolic link and never leaves the
// root (safefs.NoSymlinks): a link swapped in after a check cannot be
// read through, for nothing is checked apart from the open.
type diskReader struct{ root *safefs.Root }

// newDiskReader opens the project root dir (itself reached through any
// link: it is the project the user named).
func newDiskReader(dir string) (diskReader, error) {
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return diskReader{}, fmt.Errorf("project root %s: %w", dir, err)
	}
	root, err := safefs.OpenRoot(resolved, safefs.NoSymlinks)
	if err != nil {
		return diskReader{}, fmt.Errorf("project root %s: %w", dir, err)
	}
	return diskReader{root: root}, nil
}

func (d diskReader) close() { d.root.Close() }

func (d diskReader) read(rel string) (string, bool, string, error) {
	b, err := d.root.ReadFile(filepath.FromSlash(rel), MaxBytes)
	if err != nil {
		exists, omitted, err := d.refused(rel, err)
		return "", exists, omitted, err
	}
	return bodyOf(b)
}

func (d diskReader) has(rel string) bool {
	exists, omitted, err := d.check(rel)
	return exists && omitted == "" && err == nil // a test file reached through a linked folder is not the project's
}

// check opens rel as read does, without reading it.
func (d diskReader) check(rel string) (exists bool, omitted string, err error) {
	f, err := d.root.OpenRegular(filepath.FromSlash(rel))
	if err != nil {
		return d.refused(rel, err)
	}
	f.Close()
	return true, "", nil
}

// refused says what the refused open of rel (err) means: not there; there
// but never read (omitted: a symbolic link, a folder, a hard link); or a
// refusal, for a path through a linked folder, which may point at /etc or
// a key. The file is looked at again only to name what it is.
func (d diskReader) refused(rel string, err error) (exists bool, omitted string, _ error) {
	if errors.Is(err, fs.ErrNotExist) {
		return false, "", nil
	}
	info, lerr := os.Lstat(filepath.Join(d.root.Name(), filepath.FromSlash(rel)))
	switch {
	case errors.Is(err, safefs.ErrEscape) && lerr == nil && info.Mode()&os.ModeSymlink != 0:
		return true, "symbolic link", nil // a link may point out of the project: never followed
	case errors.Is(err, safefs.ErrEscape):
		return false, "", fmt.Errorf("%s: a folder on its path is a symbolic link: moot never reads through a link (it may point out of the project); review the files where they really are", rel)
	case errors.Is(err, safefs.ErrNotRegular) && lerr == nil:
		return true, kindOf(info.Mode()), nil
	case errors.Is(err, safefs.ErrNotRegular):
		return true, "not a regular file", nil
	case errors.Is(err, safefs.ErrLinked):
		return true, "hard link", nil // its other name may be outside the project
	case errors.Is(err, safefs.ErrTooLarge) && lerr == nil:
		return false, "", tooBig(rel, info.Size())
	}
	return false, "", fmt.Errorf("read %s: %w", rel, err)
}

// tooBig is the error of a file bigger than the whole envelope's cap,
// refused before it is read.
func tooBig(rel string, size int64) error {
	return fmt.Errorf("%s is %d bytes, more than the envelope's cap of %d bytes (MaxBytes): a juror must read each file whole; review the change without it (--files)", rel, size, MaxBytes)
}

// kindOf names a file that is not a regular one.
func kindOf(m os.FileMode) string {
	switch {
	case m&os.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "folder"
	}
	return "not a regular file"
}

// bodyOf returns b as a body, or marks it binary (a NUL byte in its first
// 8000 bytes, as git decides, or bytes that are not UTF-8).
func bodyOf(b []byte) (string, bool, string, error) {
	if isBinary(b) {
		return "", true, "binary", nil
	}
	return string(b), true, "", nil
}

// isBinary says whether b is not text a juror can read.
func isBinary(b []byte) bool {
	head := b[:min(len(b), 8000)]
	return slices.Contains(head, 0) || !utf8.Valid(b)
}

// ext returns a slash path's extension, lower-cased.
func ext(rel string) string { return strings.ToLower(path.Ext(rel)) }

// TestFiles lists the envelope's test files that exist (found by
// convention, or touched and named like a test), repo-relative: what
// testgate.Options.TestFiles wants.
func (e *Envelope) TestFiles() []string {
	var out []string
	for _, f := range e.Files {
		if (f.Test || IsTestFile(f.Path)) && !f.Deleted && f.Omitted == "" {
			out = append(out, f.Path)
		}
	}
	return out
}
