package bugfolder

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/reversa/moot/internal/input"
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
	// PartEvidenceNote is a statement about the evidence (files left out).
	PartEvidenceNote
)

var partLabels = map[PartKind][2]string{
	PartBug:          {"registro do bug", "bug record"},
	PartCapsule:      {"cápsula de reprodução", "reproduction capsule"},
	PartEvidence:     {"evidência", "evidence"},
	PartSpec:         {"spec efetiva", "effective spec"},
	PartAddendum:     {"adendo vigente", "active addendum"},
	PartNote:         {"nota", "note"},
	PartEvidenceNote: {"nota", "note"},
}

// Part is one file (or statement) in P.
type Part struct {
	Kind PartKind
	// Path is the project-relative path, with forward slashes.
	Path string
	// Anchor is the spec anchor a spec part was located by.
	Anchor string
	// Rule is the rule that located a spec or addendum part, and Detail
	// what it found ("table row", "lines 120–245").
	Rule   LocRule
	Detail string
	// Comment is the text that followed the anchor in the locator, cut off.
	Comment string
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
	// Warnings are what the engineer should know about how P was made
	// (evidence files left out, spec locators not found, files listed by
	// hash although they look like text in another encoding than UTF-8).
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
)

// AssembleP builds P for a bug, deterministically: bug.md, the reproduction
// capsule, the other evidence files in path order, the spec sections that
// traceability.specs locates, and the bug's active addendum. Text is
// inlined under its path; binary files are listed by name, size and sha256;
// a missing spec is stated, never invented. A symlink that leaves the
// project, a locator outside it, and an unreadable file are input errors.
func AssembleP(b *Bug) (*Problem, error) {
	if b.Incomplete {
		return nil, b.Warnings[0]
	}
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
	var capsule, other, hidden, special []string
	for _, d := range capsuleDirs {
		files, dots, specials, err := listFiles(reg, filepath.Join(b.Dir, d))
		if err != nil {
			return nil, err
		}
		capsule = append(capsule, files...)
		hidden = append(hidden, dots...)
		special = append(special, specials...)
	}
	for _, d := range evidenceDirs {
		files, dots, specials, err := listFiles(reg, filepath.Join(b.Dir, d))
		if err != nil {
			return nil, err
		}
		hidden = append(hidden, dots...)
		special = append(special, specials...)
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

	var warnings []string
	if len(hidden) > 0 {
		list := codeList(reg, hidden)
		parts = append(parts, evidenceNote(l,
			fmt.Sprintf("Arquivos de evidência com nome iniciado por ponto não foram incluídos em P: %s.", list),
			fmt.Sprintf("Dot-named evidence files were not included in P: %s.", list)))
		warnings = append(warnings, fmt.Sprintf("dot-named evidence files are not included in P (they are often editor, OS or secret files): %s; rename one without the leading dot to include it", list))
	}

	if len(special) > 0 {
		list := codeList(reg, special)
		parts = append(parts, evidenceNote(l,
			fmt.Sprintf("Arquivos de evidência que não são arquivos comuns (FIFO, dispositivo, socket) não foram lidos nem incluídos em P: %s.", list),
			fmt.Sprintf("Evidence entries that are not regular files (a FIFO, device or socket) were not read or included in P: %s.", list)))
		warnings = append(warnings, fmt.Sprintf("evidence entries that are not regular files (a FIFO, device or socket) are not read or included in P: %s; replace each with a regular file to include it", list))
	}

	// the effective spec
	specParts, err := locateSpecs(b)
	if err != nil {
		return nil, err
	}
	parts = append(parts, specParts...)

	text := renderP(b, l, parts)
	sum := SHA256String(text)
	for _, p := range parts {
		if p.Binary && strings.Contains(p.Why, "UTF-8") {
			warnings = append(warnings, fmt.Sprintf("%s %s: it is listed by size and sha256, not inlined; convert it to UTF-8 (iconv -f latin1 -t utf-8) to have it read", p.Path, p.Why))
		}
		if p.Binary && strings.Contains(p.Why, "NUL") && textExt[strings.ToLower(filepath.Ext(p.Path))] {
			warnings = append(warnings, fmt.Sprintf("%s %s: a text file by its name, it is listed by size and sha256, not inlined; remove the NUL bytes (tr -d '\\000') to have it read", p.Path, p.Why))
		}
	}
	return &Problem{Parts: parts, Text: text, SHA256: sum, Warnings: warnings}, nil
}

// codeList names files relative to the register, sorted, each as code
// ("`a`, `b`").
func codeList(reg *Register, paths []string) string {
	rel := make([]string, len(paths))
	for i, p := range paths {
		rel[i] = "`" + reg.Rel(p) + "`"
	}
	slices.Sort(rel)
	return strings.Join(rel, ", ")
}

// evidenceNote is a statement in P about the evidence (not the spec).
func evidenceNote(l Lang, pt, en string) Part {
	p := note(l, pt, en)
	p.Kind = PartEvidenceNote
	return p
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// listFiles lists the regular files under dir (recursively), following
// symlinks that stay inside the project. Dot-named files and folders are
// left out and returned in dots, and anything that is not a regular file,
// folder or symlink (a FIFO, device, socket) in special, so P can say so.
func listFiles(reg *Register, dir string) (files, dots, special []string, err error) {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, &InputError{Path: dir, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if err := checkLink(reg, dir); err != nil {
			return nil, nil, nil, err
		}
	}
	var out []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return &InputError{Path: p, Msg: fmt.Sprintf("cannot be read (%v); check its permissions", err), Err: err}
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				dots = append(dots, p+"/")
				return filepath.SkipDir
			}
			dots = append(dots, p)
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
			special = append(special, p)
		}
		return nil
	})
	return out, dots, special, err
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
	// read into the string P's part will be (one allocation, no copy after)
	var buf strings.Builder
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		buf.Grow(int(min(fi.Size(), maxInline)))
	}
	n, err := io.Copy(io.MultiWriter(h, &limitedBuffer{buf: &buf, max: maxInline}), f)
	if err != nil {
		return p, &InputError{Path: path, Msg: fmt.Sprintf("cannot be read (%v)", err), Err: err}
	}
	p.Size = n
	p.SHA256 = hex.EncodeToString(h.Sum(nil))
	data := buf.String()
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
	p.Text = input.NormalizeString(data)
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
func notText(data string, n int64) string {
	if i := strings.IndexByte(data, 0); i >= 0 {
		return fmt.Sprintf("holds a NUL byte at offset %d", i)
	}
	if n <= maxInline && !utf8.ValidString(data) {
		off := 0
		for off < len(data) {
			r, size := utf8.DecodeRuneInString(data[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return fmt.Sprintf("is not valid UTF-8 at offset %d (Latin-1 or another encoding?)", off)
	}
	return ""
}

// textExt are the file name extensions of text: such a file listed by hash
// for a NUL byte is worth a warning (a log with a stray NUL).
var textExt = map[string]bool{".txt": true, ".log": true, ".md": true, ".json": true, ".jsonl": true, ".yaml": true, ".yml": true, ".csv": true, ".xml": true, ".html": true, ".out": true, ".err": true}

// limitedBuffer keeps at most max bytes and discards the rest.
type limitedBuffer struct {
	buf *strings.Builder
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
// bug.md and the addenda in force for the located files.
func locateSpecs(b *Bug) ([]Part, error) {
	reg := b.Register
	l := reg.Lang
	var parts []Part
	var located []locatedSpec
	seen := map[string]bool{}
	for _, loc := range expandLocators(b.Specs) {
		raw := loc.Raw
		if loc.Path == "" {
			parts = append(parts, note(l,
				fmt.Sprintf("O localizador `%s` em traceability.specs não nomeia um arquivo.", raw),
				fmt.Sprintf("The locator `%s` in traceability.specs names no file.", raw)))
			continue
		}
		file, err := findSpecFile(reg, b, loc.Path)
		if err != nil {
			return nil, err
		}
		if dir := specFolder(reg, b, loc.Path); file == "" && dir != "" {
			parts = append(parts, note(l,
				fmt.Sprintf("`%s` (localizador `%s` em traceability.specs) é uma pasta, não um arquivo de spec; nomeie o arquivo (e a seção) para incluí-lo.", reg.Rel(dir), raw),
				fmt.Sprintf("`%s` (locator `%s` in traceability.specs) is a folder, not a spec file; name the file (and the section) to include it.", reg.Rel(dir), raw)))
			continue
		}
		if what := specSpecial(reg, b, loc.Path); file == "" && what != nil {
			parts = append(parts, note(l,
				fmt.Sprintf("A spec `%s` (localizador `%s` em traceability.specs) é %s, não um arquivo comum; nenhum texto de spec foi incluído para ela.", HeaderPath(loc.Path), raw, what[1]),
				fmt.Sprintf("The spec `%s` (locator `%s` in traceability.specs) is %s, not a regular file; no spec text was included for it.", HeaderPath(loc.Path), raw, what[0])))
			continue
		}
		if file == "" {
			parts = append(parts, note(l,
				fmt.Sprintf("A spec `%s` (localizador `%s` em traceability.specs) não existe no projeto; nenhum texto de spec foi incluído para ela.", loc.Path, raw),
				fmt.Sprintf("The spec `%s` (locator `%s` in traceability.specs) does not exist in the project; no spec text was included for it.", loc.Path, raw)))
			continue
		}
		p, err := readPart(reg, file, PartSpec)
		if err != nil {
			return nil, err
		}
		p.Comment = loc.Comment
		if p.Binary {
			p.Rule = RuleWholeFile
			parts = append(parts, p)
			continue
		}
		found, ok := LocateLocator(p.Text, loc)
		if !ok {
			parts = append(parts, note(l,
				fmt.Sprintf("A seção `#%s` não foi encontrada em `%s` (nem como título, id explícito, linhas #L…, título numerado ou ID de requisito); nenhum texto de spec foi incluído para ela.", loc.Anchor, p.Path),
				fmt.Sprintf("The section `#%s` was not found in `%s` (not as a heading, an explicit id, #L… lines, a numbered heading or a requirement ID); no spec text was included for it.", loc.Anchor, p.Path)))
			continue
		}
		key := fmt.Sprintf("%s:%d-%d", file, found.Start, found.End)
		if seen[key] {
			continue // the same text, located twice: once is enough
		}
		seen[key] = true
		p.Text, p.Anchor, p.Rule, p.Detail = found.Text, loc.Anchor, found.Rule, found.Detail
		located = append(located, locatedSpec{file: file, loc: found})
		parts = append(parts, p)
	}
	// an older layout keeps the spec beside bug.md
	if f := filepath.Join(b.Dir, "spec.md"); isFile(f) {
		p, err := readPart(reg, f, PartSpec)
		if err != nil {
			return nil, err
		}
		p.Rule = RuleWholeFile
		parts = append(parts, p)
	}
	if len(parts) == 0 && b.SpecsUnread != "" {
		parts = append(parts, note(l,
			"Nenhuma seção de spec foi localizada: "+b.SpecsUnread+" (bug.md não pôde ser lido quanto às specs). Não conclua spec-gap só por isso: a spec pode existir.",
			"No spec section was located: "+b.SpecsUnread+" (bug.md could not be read for specs). Do not conclude spec-gap from this alone: a spec may exist."))
	} else if len(parts) == 0 {
		parts = append(parts, note(l,
			"Nenhuma seção de spec foi localizada para este bug (traceability.specs vazio): trate como spec-gap; o comportamento esperado nunca foi especificado.",
			"No spec section was located for this bug (traceability.specs is empty): treat it as spec-gap; the expected behaviour was never specified."))
	}
	adds, err := addendaInForce(b, located)
	if err != nil {
		return nil, err
	}
	return append(parts, adds...), nil
}

// expandLocators parses traceability.specs, one locator per anchor: a
// locator naming more anchors ("#RF-06,RF-07", "#RF-06 #RF-07") stands for
// one locator each.
func expandLocators(raws []string) []Locator {
	var out []Locator
	for _, raw := range raws {
		loc := ParseLocator(raw)
		more := loc.MoreAnchors()
		if len(more) > 0 {
			loc.Comment = ""
		}
		out = append(out, loc)
		for _, a := range more {
			out = append(out, Locator{Raw: raw, Path: loc.Path, Anchor: a})
		}
	}
	return out
}

// specCandidates are the places a locator's path may name, in order: the
// project (a leading / or the project's own absolute path is its root), the
// specs folder, the bug folder. A Windows separator, a percent-encoded
// name, and the pre-1.2.58 _reversa_sdd/ prefix read as written elsewhere.
func specCandidates(reg *Register, b *Bug, path string) []string {
	path = strings.ReplaceAll(path, "\\", "/")
	if strings.Contains(path, "%") {
		if u, err := url.PathUnescape(path); err == nil {
			path = u
		}
	}
	if filepath.IsAbs(path) {
		if rel, err := filepath.Rel(reg.Project, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			path = rel
		}
	}
	clean := filepath.FromSlash(strings.TrimLeft(strings.TrimPrefix(path, "./"), "/"))
	out := []string{filepath.Join(reg.Project, clean), filepath.Join(reg.Project, reg.OutputFolder, clean), filepath.Join(b.Dir, clean)}
	if rest, ok := strings.CutPrefix(filepath.ToSlash(clean), "_reversa_sdd/"); ok && reg.OutputFolder != "_reversa_sdd" {
		out = append(out, filepath.Join(reg.Project, reg.OutputFolder, filepath.FromSlash(rest)))
	}
	return out
}

// specFolder returns the folder a locator's path names, or "".
func specFolder(reg *Register, b *Bug, path string) string {
	for _, cand := range specCandidates(reg, b, path) {
		if rel, err := filepath.Rel(reg.Project, cand); err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if fi, err := os.Lstat(cand); err == nil && fi.IsDir() {
			return cand
		}
	}
	return ""
}

// findSpecFile resolves a spec locator's path: relative to the project (a
// leading / is the project's root), then to the specs folder, then to the
// bug folder; never outside the project. "" means not found.
func findSpecFile(reg *Register, b *Bug, path string) (string, error) {
	// a leading / is the repository root, as in a GitHub link
	for _, cand := range specCandidates(reg, b, path) {
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
	for _, cand := range specCandidates(reg, b, path) {
		if f := numberedFile(cand); f != "" {
			if err := checkLink(reg, f); err != nil {
				return "", err
			}
			return f, nil
		}
	}
	return "", nil
}

// numberedFile reads a path that names a numbered document by its number
// alone ("_reversa_sdd/adrs/0028" for adrs/0028-visao-compacta.md, as
// hosts cite ADRs): the one regular file of that folder whose name starts
// with the number and a hyphen or a dot; "" when none or several do, or
// the path has an extension or is not a number.
func numberedFile(cand string) string {
	base := filepath.Base(cand)
	if !bareLineRE.MatchString(base) {
		return ""
	}
	ents, err := os.ReadDir(filepath.Dir(cand))
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range ents {
		if n := e.Name(); e.Type().IsRegular() && (strings.HasPrefix(n, base+"-") || strings.HasPrefix(n, base+".")) {
			if found != "" {
				return "" // two documents carry the number: a guess
			}
			found = filepath.Join(filepath.Dir(cand), n)
		}
	}
	return found
}

// specSpecial names what a spec locator's file is when it exists but is a
// FIFO, device or socket (English, Portuguese); nil otherwise. It is never
// opened.
func specSpecial(reg *Register, b *Bug, path string) []string {
	for _, cand := range specCandidates(reg, b, path) {
		fi, err := os.Stat(cand)
		if err != nil {
			continue
		}
		switch m := fi.Mode(); {
		case m&fs.ModeNamedPipe != 0:
			return []string{"a FIFO", "um FIFO"}
		case m&fs.ModeDevice != 0:
			return []string{"a device", "um dispositivo"}
		case m&fs.ModeSocket != 0:
			return []string{"a socket", "um socket"}
		}
	}
	return nil
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
	size := 4096
	for _, p := range parts {
		size += len(p.Text) + len(p.Path) + 256
	}
	w.Grow(size) // P is built in one allocation
	title := b.Title
	if title == "" {
		title = b.ID
	}
	fmt.Fprintf(&w, "### %s — %s\n\n", HeaderText(b.ID), HeaderText(title))
	at := make([]int, len(parts)) // where each inlined part's text starts in P (-1: not inlined)
	for i, p := range parts {
		at[i] = -1
		label := partLabels[p.Kind][l]
		switch {
		case p.Kind == PartNote:
			fmt.Fprintf(&w, "### %s (%s)\n\n%s\n\n", partLabels[PartSpec][l], label, p.Text)
		case p.Kind == PartEvidenceNote:
			fmt.Fprintf(&w, "### %s (%s)\n\n%s\n\n", partLabels[PartEvidence][l], label, p.Text)
		case p.Binary:
			word := "arquivo binário"
			if l == EN {
				word = "binary file"
			}
			if how := locatedBy(l, p); how != "" {
				label += "; " + how
			}
			why := ""
			if p.Why != "" {
				why = " (" + p.Why + ")"
			}
			fmt.Fprintf(&w, "### `%s` (%s)\n\n%s%s: %d bytes, sha256 %s\n\n", HeaderPath(p.Path), label, word, why, p.Size, p.SHA256)
		default:
			at[i] = renderText(&w, l, p, label)
		}
	}
	text := w.String()
	body := strings.TrimRight(text, "\n")
	if len(body) < len(text) {
		text = text[:len(body)+1] // P ends in one newline: cut, not copied
	} else {
		text = body + "\n"
	}
	for i := range parts {
		if at[i] >= 0 { // the part's text is P's own bytes: held once
			parts[i].Text = text[at[i] : at[i]+len(parts[i].Text)]
		}
	}
	return text
}

// renderText writes an inlined text part under its header, fenced, and
// returns where its text starts in w. The text is written as is, never
// formatted (fmt would copy a large file once more).
func renderText(w *strings.Builder, l Lang, p Part, label string) int {
	header := p.Path
	if p.Anchor != "" {
		header += "#" + p.Anchor
	}
	header = HeaderPath(header)
	if how := locatedBy(l, p); how != "" {
		label += "; " + how
	}
	fence := FenceFor(p.Text)
	info := ""
	if strings.HasSuffix(strings.ToLower(p.Path), ".md") {
		info = "markdown"
	}
	fmt.Fprintf(w, "### `%s` (%s)\n\n%s%s\n", header, label, fence, info)
	at := w.Len()
	w.WriteString(p.Text)
	if !strings.HasSuffix(p.Text, "\n") {
		w.WriteString("\n")
	}
	w.WriteString(fence + "\n\n")
	return at
}

var ruleNames = map[LocRule][2]string{
	RuleWholeFile:     {"arquivo inteiro", "whole file"},
	RuleExplicitID:    {"id explícito do título", "heading's explicit id"},
	RuleHeadingSlug:   {"slug do título", "heading slug"},
	RuleLineRange:     {"âncora de linhas", "line anchor"},
	RuleHeadingNumber: {"número do título", "heading number"},
	RuleRequirementID: {"ID de requisito", "requirement ID"},
	RuleAddendum:      {"adendo vigente", "addendum in force"},
	RuleSlugHyphens:   {"slug do título, com hífens repetidos lidos como um", "heading slug, a run of hyphens read as one"},
	RuleSlugNumber:    {"slug do título, sem o número que só um dos dois tem", "heading slug, without the number only one of the two has"},
	RuleNumberWords:   {"título com esse número e todas as palavras da âncora", "heading with that number and every word of the anchor"},
	RuleTableCell:     {"célula de tabela com esse slug (a seção que um adendo emenda)", "table cell with that slug (the section an addendum amends)"},
	RuleItemLabel:     {"rótulo de um item de lista (o negrito, ou as palavras antes de dois-pontos)", "a list item's label (its bold lead, or the words before its colon)"},
	RuleSlugWords:     {"título que contém todas as palavras da âncora, na ordem", "heading holding every word of the anchor, in order"},
	RuleBareLine:      {"número de linha (nenhum título tem esse número)", "line number (no heading has that number)"},
}

// locatedBy says, in P, which rule located a spec or addendum part and
// what it found ("localizada por: ID de requisito — table row").
func locatedBy(l Lang, p Part) string {
	if p.Rule == "" || p.Kind == PartAddendum && p.Rule == RuleAddendum && p.Detail == "" {
		return ""
	}
	word := "localizada por"
	if l == EN {
		word = "located by"
	}
	s := word + ": " + ruleNames[p.Rule][l]
	if p.Rule == RuleAddendum {
		return p.Detail // "in force for reversa/sdd/requirements.md#RF-06"
	}
	if p.Detail != "" {
		s += " — " + detailIn(l, p.Detail)
	}
	if p.Comment != "" {
		cut := "comentário cortado"
		if l == EN {
			cut = "comment cut"
		}
		s += "; " + cut + ": " + p.Comment
	}
	return s
}

// HeaderPath escapes a file name for a header of P: control characters
// (a newline that would forge a section) and backticks (that would close
// the code span) are written as Go escapes, so the header stays one line.
func HeaderPath(path string) string {
	if !strings.ContainsFunc(path, func(r rune) bool { return r == '`' || unescaped(r) }) {
		return path
	}
	q := strconv.QuoteToGraphic(path)
	return strings.ReplaceAll(q[1:len(q)-1], "`", `\x60`)
}

// unescaped reports a rune a header of P never shows as it is: a control
// character, or an invisible one such as a bidi override (U+202E).
func unescaped(r rune) bool {
	return r != ' ' && !unicode.IsGraphic(r)
}

// HeaderText folds a front-matter scalar (a bug's title) to one line for a
// header of P (a newline in it would forge a section) and writes its
// control and invisible characters as Go escapes.
func HeaderText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if !strings.ContainsFunc(s, unescaped) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unescaped(r) {
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// FenceFor returns a backtick fence longer than any backtick run that starts
// a line of text, so the fenced text cannot close it.
func FenceFor(text string) string {
	longest := 0
	for line := range strings.SplitSeq(text, "\n") { // no slice of a large file's lines
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

// detailPT are the Portuguese words of a located part's detail.
var detailPT = strings.NewReplacer("table row", "linha de tabela", "list item", "item de lista",
	"paragraph", "parágrafo", "heading", "título", "lines", "linhas", "line", "linha")

// detailIn says a located part's detail ("table row", "lines 3–5") in the
// language of P.
func detailIn(l Lang, detail string) string {
	if l == EN {
		return detail
	}
	return detailPT.Replace(detail)
}
