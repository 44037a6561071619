package bugfolder

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/reversa/moot/internal/safefs"
)

// PartKind says what a part of P is.
type PartKind int

// The kinds of P's parts, in the order P lists them.
const (
	PartBug PartKind = iota
	PartCapsule
	PartEvidence
	PartSpec
	PartAddendum
	PartNote
)

var partLabels = map[PartKind][2]string{
	PartBug:      {"registro do bug", "bug record"},
	PartCapsule:  {"cápsula de reprodução", "reproduction capsule"},
	PartEvidence: {"evidência", "evidence"},
	PartSpec:     {"spec efetiva", "effective spec"},
	PartAddendum: {"adendo vigente", "active addendum"},
	PartNote:     {"nota", "note"},
}

// Part is one file (or statement) in P.
type Part struct {
	Kind PartKind
	// Path is the project-relative path, with forward slashes.
	Path string
	// Anchor is the spec anchor a spec part was located by.
	Anchor string
	// Text is the inlined text ("" for binary files).
	Text string
	// Binary is set for files listed by name, size and hash.
	Binary bool
	// Why says why a binary part is not inlined (a NUL byte, not UTF-8).
	Why string
	// Size is the file's size in bytes.
	Size int64
	// SHA256 is the hex digest of the whole file.
	SHA256 string
}

// Problem is P, the assembled problem every debater receives.
type Problem struct {
	Parts []Part
	// Text is P as written into problema.md and prompts.
	Text string
	// SHA256 is the hex digest of Text.
	SHA256 string
	// Warnings name files listed by hash rather than inlined although
	// they look like text (another encoding than UTF-8).
	Warnings []string
}

// Bytes is P's size in bytes.
func (p *Problem) Bytes() int { return len(p.Text) }

// Tokens is P's estimated size in tokens.
func (p *Problem) Tokens() int { return EstimateTokens(len(p.Text)) }

// EstimateTokens estimates a token count from a byte count (about four
// bytes a token for prose and code). It is an estimate and is reported as one.
func EstimateTokens(n int) int { return (n + 3) / 4 }

// maxInline is the largest text file moot reads into P.
const maxInline = 32 << 20

var (
	evidenceDirs = []string{"evidence", "evidencias", "evidências"}
	capsuleDirs  = []string{"reproducao", "reprodução", "reproduction"}
	capsuleFiles = []string{"reproduction.md", "reproducao.md", "reprodução.md"}
	addendumRE   = regexp.MustCompile(`^bug-(.+)-v(\d+)\.md$`)
)

// AssembleP builds P for a bug, deterministically: bug.md, the reproduction
// capsule, the other evidence files in path order, the spec sections that
// traceability.specs locates, and the bug's active addendum. Text is
// inlined under its path; binary files are listed by name, size and sha256;
// a missing spec is stated, never invented. A symlink that leaves the
// project, a locator outside it, and an unreadable file are input errors.
func AssembleP(b *Bug) (*Problem, error) {
	reg := b.Register
	l := reg.Lang
	var parts []Part
	// bug.md
	bp, err := readPart(reg, b.Path(), PartBug)
	if err != nil {
		return nil, err
	}
	parts = append(parts, bp)

	// evidence: the capsule first, then the rest in path order
	var capsule, other []string
	for _, d := range capsuleDirs {
		files, err := listFiles(reg, filepath.Join(b.Dir, d))
		if err != nil {
			return nil, err
		}
		capsule = append(capsule, files...)
	}
	for _, d := range evidenceDirs {
		files, err := listFiles(reg, filepath.Join(b.Dir, d))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if filepath.Dir(f) == filepath.Join(b.Dir, d) && contains(capsuleFiles, filepath.Base(f)) {
				capsule = append(capsule, f)
			} else {
				other = append(other, f)
			}
		}
	}
	sort.Strings(capsule)
	sort.Strings(other)
	for _, f := range capsule {
		p, err := readPart(reg, f, PartCapsule)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	for _, f := range other {
		p, err := readPart(reg, f, PartEvidence)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}

	// the effective spec
	specParts, err := locateSpecs(b)
	if err != nil {
		return nil, err
	}
	parts = append(parts, specParts...)

	text := renderP(b, l, parts)
	sum := sha256.Sum256([]byte(text))
	var warnings []string
	for _, p := range parts {
		if p.Binary && strings.Contains(p.Why, "UTF-8") {
			warnings = append(warnings, fmt.Sprintf("%s %s: it is listed by size and sha256, not inlined; convert it to UTF-8 (iconv -f latin1 -t utf-8) to have it read", p.Path, p.Why))
		}
	}
	return &Problem{Parts: parts, Text: text, SHA256: hex.EncodeToString(sum[:]), Warnings: warnings}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// listFiles lists the regular files under dir (recursively, dot files
// skipped), following symlinks that stay inside the project.
func listFiles(reg *Register, dir string) ([]string, error) {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &InputError{Path: dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if err := checkLink(reg, dir); err != nil {
			return nil, err
		}
	}
	var out []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return &InputError{Path: p, Msg: fmt.Sprintf("cannot be read (%v); check its permissions", err), Err: err}
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if err := checkLink(reg, p); err != nil {
				return err
			}
			if isFile(p) {
				out = append(out, p)
			}
			return nil
		}
		if d.Type().IsRegular() {
			out = append(out, p)
		} else if !d.IsDir() {
			// a FIFO, device or socket is refused, never skipped silently
			return outsideError(p, fmt.Errorf("%s: %w (%v)", p, safefs.ErrNotRegular, d.Type()))
		}
		return nil
	})
	return out, err
}

