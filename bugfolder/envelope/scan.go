package envelope

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/reversa/moot/internal/lazyre"
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
	// the git user about to commit them: a new file has no commit to name anyone
	user := committer(repo)
	if _, err := git(repo, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return identitiesFrom(user), nil // no commit yet: git names only its user
	}
	args := []string{"log", "-n", strconv.Itoa(MaxFileCommits), "--format=" + identityFormat, "HEAD", "--"}
	out, err := git(repo, append(args, files...)...)
	if err != nil {
		return nil, fmt.Errorf("--files: read the authors of the commits that touched them: %w", err)
	}
	return identitiesFrom(user + string(out)), nil
}

// committer is the git user of repo (user.name and user.email, as the
// next commit would record them) as one record of identityFormat, or ""
// when git names none.
func committer(repo string) string {
	var f [2]string
	for i, key := range []string{"user.name", "user.email"} {
		if out, err := git(repo, "config", "--get", key); err == nil {
			f[i] = strings.TrimSpace(string(out))
		}
	}
	if f[0] == "" && f[1] == "" {
		return ""
	}
	return f[0] + "\x00" + f[1] + "\x00\x00\x00\x01"
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
	b.WriteString("\nremove these names, emails and trailers from where they are named (the files, the contract, the lens texts: a juror must not know who built the change), then run the review again")
	return b.String()
}

