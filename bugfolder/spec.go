package bugfolder

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

var explicitAnchor = regexp.MustCompile(`\s*\{#([^}\s]+)\}\s*$`)

// Slug returns the GitHub-style anchor of a heading: lower case, punctuation
// dropped (letters, digits, spaces, '-' and '_' kept), spaces turned into '-'.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// SpecSection finds the section of a Markdown text that anchor names: the
// heading whose explicit id is {#anchor}, or whose GitHub-style slug is
// anchor (duplicates numbered -1, -2 as GitHub does; a slug without accents
// also matches), down to the next heading of the same or a higher level.
// It returns the section including its heading line.
func SpecSection(text, anchor string) (string, bool) {
	anchor = strings.TrimPrefix(strings.TrimSpace(anchor), "#")
	hs := Headings(text)
	seen := map[string]int{}
	idx := -1
	for i, h := range hs {
		if m := explicitAnchor.FindStringSubmatch(h.Text); m != nil {
			if m[1] == anchor {
				idx = i
				break
			}
			continue
		}
		s := Slug(h.Text)
		n := seen[s]
		seen[s] = n + 1
		if n > 0 {
			s += "-" + strconv.Itoa(n)
		}
		if s == anchor || stripAccents(s) == stripAccents(strings.ToLower(anchor)) {
			idx = i
			break
		}
	}
	if idx < 0 {
		return "", false
	}
	start := hs[idx].Offset
	end := len(text)
	for _, h := range hs[idx+1:] {
		if h.Level <= hs[idx].Level {
			end = h.Offset
			break
		}
	}
	return strings.TrimRight(text[start:end], "\n") + "\n", true
}