// checkLink refuses a symlink whose target leaves the project.
func checkLink(reg *Register, p string) error {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return &InputError{Path: p, Msg: fmt.Sprintf("is a broken symlink (%v); replace it with the file itself", err), Err: err}
	}
	if !Within(reg.Project, target) {
		return &InputError{Path: p, Msg: fmt.Sprintf("is a symlink that leaves the project (to %s); moot never reads outside the project: copy the file into the bug folder instead", target)}
	}
	return nil
}

// openInProject opens path for reading beneath the project, in the
// kernel: a symlink may not lead outside it (whatever raced the check in
// listFiles), and only a regular file with one link is read.
func openInProject(reg *Register, path string) (*os.File, error) {
	rel, err := filepath.Rel(reg.Project, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, safefs.ErrEscape)
	}
	root, err := safefs.OpenRoot(reg.Project, safefs.Beneath)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.OpenRegular(rel)
}

// readPart reads one file into a part: inlined when it is text, listed by
// size and hash when it is binary (with the reason, and a warning for
// evidence that looks like text in another encoding). bug.md itself must
// be UTF-8 text: nothing of it is ever dropped silently.
func readPart(reg *Register, path string, kind PartKind) (Part, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if err := checkLink(reg, path); err != nil {
			return Part{}, err
		}
	}
	p := Part{Kind: kind, Path: reg.Rel(path)}
	f, err := openInProject(reg, path)
	if errors.Is(err, safefs.ErrEscape) {
		return p, &InputError{Path: path, Msg: "leads outside the project (a symlink?); moot never reads outside the project: copy the file into the bug folder instead", Err: err}
	}
	if errors.Is(err, safefs.ErrNotRegular) || errors.Is(err, safefs.ErrLinked) {
		return p, outsideError(path, err)
	}
	if err != nil {
		return p, &InputError{Path: path, Msg: fmt.Sprintf("cannot be read (%v); check its permissions", errors.Unwrap(err)), Err: err}
	}
	defer f.Close()
	key := hashKey(f)
	if v, ok := binaryParts.Load(key); ok && key != "" && kind != PartBug {
		c := v.(Part)
		p.Size, p.SHA256, p.Binary, p.Why = c.Size, c.SHA256, true, c.Why
		return p, nil
	}
	h := sha256.New()
	var buf bytes.Buffer
	n, err := io.Copy(io.MultiWriter(h, &limitedBuffer{buf: &buf, max: maxInline}), f)
	if err != nil {
		return p, &InputError{Path: path, Msg: fmt.Sprintf("cannot be read (%v)", err), Err: err}
	}
	p.Size = n
	p.SHA256 = hex.EncodeToString(h.Sum(nil))
	data := buf.Bytes()
	if why := notText(data, n); why != "" {
		if kind == PartBug {
			return p, &InputError{Path: path, Msg: why + "; bug.md must be UTF-8 text (convert it, e.g. iconv -f latin1 -t utf-8), or moot would drop it from the prompt"}
		}
		p.Binary = true
		p.Why = why
		if key != "" {
			binaryParts.Store(key, p)
		}
		return p, nil
	}
	if n > maxInline {
		return p, &InputError{Path: path, Msg: fmt.Sprintf("is a %d MiB text file; moot inlines evidence text into the prompt and refuses files over %d MiB: keep an excerpt in the bug folder and the full file elsewhere", n>>20, maxInline>>20)}
	}
	p.Text = NormalizeText(data)
	return p, nil
}

