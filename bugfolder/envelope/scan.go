package envelope

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Identities returns the identity strings to scan for that git knows:
// commit author and committer names and emails in the range,
// Co-authored-by (and Signed-off-by) trailers, each name and email on
// its own; a forge's web-merge committer (GitHub <noreply@github.com>)
// is no one's identity. With change "" (--files) git names no one: nil.
func Identities(repo, change string) ([]string, error) {
	if change == "" {
		return nil, nil
	}
	a, b, _, err := resolveRange(repo, change)
	if err != nil {
		return nil, err
	}
	out, err := git(repo, "log", "--format="+identityFormat, a+".."+b, "--")
	if err != nil {
		return nil, fmt.Errorf("--change %q: read its commits' authors: %w", change, err)
	}
	return identitiesFrom(string(out)), nil
}

// identitiesFrom reads git log's records (author name, email, committer
// name, email, then the trailers, NUL-separated, each record ended by
// \x01) into the sorted, unique identities.
func identitiesFrom(out string) []string {
	seen := map[string]bool{}
	var ids []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if len([]rune(s)) < 2 || seen[strings.ToLower(s)] {
			return
		}
		seen[strings.ToLower(s)] = true
		ids = append(ids, s)
	}
	person := func(name, email string) {
		if !platform[strings.ToLower(strings.TrimSpace(email))] {
			if !SystemAccounts[strings.ToLower(strings.TrimSpace(name))] {
				add(name) // "root" or "runner" names a machine, not a builder: only its email is scanned
			}
			add(email)
		}
	}
	for _, commit := range strings.Split(out, "\x01") {
		// author name, email, committer name, email, then the trailers
		f := strings.Split(strings.TrimLeft(commit, "\n"), "\x00")
		if len(f) < 4 {
			continue
		}
		person(f[0], f[1])
		person(f[2], f[3])
		for _, trailer := range f[4:] {
			person(splitPerson(trailer))
		}
	}
	slices.Sort(ids)
	return ids
}

// SystemAccounts are the single-word git names of machines' accounts
// (a CI runner, a container's root): common words, naming no builder, so
// they are not scanned for as words (their emails still are).
var SystemAccounts = map[string]bool{"root": true, "admin": true, "administrator": true, "user": true, "ubuntu": true,
	"runner": true, "git": true, "jenkins": true, "build": true, "ci": true}

// IdentitiesOfFiles returns the identities git knows of the files (for
// --files in a git repository): the authors, committers and trailers of
// the last MaxFileCommits commits that touched them. Outside a git work
// tree it returns nil.
func IdentitiesOfFiles(repo string, files []string) ([]string, error) {
	if len(files) == 0 {
		return nil, nil
	}
	if out, err := git(repo, "rev-parse", "--is-inside-work-tree"); err != nil || strings.TrimSpace(string(out)) != "true" {
		return nil, nil
	}
	if _, err := git(repo, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return nil, nil // no commit yet: git names no one
	}
	args := []string{"log", "-n", strconv.Itoa(MaxFileCommits), "--format=" + identityFormat, "HEAD", "--"}
	out, err := git(repo, append(args, files...)...)
	if err != nil {
		return nil, fmt.Errorf("--files: read the authors of the commits that touched them: %w", err)
	}
	return identitiesFrom(string(out)), nil
}

// MaxFileCommits bounds the commits IdentitiesOfFiles reads.
const MaxFileCommits = 200

// identityFormat is git log's record of one commit's people.
const identityFormat = "%an%x00%ae%x00%cn%x00%ce%x00%(trailers:key=Co-authored-by,key=Signed-off-by,valueonly,separator=%x00)%x01"

// platform holds the committer emails of forges' web merges: "GitHub"
// names no builder, and is in every other README.
var platform = map[string]bool{"noreply@github.com": true}

// splitPerson splits "Name <email>" into its parts; a bare name or email
// is returned as the name.
func splitPerson(s string) (name, email string) {
	s = strings.TrimSpace(s)
	i := strings.LastIndexByte(s, '<')
	if i < 0 || !strings.HasSuffix(s, ">") {
		return s, ""
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1 : len(s)-1])
}

// Leak is one identity found in the envelope.
type Leak struct {
	File string
	Line int
	What string
}

// LeakError is returned by the caller when Scan finds leaks; its Error()
// names file:line and what leaked, and says what to do. cli maps it to
// exit 2.
type LeakError struct{ Leaks []Leak }

// leaksShown bounds the leaks one error lists.
const leaksShown = 10

// Error lists the leaks (the first ten) and the remedy.
func (e *LeakError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the envelope would leak authorship (%d found), so no juror was called:", len(e.Leaks))
	for i, l := range e.Leaks {
		if i == leaksShown {
			fmt.Fprintf(&b, "\n  … and %d more", len(e.Leaks)-leaksShown)
			break
		}
		if l.Line == 0 {
			fmt.Fprintf(&b, "\n  %s: %s", l.File, l.What)
			continue
		}
		fmt.Fprintf(&b, "\n  %s:%d: %s", l.File, l.Line, l.What)
	}
	b.WriteString("\nremove these names, emails and trailers from the files (a juror must not know who built the change), then run the review again")
	return b.String()
}

