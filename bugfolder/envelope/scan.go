package envelope

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Identities returns the identity strings to scan for that git knows:
// commit author and committer names and emails in the range,
// Co-authored-by (and Signed-off-by) trailers, each name and email on
// its own. With change "" (--files) git names no one: nil.
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
	for _, field := range strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 || r == 1 || r == '\n' }) {
		name, email := splitPerson(field)
		add(name)
		add(email)
	}
	slices.Sort(ids)
	return ids, nil
}

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
// author with an email.
var (
	trailerRe = regexp.MustCompile(`(?i)\b(co-authored-by|signed-off-by)\s*:`)
	builtRe   = regexp.MustCompile(`(?i)\bgenerated\s+(with|by)\s+\[?\s*(claude|chatgpt|gpt|openai|copilot|codex|gemini|cursor|aider|qwen|devin|windsurf|an?\s+(ai|llm))`)
	authorRe  = regexp.MustCompile(`(?i)(@author\b|\b(author|authored by|written by|maintainer)\s*:?\s+[^\s@]*\S*@[\w-]+\.\w)|[\pL\pN][^<>\n]{0,80}<[\w.+-]+@[\w-]+(\.[\w-]+)+>`)
)

// markers names what authorship marker line holds, "" for none.
func markers(line string) string {
	switch {
	case trailerRe.MatchString(line):
		return "a trailer naming an author: " + clip(line)
	case strings.Contains(line, "🤖") || builtRe.MatchString(line):
		return "a builder's stamp: " + clip(line)
	case authorRe.MatchString(line):
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
	var res []*regexp.Regexp
	var names []string
	for _, id := range ids {
		// an identity git hands back need not be UTF-8; the regexp must be
		id = strings.ToValidUTF8(strings.TrimSpace(id), "\uFFFD")
		if id == "" {
			continue
		}
		re, err := regexp.Compile(`(?i)` + regexp.QuoteMeta(id))
		if err != nil {
			continue
		}
		res = append(res, re)
		names = append(names, id)
	}
	var leaks []Leak
	scan := func(file, body string) {
		for i, line := range strings.Split(body, "\n") {
			if m := markers(line); m != "" {
				leaks = append(leaks, Leak{File: file, Line: i + 1, What: m})
			}
			for j, re := range res {
				if wholeWord(re, line) {
					leaks = append(leaks, Leak{File: file, Line: i + 1, What: fmt.Sprintf("%q", names[j])})
				}
			}
		}
	}
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

// wholeWord says whether re matches in line with no letter, digit or _
// glued to either end (where the match itself ends in one).
func wholeWord(re *regexp.Regexp, line string) bool {
	for _, m := range re.FindAllStringIndex(line, -1) {
		if m[0] == m[1] {
			continue
		}
		first, _ := utf8.DecodeRuneInString(line[m[0]:])
		last, _ := utf8.DecodeLastRuneInString(line[:m[1]])
		before, _ := utf8.DecodeLastRuneInString(line[:m[0]])
		after, _ := utf8.DecodeRuneInString(line[m[1]:])
		if (m[0] > 0 && isWord(first) && isWord(before)) || (m[1] < len(line) && isWord(last) && isWord(after)) {
			continue
		}
		return true
	}
	return false
}

// isWord says whether r can be part of a word.
func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