// binaryParts remembers large binary evidence by the file's identity, so a
// huge file is hashed once per process (the TUI plans again on every edit
// of the setup), not on every plan.
var binaryParts sync.Map

// hashKey identifies an open file's content for binaryParts: device,
// inode, size and modification and change times; "" for small files.
func hashKey(f *os.File) string {
	fi, err := f.Stat()
	if err != nil || fi.Size() < 1<<20 {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%d:%d:%d:%d", st.Dev, st.Ino, fi.Size(), fi.ModTime().UnixNano())
}

// notText says why data (the first bytes of a file of n bytes) is not
// inlined as text: a NUL byte, or bytes that are not UTF-8; "" for text.
func notText(data []byte, n int64) string {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return fmt.Sprintf("holds a NUL byte at offset %d", i)
	}
	if n <= maxInline && !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, size := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return fmt.Sprintf("is not valid UTF-8 at offset %d (Latin-1 or another encoding?)", off)
	}
	return ""
}

// limitedBuffer keeps at most max bytes and discards the rest.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (w *limitedBuffer) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); room > 0 {
		if len(p) > room {
			w.buf.Write(p[:room])
		} else {
			w.buf.Write(p)
		}
	}
	return len(p), nil
}

// locateSpecs resolves traceability.specs into spec parts (or notes when a
// file or anchor is missing), then adds an older-layout spec.md beside
// bug.md and the bug's active addendum.
func locateSpecs(b *Bug) ([]Part, error) {
	reg := b.Register
	l := reg.Lang
	var parts []Part
	for _, loc := range b.Specs {
		path, anchor, _ := strings.Cut(strings.TrimSpace(loc), "#")
		if path == "" {
			parts = append(parts, note(l,
				fmt.Sprintf("O localizador `%s` em traceability.specs não nomeia um arquivo.", loc),
				fmt.Sprintf("The locator `%s` in traceability.specs names no file.", loc)))
			continue
		}
		file, err := findSpecFile(reg, b, path)
		if err != nil {
			return nil, err
		}
		if file == "" {
			parts = append(parts, note(l,
				fmt.Sprintf("A spec `%s` (localizador `%s` em traceability.specs) não existe no projeto; nenhum texto de spec foi incluído para ela.", path, loc),
				fmt.Sprintf("The spec `%s` (locator `%s` in traceability.specs) does not exist in the project; no spec text was included for it.", path, loc)))
			continue
		}
		p, err := readPart(reg, file, PartSpec)
		if err != nil {
			return nil, err
		}
		if p.Binary {
			parts = append(parts, p)
			continue
		}
		if anchor != "" {
			sec, ok := SpecSection(p.Text, anchor)
			if !ok {
				parts = append(parts, note(l,
					fmt.Sprintf("A seção `#%s` não foi encontrada em `%s`; nenhum texto de spec foi incluído para ela.", anchor, p.Path),
					fmt.Sprintf("The section `#%s` was not found in `%s`; no spec text was included for it.", anchor, p.Path)))
				continue
			}
			p.Text = sec
			p.Anchor = anchor
		}
		parts = append(parts, p)
	}
	// an older layout keeps the spec beside bug.md
	if f := filepath.Join(b.Dir, "spec.md"); isFile(f) {
		p, err := readPart(reg, f, PartSpec)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		parts = append(parts, note(l,
			"Nenhuma seção de spec foi localizada para este bug (traceability.specs vazio): trate como spec-gap; o comportamento esperado nunca foi especificado.",
			"No spec section was located for this bug (traceability.specs is empty): treat it as spec-gap; the expected behaviour was never specified."))
	}
	add, err := activeAddendum(b)
	if err != nil {
		return nil, err
	}
	if add != nil {
		parts = append(parts, *add)
	}
	return parts, nil
}