// Markers of authorship whatever the name: trailers, builder stamps, an
// author tag, an author with an email; matched on the ASCII-lowered line.
// Each needs a word scanBody searches first (co-authored-by,
// signed-off-by, generated, @): keep them so.
var (
	trailerRe   = regexp.MustCompile(`\b(co-authored-by|signed-off-by)\s*:`)
	builtRe     = regexp.MustCompile(`\bgenerated\s+(with|by)\s+\[?\s*(claude|chatgpt|gpt|openai|copilot|codex|gemini|cursor|aider|qwen|devin|windsurf|an?\s+(ai|llm))`)
	atAuthorRe  = regexp.MustCompile(`@author\b[ \t]*\S`)
	emailAuthRe = regexp.MustCompile(`(?i)\b(author|authored by|written by|maintainer)\s*:?\s+[^\s@]*\S*@[\w-]+\.\w|[\pL\pN][^<>\n]{0,80}<[\w.+-]+@[\w-]+(\.[\w-]+)+>`)
	// a trailer names someone when a name (a capitalised word) or an
	// email follows it, or anything does at the start of a line (after
	// a comment's marks)
	trailerNameRe = regexp.MustCompile(`^[ \t]*(\p{Lu}|[^\s<>]*@[\w-]+\.\w|<[^>]*@)`)
	emailRe       = regexp.MustCompile(`[\w.+-]+@[\w-]+\.[\w.-]+`)
	lineStartRe   = regexp.MustCompile(`^[\s/#*;>!%-]*$`)
	wordNextRe    = regexp.MustCompile(`^[ \t]*[\pL\pN]`)
)

// markers names what authorship marker line holds, "" for none.
func markers(line string) string {
	lower := asciiLower(line) // the patterns are lower-case: A-Z folded, as for identities
	switch {
	case namedTrailer(line, lower):
		return "a trailer naming an author: " + clip(line)
	case strings.Contains(line, "🤖") || builtRe.MatchString(lower):
		return "a builder's stamp: " + clip(line)
	case emailAuthRe.MatchString(lower):
		return "an author with an email: " + clip(line)
	case atAuthorRe.MatchString(lower):
		return "an @author tag naming an author: " + clip(line)
	}
	return ""
}

// namedTrailer reports a Co-authored-by: or Signed-off-by: trailer that
// names someone: a name or an email follows it on the line, or it starts
// the line and a word follows. The bare text ("Co-authored-by:" in a
// string, "reads a Co-authored-by: line") names no one.
func namedTrailer(line, lower string) bool {
	for _, m := range trailerRe.FindAllStringIndex(lower, -1) {
		rest := line[m[1]:]
		if trailerNameRe.MatchString(rest) || emailRe.MatchString(rest) {
			return true
		}
		if lineStartRe.MatchString(line[:m[0]]) && wordNextRe.MatchString(rest) {
			return true
		}
	}
	return false
}

