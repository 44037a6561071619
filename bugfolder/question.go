package bugfolder

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
	"unicode"

	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/internal/safefs"
)

// QuestionsDir is where debates over subjects that are not bugs live,
// under the project root (docs/architecture.md): .moot/debates/<YYYYMMDD>-<slug>/,
// each folder one debate in the layout of a bug's debate/ (problema.md,
// rodada-K/, resposta-final.md, decisao.md, eventos.jsonl at its top).
const QuestionsDir = ".moot/debates"

// MaxQuestionBytes bounds a question's text.
const MaxQuestionBytes = 16 << 10

// KindBug and KindQuestion are the subjects list --json names in kind.
const (
	KindBug      = "bug"
	KindQuestion = "question"
)

// ProjectRoot is the root questions live under, seen from dir: the folder
// that holds the register (_reversa_bugs/), else the nearest git root,
// else dir itself.
func ProjectRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	if reg, err := FindRoot(abs); err == nil {
		return reg.Project
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return abs
		}
	}
}

var slugDrop = lazyre.New(`[^a-z0-9]+`)

// QuestionSlug is a question's folder slug: ASCII lower-case words joined by
// hyphens (accents dropped), at most 48 characters, "question" when
// nothing is left.
func QuestionSlug(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	folded, _, err := transform.String(t, strings.ToLower(s))
	if err != nil {
		folded = strings.ToLower(s)
	}
	slug := strings.Trim(slugDrop.ReplaceAllString(folded, "-"), "-")
	if len(slug) > 48 {
		slug = strings.TrimRight(slug[:48], "-")
	}
	if slug == "" {
		return "question"
	}
	return slug
}

// NewQuestionDir picks the folder of a new question under the project:
// .moot/debates/<YYYYMMDD>-<slug>, numbered -2, -3… when taken. It creates
// nothing; the ID is the folder's name.
func NewQuestionDir(project, question string, now time.Time) (id, dir string) {
	base := now.UTC().Format("20060102") + "-" + QuestionSlug(question)
	id = base
	for i := 2; exists(filepath.Join(project, QuestionsDir, id)); i++ {
		id = fmt.Sprintf("%s-%d", base, i)
	}
	return id, filepath.Join(project, QuestionsDir, id)
}

// ReserveQuestionDir creates the folder of a new question the way
// NewQuestionDir names it, taking the next number when another moot
// created that folder first: two asks of one question started at once
// get -2 and -3, never the same folder. want is the name the cost plan
// showed, kept when it is still free.
func ReserveQuestionDir(project, want, question string, now time.Time) (id, dir string, err error) {
	parent := filepath.Join(project, QuestionsDir)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return "", "", fmt.Errorf("create %s: %w", parent, err)
	}
	// a planted link (.moot or .moot/debates) would have the folder made outside the project
	for _, p := range []string{filepath.Dir(parent), parent} {
		if fi, err := os.Lstat(p); err != nil || !fi.IsDir() {
			return "", "", &InputError{Path: p, Msg: "is a symlink or not a folder; moot never writes a question through a link: replace it with a real folder"}
		}
	}
	if want != "" {
		if err := os.Mkdir(filepath.Join(parent, want), 0o700); err == nil {
			return want, filepath.Join(parent, want), nil
		} else if !errors.Is(err, fs.ErrExist) {
			return "", "", fmt.Errorf("create %s: %w", filepath.Join(parent, want), err)
		}
	}
	for {
		id, dir = NewQuestionDir(project, question, now)
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			return id, dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", "", fmt.Errorf("create %s: %w", dir, err)
		}
	}
}

// questionIDRE is what a question folder's name is.
var questionIDRE = lazyre.New(`^\d{8}-[a-z0-9]+(?:-[a-z0-9]+)*$`)

// IsQuestionID reports whether s names a question folder (20261130-slug).
func IsQuestionID(s string) bool { return questionIDRE.MatchString(s) }