// findSpecFile resolves a spec locator's path: relative to the project, then
// to the specs folder, then to the bug folder. "" means not found.
func findSpecFile(reg *Register, b *Bug, path string) (string, error) {
	clean := filepath.FromSlash(path)
	if filepath.IsAbs(clean) {
		return "", inputErr(b.Path(), "traceability.specs", "%q is an absolute path; use a path relative to the project", path)
	}
	for _, base := range []string{reg.Project, filepath.Join(reg.Project, reg.OutputFolder), b.Dir} {
		cand := filepath.Join(base, clean)
		rel, err := filepath.Rel(reg.Project, cand)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", inputErr(b.Path(), "traceability.specs", "%q leaves the project; use a path inside it", path)
		}
		if _, err := os.Lstat(cand); err == nil {
			if err := checkLink(reg, cand); err != nil {
				return "", err
			}
			if isFile(cand) {
				return cand, nil
			}
		}
	}
	return "", nil
}

// activeAddendum returns the highest bug-<ID>-vNNN.md under the specs
// folder's addenda/, or nil.
func activeAddendum(b *Bug) (*Part, error) {
	reg := b.Register
	dir := filepath.Join(reg.Project, reg.OutputFolder, "addenda")
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &InputError{Path: dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	best, bestV := "", -1
	for _, e := range ents {
		m := addendumRE.FindStringSubmatch(e.Name())
		if m == nil || !strings.EqualFold(m[1], b.ID) {
			continue
		}
		v, _ := strconv.Atoi(m[2])
		if v > bestV {
			best, bestV = e.Name(), v
		}
	}
	if best == "" {
		return nil, nil
	}
	p, err := readPart(reg, filepath.Join(dir, best), PartAddendum)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

func note(l Lang, pt, en string) Part {
	if l == EN {
		return Part{Kind: PartNote, Text: en}
	}
	return Part{Kind: PartNote, Text: pt}
}

// renderP writes P's text: a title, then each part under a level-3 header
// naming its path and role, text fenced so its own headings stay inside.
func renderP(b *Bug, l Lang, parts []Part) string {
	var w strings.Builder
	title := b.Title
	if title == "" {
		title = b.ID
	}
	fmt.Fprintf(&w, "### %s — %s\n\n", b.ID, title)
	for _, p := range parts {
		label := partLabels[p.Kind][l]
		switch {
		case p.Kind == PartNote:
			fmt.Fprintf(&w, "### %s (%s)\n\n%s\n\n", partLabels[PartSpec][l], label, p.Text)
		case p.Binary:
			word := "arquivo binário"
			if l == EN {
				word = "binary file"
			}
			why := ""
			if p.Why != "" {
				why = " (" + p.Why + ")"
			}
			fmt.Fprintf(&w, "### `%s` (%s)\n\n%s%s: %d bytes, sha256 %s\n\n", HeaderPath(p.Path), label, word, why, p.Size, p.SHA256)
		default:
			header := p.Path
			if p.Anchor != "" {
				header += "#" + p.Anchor
			}
			header = HeaderPath(header)
			fence := FenceFor(p.Text)
			info := ""
			if strings.HasSuffix(strings.ToLower(p.Path), ".md") {
				info = "markdown"
			}
			body := p.Text
			if !strings.HasSuffix(body, "\n") {
				body += "\n"
			}
			fmt.Fprintf(&w, "### `%s` (%s)\n\n%s%s\n%s%s\n\n", header, label, fence, info, body, fence)
		}
	}
	return strings.TrimRight(w.String(), "\n") + "\n"
}

// HeaderPath escapes a file name for a header of P: control characters
// (a newline that would forge a section) and backticks (that would close
// the code span) are written as Go escapes, so the header stays one line.
func HeaderPath(path string) string {
	if !strings.ContainsFunc(path, func(r rune) bool { return r == '`' || unicode.IsControl(r) }) {
		return path
	}
	q := strconv.QuoteToGraphic(path)
	return strings.ReplaceAll(q[1:len(q)-1], "`", `\x60`)
}

// FenceFor returns a backtick fence longer than any backtick run that starts
// a line of text, so the fenced text cannot close it.
func FenceFor(text string) string {
	longest := 0
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimLeft(line, " ")
		n := 0
		for n < len(t) && t[n] == '`' {
			n++
		}
		if n > longest {
			longest = n
		}
	}
	if longest < 3 {
		return "```"
	}
	return strings.Repeat("`", longest+1)
}