// clip trims a line for an error message.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > 80 {
		s = string([]rune(s)[:80]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// Scan finds each of ids (plus any Co-authored-by:/Signed-off-by:
// trailer, builder stamp like "Generated with …" or 🤖, and author marker
// with an email) in the envelope, whole-word and case-insensitive: in the
// contract, the context parts, every file body and the test checks, in
// that order. Leaks name the file (or "(contract)", "(context title)",
// "(context: Title)", "(test checks)") and the 1-based line.
func Scan(e *Envelope, ids []string) []Leak {
	var finders []finder
	for _, id := range ids {
		// an identity git hands back need not be UTF-8; the regexp must be
		id = strings.ToValidUTF8(strings.TrimSpace(id), "\uFFFD")
		if f, ok := newFinder(id); ok {
			finders = append(finders, f)
		}
	}
	var leaks []Leak
	scan := func(file, body string) { leaks = append(leaks, scanBody(file, nfc(body), finders)...) }
	scan("(contract)", e.Contract.Intent+"\n"+e.Contract.Criteria)
	for _, p := range e.Context {
		scan("(context title)", p.Title)
		scan("(context: "+p.Title+")", p.Body)
	}
	for _, f := range e.Files {
		// a path is shown in the envelope's headings: "Grace Hopper/notes.py"
		for _, l := range scanBody(f.Path, nfc(f.Path), finders) {
			l.Line, l.What = 0, "in the file's path: "+l.What
			leaks = append(leaks, l)
		}
		scan(f.Path, f.Body)
	}
	var checks []string
	for _, c := range e.Tests {
		checks = append(checks, c.Name+" "+c.File+" "+c.Detail)
	}
	scan("(test checks)", strings.Join(checks, "\n"))
	return leaks
}

// scanBody finds the leaks in one body, in line order (on a line, the
// marker first, then the identities in the order given). Each pattern
// runs once over the whole body, and the marker patterns only on the
// lines where a cheap search found a hint: a 1 MiB file takes
// milliseconds, not seconds (BenchmarkScan).
func scanBody(file, body string, finders []finder) []Leak {
	starts := []int{0} // the byte offset of each line
	for i := 0; i < len(body); i++ {
		if body[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	lineOf := func(off int) int { // 0-based
		i, found := slices.BinarySearch(starts, off)
		if !found {
			i--
		}
		return i
	}
	lineAt := func(n int) string {
		end := len(body)
		if n+1 < len(starts) {
			end = starts[n+1] - 1
		}
		return body[starts[n]:end]
	}
	// lines that may hold a marker: each marker's regexp needs one of
	// these words (searched in the ASCII-lowered body), 🤖 or an @
	lower := asciiLower(body)
	hints := map[int]bool{}
	for _, needle := range []string{"co-authored-by", "signed-off-by", "generated", "🤖", "@"} {
		for off := 0; ; {
			i := strings.Index(lower[off:], needle)
			if i < 0 {
				break
			}
			hints[lineOf(off+i)] = true
			off += i + len(needle)
		}
	}
	found := map[int][]string{} // line → what leaked there, in order
	for n := range hints {
		if m := markers(lineAt(n)); m != "" {
			found[n] = append(found[n], m)
		}
	}
	for _, f := range finders {
		last := -1
		for _, off := range f.wholeWords(body, lower) {
			if n := lineOf(off); n != last {
				found[n] = append(found[n], fmt.Sprintf("%q", f.id))
				last = n
			}
		}
	}
	lines := slices.Sorted(maps.Keys(found))
	var leaks []Leak
	for _, n := range lines {
		for _, what := range found[n] {
			leaks = append(leaks, Leak{File: file, Line: n + 1, What: what})
		}
	}
	return leaks
}

// finder finds one identity case-insensitively: an ASCII one by a plain
// search of the ASCII-lowered text (the same byte offsets), another by a
// regexp.
type finder struct {
	id    string
	lower string         // the id lowered, when it is ASCII (of more than one word: its first word)
	re    *regexp.Regexp // a non-ASCII id, or one of more than one word (anchored then at lower's hits)
}

// newFinder makes the finder of id; false for an empty id. The id is
// taken in Unicode NFC (as Scan takes the text) with its whitespace runs
// as one: a name with more than one word matches across any run of
// whitespace, a line break included ("Grace  Hopper", "Grace\nHopper",
// "Grace\n// Hopper").
func newFinder(id string) (finder, bool) {
	words := strings.Fields(nfc(id))
	if len(words) == 0 {
		return finder{}, false
	}
	id = strings.Join(words, " ")
	if isASCII(id) && len(words) == 1 {
		return finder{id: id, lower: asciiLower(id)}, true
	}
	f := finder{id: id}
	anchor := ""
	if isASCII(id) {
		// found by its first word's plain search, then the regexp tried
		// there only: a 1 MiB file stays milliseconds (BenchmarkScan)
		f.lower, anchor = asciiLower(words[0]), `\A`
	}
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	// between words: a whitespace run, and a comment's marks after a line
	// break ("Grace\n// Hopper")
	re, err := regexp.Compile(`(?i)` + anchor + strings.Join(words, `\s+(?:(?://+|#+|\*+|--|;+)\s*)?`))
	f.re = re
	return f, err == nil
}

// nfc is s in Unicode NFC ("José" typed as e and a combining accent is
// the same name); line breaks, so line numbers, are kept.
func nfc(s string) string {
	if norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

// wholeWords returns where the id starts in s (lower is s ASCII-lowered)
// with no letter, digit or _ glued to either end (where the id itself
// ends in one).
func (f finder) wholeWords(s, lower string) []int {
	var out []int
	check := func(a, b int) {
		first, _ := utf8.DecodeRuneInString(s[a:])
		last, _ := utf8.DecodeLastRuneInString(s[:b])
		before, _ := utf8.DecodeLastRuneInString(s[:a])
		after, _ := utf8.DecodeRuneInString(s[b:])
		if (a > 0 && isWord(first) && isWord(before)) || (b < len(s) && isWord(last) && isWord(after)) {
			return
		}
		out = append(out, a)
	}
	if f.re != nil && f.lower != "" {
		for off := 0; ; {
			i := strings.Index(lower[off:], f.lower)
			if i < 0 {
				return out
			}
			if m := f.re.FindStringIndex(s[off+i:]); m != nil && m[1] > 0 {
				check(off+i, off+i+m[1])
			}
			off += i + 1
		}
	}
	if f.re != nil {
		for _, m := range f.re.FindAllStringIndex(s, -1) {
			if m[0] < m[1] {
				check(m[0], m[1])
			}
		}
		return out
	}
	for off := 0; ; {
		i := strings.Index(lower[off:], f.lower)
		if i < 0 {
			return out
		}
		check(off+i, off+i+len(f.lower))
		off += i + 1
	}
}

// isASCII says whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiLower lowers A-Z only: every other byte, and so every offset,
// stays as it was.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// isWord says whether r can be part of a word.
func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