// Markers of authorship whatever the name: trailers, builder stamps, an
// author tag, an author with an email; matched on the ASCII-lowered line.
// Each needs a word scanBody searches first (co-authored-by,
// signed-off-by, generated, @): keep them so.
var (
	trailerRe   = lazyre.New(`\b(co-authored-by|signed-off-by)\s*:`)
	builtRe     = lazyre.New(`\bgenerated\s+(with|by)\s+\[?\s*(claude|chatgpt|gpt|openai|copilot|codex|gemini|cursor|aider|qwen|devin|windsurf|an?\s+(ai|llm))`)
	atAuthorRe  = lazyre.New(`@author\b[ \t]*\S`)
	emailAuthRe = lazyre.New(`(?i)\b(author|authored by|written by|maintainer)\s*:?\s+[^\s@]*\S*@[\w-]+\.\w|[\pL\pN][^<>\n]{0,80}<[\w.+-]+@[\w-]+(\.[\w-]+)+>`)
	// a trailer names someone when a name (a capitalised word) or an
	// email follows it, or anything does at the start of a line (after
	// a comment's marks)
	trailerNameRe = lazyre.New(`^[ \t]*(\p{Lu}|[^\s<>]*@[\w-]+\.\w|<[^>]*@)`)
	emailRe       = lazyre.New(`[\w.+-]+@[\w-]+\.[\w.-]+`)
	lineStartRe   = lazyre.New(`^[\s/#*;>!%-]*$`)
	wordNextRe    = lazyre.New(`^[ \t]*[\pL\pN]`)
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

// Who is whom a review's jurors must not learn of.
type Who struct {
	// People are git's names and emails of the change's authors,
	// committers and trailers: a name is found however it is written
	// (nameForms).
	People []string
	// Labels are the builder's and the panel's engine names and model
	// ids: found as written, their parts joined by anything or nothing
	// ("gpt-4o", "GPT 4o", "gpt4o").
	Labels []string
}

// Scan finds each of who's identities (plus any Co-authored-by:/
// Signed-off-by: trailer, builder stamp like "Generated with …" or 🤖,
// and author marker with an email) in everything a juror reads: the
// contract, the context parts, every file's path and body, the test
// checks and the texts also given (the lenses the prompt adds to the
// envelope), in that order. Both sides are folded first (fold). Leaks
// name the file (or "(contract)", "(context title)", "(context: Title)",
// "(test checks)", "(Title)" of an also part) and the 1-based line.
func Scan(e *Envelope, who Who, also ...Part) []Leak {
	var finders []finder
	for _, id := range who.People {
		if f, ok := newNameFinder(id); ok {
			finders = append(finders, f)
		}
	}
	for _, id := range who.Labels {
		if f, ok := newLabelFinder(id); ok {
			finders = append(finders, f)
		}
	}
	var leaks []Leak
	scan := func(file, body string) { leaks = append(leaks, scanBody(file, fold(body), finders)...) }
	scan("(contract)", e.Contract.Intent+"\n"+e.Contract.Criteria)
	for _, p := range e.Context {
		scan("(context title)", p.Title)
		scan("(context: "+p.Title+")", p.Body)
	}
	for _, f := range e.Files {
		// a path is shown in the envelope's headings: "Grace Hopper/notes.py"
		for _, l := range scanBody(f.Path, fold(f.Path), finders) {
			l.Line, l.What = 0, "in the file's path: "+l.What
			leaks = append(leaks, l)
		}
		scan(f.Path, notIdentityText(f.Path, f.Body))
	}
	var checks []string
	for _, c := range e.Tests {
		checks = append(checks, c.Name+" "+c.File+" "+c.Detail)
	}
	scan("(test checks)", strings.Join(checks, "\n"))
	for _, p := range also {
		scan("("+p.Title+")", p.Body)
	}
	return leaks
}

// notIdentityText is a file's body with what a juror never reads as
// anyone's identity blanked (spaces of the same length, so lines and
// offsets stay): the path /dev/null anywhere (an author named "dev" is
// not in "> /dev/null"), and in a diff or patch (its path ends .diff or
// .patch, or it opens with "diff --git") its header lines — "diff --git",
// "index", "--- a/…", "+++ b/…", "new file mode", "rename from"… —
// which are git's paths and ids, not text (a removed line "-- by Ada" is
// still scanned). The file's path itself is scanned apart.
func notIdentityText(path, body string) string {
	const devNull = "/dev/null"
	lower := strings.ToLower(path)
	isDiff := strings.HasSuffix(lower, ".diff") || strings.HasSuffix(lower, ".patch") || strings.HasPrefix(body, "diff --git ")
	if !isDiff && !strings.Contains(body, devNull) {
		return body
	}
	lines := strings.SplitAfter(body, "\n")
	for i, l := range lines {
		if isDiff && diffHeader(l) {
			lines[i] = blank(l)
			continue
		}
		lines[i] = strings.ReplaceAll(l, devNull, strings.Repeat(" ", len(devNull)))
	}
	return strings.Join(lines, "")
}

// diffHeaders open the header lines of a git diff.
var diffHeaders = []string{"diff --git ", "index ", "--- a/", "+++ b/", "--- /dev/null", "+++ /dev/null", "new file mode ", "deleted file mode ", "old mode ", "new mode ",
	"similarity index ", "dissimilarity index ", "rename from ", "rename to ", "copy from ", "copy to "}

// diffHeader says whether a line of a diff is one of its headers.
func diffHeader(line string) bool {
	return slices.ContainsFunc(diffHeaders, func(h string) bool { return strings.HasPrefix(line, h) })
}

// blank is a line as spaces, its line end kept.
func blank(line string) string {
	body := strings.TrimRight(line, "\r\n")
	return strings.Repeat(" ", len(body)) + line[len(body):]
}

// scanBody finds the leaks in one folded body, in line order (on a line,
// the marker first, then the identities in the order given). Each
// identity's anchor is searched once over the whole body, its forms tried
// only around the anchor's lines, and the marker patterns only on the
// lines where a cheap search found a hint: a 1 MiB file takes
// milliseconds, not seconds (BenchmarkScan).
func scanBody(file, body string, finders []finder) []Leak {
	t := newText(body)
	// lines that may hold a marker: each marker's regexp needs one of
	// these words (searched in the ASCII-lowered body), 🤖 or an @
	hints := map[int]bool{}
	for _, needle := range []string{"co-authored-by", "signed-off-by", "generated", "🤖", "@"} {
		for off := 0; ; {
			i := strings.Index(t.alower[off:], needle)
			if i < 0 {
				break
			}
			hints[lineIn(t.starts, off+i)] = true
			off += i + len(needle)
		}
	}
	found := map[int][]string{} // line → what leaked there, in order
	for n := range hints {
		if m := markers(t.line(n)); m != "" {
			found[n] = append(found[n], m)
		}
	}
	for _, f := range finders {
		for _, n := range f.lines(t) {
			found[n] = append(found[n], fmt.Sprintf("%q", f.id))
		}
	}
	var leaks []Leak
	for _, n := range slices.Sorted(maps.Keys(found)) {
		for _, what := range found[n] {
			leaks = append(leaks, Leak{File: file, Line: n + 1, What: what})
		}
	}
	return leaks
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