// AssembleQuestionP builds P for a question: the question, then each
// evidence file (inlined when text, listed by size and sha256 when not),
// read beneath the project like a bug's evidence. A file outside the
// project, a symlink leaving it, or an empty question is an input error.
func AssembleQuestionP(project, question string, evidence []string, l Lang) (*Problem, error) {
	// folded to one line: its new lines could forge structure in P
	question = strings.Join(strings.Fields(NormalizeText([]byte(question))), " ")
	switch {
	case question == "":
		return nil, &InputError{Field: "question", Msg: "is empty: ask a question"}
	case len(question) > MaxQuestionBytes:
		return nil, &InputError{Field: "question", Msg: fmt.Sprintf("is %d bytes; a question is at most %d (put the rest in an --evidence file)", len(question), MaxQuestionBytes)}
	}
	reg := &Register{Project: project, Lang: l}
	var parts []Part
	for _, e := range evidence {
		if strings.TrimSpace(e) == "" {
			return nil, &InputError{Field: "--evidence", Msg: "is empty: give the path of a file beneath the project, or drop the flag"}
		}
		abs, err := filepath.Abs(e)
		if err != nil || !strings.HasPrefix(abs, project+string(filepath.Separator)) {
			return nil, &InputError{Path: e, Field: "--evidence", Msg: "is outside the project (" + project + "); moot never reads outside the project"}
		}
		p, err := readPart(reg, abs, PartEvidence)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	var w strings.Builder
	fmt.Fprintf(&w, "### %s\n\n%s\n\n", l.Pick("Pergunta", "Question"), question)
	if len(parts) > 0 {
		pseudo := &Bug{ID: l.Pick("Evidências", "Evidence"), Title: fmt.Sprint(len(parts))}
		body := renderP(pseudo, l, parts)
		_, rest, _ := strings.Cut(body, "\n\n") // renderP's title line is the bug's; the question is the title here
		w.WriteString(rest)
	}
	text := strings.TrimRight(w.String(), "\n") + "\n"
	sum := sha256.Sum256([]byte(text))
	return &Problem{Parts: parts, Text: text, SHA256: hex.EncodeToString(sum[:])}, nil
}

// QuestionDirs lists the question folders under the project, oldest
// first (their names start with the date).
func QuestionDirs(project string) ([]string, error) {
	root := filepath.Join(project, QuestionsDir)
	ents, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, &InputError{Path: root, Msg: fmt.Sprintf("cannot be read: %v", err), Err: err}
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Type()&os.ModeSymlink == 0 {
			out = append(out, filepath.Join(root, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// ReleaseQuestionDir gives back a question folder ReserveQuestionDir
// took for a setup that never started (the cost screen left): it is
// removed only while empty, so a debate begun in it is never touched.
func ReleaseQuestionDir(dir string) {
	if dir != "" {
		_ = os.Remove(dir)
	}
}

// UnaskedQuestion is the stand-in for a question not asked yet (the
// browser's n with no bug selected): no folder and no ID until moot ask
// makes them; never restricted, as QuestionBug.
func UnaskedQuestion(reg *Register) *Bug {
	if reg == nil {
		reg = &Register{}
	}
	return &Bug{Register: reg, Visibility: VisibilityNormal, Partial: true, IsQuestion: true}
}

// QuestionBug is the listing's stand-in for a question: its ID is the
// folder's name, its title the frozen question (first line), its folder
// the question's. Questions are never restricted: they carry no
// visibility of their own.
func QuestionBug(project, dir string, d *Debate) *Bug {
	b := &Bug{Register: &Register{Project: project}, Dir: dir, ID: filepath.Base(dir), Visibility: VisibilityNormal, Partial: true, IsQuestion: true}
	if d != nil && d.Problem != nil {
		if v := d.Problem.Visibility; v != "" {
			b.Visibility = v // restricted at ask: its evidence held a restricted bug's files
		}
		q := d.Problem.Question
		if first, _, _ := strings.Cut(q, "\n"); first != "" {
			q = first
		}
		b.Title = q
	}
	return b
}

// DebateFolder is where a subject's current debate lives: <bug>/debate/
// for a bug, the question's own folder for a question (docs/architecture.md).
func (b *Bug) DebateFolder() string {
	if b.IsQuestion {
		return b.Dir
	}
	return filepath.Join(b.Dir, DebateDir)
}

// WriterRoot is the folder a debate's writer is rooted at (OpenWriter's
// bugDir): the bug folder, or for a question the .moot/debates/ folder
// that holds its own.
func (b *Bug) WriterRoot() string {
	if b.IsQuestion {
		return filepath.Dir(b.Dir)
	}
	return b.Dir
}

// IndexQuestion reads what a listing shows of one question folder: the
// same summary as a bug's, with Kind question.
func IndexQuestion(project, dir string, fallback Lang) (*Summary, error) {
	d, err := ReadDebate(dir, fallback)
	if err != nil {
		return nil, err
	}
	s := &Summary{Bug: QuestionBug(project, dir, d), State: d.State, Kind: KindQuestion}
	if d.State == StateNoDebate {
		return s, nil
	}
	s.Count = 1
	s.Debates = []*Debate{d}
	s.Problems = d.Problems
	s.fromLatest(d)
	s.fromFiles(d)
	if f := d.Final; f != nil && f.TotalCostRecorded && f.TotalCostUSD > 0 {
		s.Tokens, s.CostUSD = f.TotalTokens, f.TotalCostUSD
	}
	return s, nil
}

// FindQuestion finds the question a TARGET names under the project: its
// ID (the folder's name) or its folder's path; "" when none.
func FindQuestion(project, cwd, arg string) string {
	if IsQuestionID(arg) {
		if dir := filepath.Join(project, QuestionsDir, arg); isRealDir(dir) {
			return dir
		}
	}
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	if filepath.Dir(p) == filepath.Join(project, QuestionsDir) && isRealDir(p) {
		return p
	}
	return ""
}

// RestrictedEvidence finds an evidence file that belongs to something
// restricted: a file beneath a folder whose bug.md has a visibility that
// is not normal or internal (the same rule as a bug's), or beneath a
// debate folder whose problema.md froze visibility: restricted (a question
// asked with a restricted bug's files). The path is checked as written and
// with its symlinks resolved, so a link elsewhere in the project does not
// launder a restricted file. It returns that folder ("" when none holds
// one), so a question asked with it is restricted too and never reaches an
// external engine.
func RestrictedEvidence(project string, evidence []string) (string, error) {
	realProject, err := filepath.EvalSymlinks(project)
	if err != nil {
		realProject = project
	}
	for _, e := range evidence {
		abs, err := filepath.Abs(e)
		if err != nil {
			return "", fmt.Errorf("--evidence %s: %w", e, err)
		}
		if dir := restrictedHolder(project, abs); dir != "" {
			return dir, nil
		}
		if dir := restrictedAddendum(project, abs); dir != "" {
			return dir, nil
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			if dir := restrictedHolder(realProject, real); dir != "" {
				return dir, nil
			}
			if dir := restrictedAddendum(realProject, real); dir != "" {
				return dir, nil
			}
		}
	}
	return "", nil
}

// restrictedAddendum is the folder of the restricted bug whose addendum
// path is (an addenda/bug-<ID>-vNNN.md of the project), or "": a
// restricted bug's addendum is as restricted as its bug.md, wherever it
// is brought in from (ask --evidence, a spec locator, a symlink).
func restrictedAddendum(project, path string) string {
	m := addendumRE.FindStringSubmatch(filepath.Base(path))
	if m == nil || filepath.Base(filepath.Dir(path)) != "addenda" {
		return ""
	}
	reg, err := FindRoot(project)
	if err != nil {
		return ""
	}
	return restrictedBug(reg, addendumKey(m[1]))
}

// restrictedHolder walks up from path (itself first: a linked folder) to the project and returns the
// first folder that makes it restricted: the nearest bug.md decides for a
// bug's files; a debate folder's problema.md that froze visibility:
// restricted decides for a question's.
func restrictedHolder(project, path string) string {
	for dir := path; strings.HasPrefix(dir, project+string(filepath.Separator)); dir = filepath.Dir(dir) {
		for _, name := range []string{names[PT].Problem, translated.Problem} {
			if raw, err := safefs.ReadFile(filepath.Join(dir, name), MaxBugBytes); err == nil {
				if doc, err := ParseDocument(raw); err != nil {
					return dir // an unreadable problema.md fails closed
				} else if v := scalar(doc.Meta, "visibility"); v != "" && restrictedVisibility(v) {
					return dir
				}
			}
		}
		raw, err := safefs.ReadFile(filepath.Join(dir, BugFile), MaxBugBytes)
		if err != nil {
			continue
		}
		doc, err := ParseDocument(raw)
		if err != nil {
			return dir // an unreadable bug.md fails closed
		}
		if v, _ := visibilityOf(doc.Meta); restrictedVisibility(v) {
			return dir
		}
		return "" // the nearest bug.md decides
	}
	return ""
}

// beneathAny reports whether path is beneath one of dirs (lexically).
func beneathAny(path string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool {
		return d != "" && strings.HasPrefix(filepath.Clean(path), filepath.Clean(d)+string(filepath.Separator))
	})
}

// linkedRestricted finds what of a bug's P comes from something
// restricted elsewhere in the project: a symlink among its evidence, or a
// traceability.specs locator naming a file of a restricted bug or
// question. It returns the file and the folder that restricts it.
func linkedRestricted(b *Bug) (file, holder string) {
	var cands []string
	for _, d := range slices.Concat(capsuleDirs, evidenceDirs) {
		root := filepath.Join(b.Dir, d)
		filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.Type()&fs.ModeSymlink != 0 {
				cands = append(cands, p)
			}
			return nil
		})
	}
	// a spec file can only be restricted where bugs and questions live:
	// the others are not walked (a listing reads thousands of bugs)
	holders := []string{b.Register.Root, filepath.Join(b.Register.Project, QuestionsDir),
		filepath.Join(b.Register.Project, b.Register.OutputFolder, "addenda")}
	for _, loc := range expandLocators(b.Specs) {
		if loc.Path == "" {
			continue
		}
		for _, c := range specCandidates(b.Register, b, loc.Path) {
			if beneathAny(c, holders) {
				cands = append(cands, c)
			} else if real, err := filepath.EvalSymlinks(c); err == nil && real != c {
				cands = append(cands, c) // a link: resolved and checked below
			}
		}
	}
	for _, c := range cands {
		if h, _ := RestrictedEvidence(b.Register.Project, []string{c}); h != "" && h != b.Dir {
			return c, h
		}
	}
	return "", ""
}

// SubjectDirs lists what a browser shows, unread: the register's bug
// folders (none without a register), then the project's questions.
func SubjectDirs(reg *Register) ([]BugDir, []error) {
	var out []BugDir
	var errs []error
	if reg.Root != "" {
		out, errs = BugDirs(reg)
	}
	qs, err := QuestionDirs(reg.Project)
	if err != nil {
		errs = append(errs, err)
	}
	for _, dir := range qs {
		out = append(out, BugDir{Dir: dir, Question: true})
	}
	return out, errs
}

// IndexSubject reads what a listing shows of a bug folder or a question
// folder (IndexBug, IndexQuestion); a question's stand-in keeps the
// register's root and the language its debate is written in.
func IndexSubject(reg *Register, bd BugDir) (*Summary, error) {
	if !bd.Question {
		return IndexBug(reg, bd)
	}
	s, err := IndexQuestion(reg.Project, bd.Dir, reg.Lang)
	if err != nil {
		return nil, err
	}
	lang := reg.Lang
	if s.Latest != nil {
		lang = s.Latest.Lang
	}
	s.Bug.Register = &Register{Root: reg.Root, Project: reg.Project, Lang: lang}
	return s, nil
}

// DebateFolder is where the folder's current debate lives: <bug>/debate/,
// or the question's own folder.
func (bd BugDir) DebateFolder() string {
	if bd.Question {
		return bd.Dir
	}
	return filepath.Join(bd.Dir, DebateDir)
}
