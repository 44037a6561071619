package envelope

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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
	const format = "%an%x00%ae%x00%cn%x00%ce%x00%(trailers:key=Co-authored-by,key=Signed-off-by,valueonly,separator=%x00)%x01"
	out, err := git(repo, "log", "--format="+format, a+".."+b, "--")
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
			add(name)
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
		fmt.Fprintf(&b, "\n  %s:%d: %s", l.File, l.Line, l.What)
	}
	b.WriteString("\nremove these names, emails and trailers from the files (a juror must not know who built the change), then run the review again")
	return b.String()
}

// Markers of authorship whatever the name: trailers, builder stamps, an
// author with an email; matched on the ASCII-lowered line. Each needs a
// word scanBody searches first (co-authored-by, signed-off-by, generated,
// @): keep them so.
var (
	trailerRe = regexp.MustCompile(`\b(co-authored-by|signed-off-by)\s*:`)
	builtRe   = regexp.MustCompile(`\bgenerated\s+(with|by)\s+\[?\s*(claude|chatgpt|gpt|openai|copilot|codex|gemini|cursor|aider|qwen|devin|windsurf|an?\s+(ai|llm))`)
	authorRe  = regexp.MustCompile(`(?i)(@author\b|\b(author|authored by|written by|maintainer)\s*:?\s+[^\s@]*\S*@[\w-]+\.\w)|[\pL\pN][^<>\n]{0,80}<[\w.+-]+@[\w-]+(\.[\w-]+)+>`)
)

// markers names what authorship marker line holds, "" for none.
func markers(line string) string {
	lower := asciiLower(line) // the patterns are lower-case: A-Z folded, as for identities
	switch {
	case trailerRe.MatchString(lower):
		return "a trailer naming an author: " + clip(line)
	case strings.Contains(line, "🤖") || builtRe.MatchString(lower):
		return "a builder's stamp: " + clip(line)
	case authorRe.MatchString(lower):
		return "an author with an email: " + clip(line)
	}
	return ""
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
	scan := func(file, body string) { leaks = append(leaks, scanBody(file, body, finders)...) }
	scan("(contract)", e.Contract.Intent+"\n"+e.Contract.Criteria)
	for _, p := range e.Context {
		scan("(context title)", p.Title)
		scan("(context: "+p.Title+")", p.Body)
	}
	for _, f := range e.Files {
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
	lower string         // the id lowered, when it is ASCII
	re    *regexp.Regexp // else
}

// newFinder makes the finder of id; false for an empty id.
func newFinder(id string) (finder, bool) {
	if id == "" {
		return finder{}, false
	}
	if isASCII(id) {
		return finder{id: id, lower: asciiLower(id)}, true
	}
	re, err := regexp.Compile(`(?i)` + regexp.QuoteMeta(id))
	return finder{id: id, re: re}, err == nil
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
