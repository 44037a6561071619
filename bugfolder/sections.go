package bugfolder

import (
	"strings"
)

// Section is one level-2 ("## ") section of a Markdown body.
type Section struct {
	// Key is the protocol section the heading names, or SecUnknown.
	Key SectionKey
	// Heading is the heading text as written, without the "## ".
	Heading string
	// Inline is text after a colon on the heading line when the part before
	// the colon names a known section ("## Confiança: alta").
	Inline string
	// Line is the 1-based line of the heading within the body.
	Line int
	// Content is the text between this heading and the next level-2 heading.
	Content string
}

// Text returns the section's inline heading text (if any) followed by its
// content, trimmed.
func (s Section) Text() string {
	if s.Inline == "" {
		return strings.TrimSpace(s.Content)
	}
	return strings.TrimSpace(s.Inline + "\n" + s.Content)
}

// ParseSections splits a Markdown body at its level-2 ATX headings, ignoring
// headings inside fenced code blocks. pre is the text before the first
// level-2 heading (free text, a level-1 title).
func ParseSections(body string) (pre string, sections []Section) {
	body = normalizeString(body)
	var fence string // the open fence's marker run, "" when outside a fence
	var cur *Section
	// the pre-heading text and each section's content are slices of body
	// (its lines are contiguous): a large document is not copied again
	start := 0
	flush := func(end int) {
		if cur != nil {
			cur.Content = body[start:end]
			sections = append(sections, *cur)
		} else {
			pre = body[:end]
		}
	}
	for i, off := 0, 0; off < len(body); i++ {
		next := len(body)
		if nl := strings.IndexByte(body[off:], '\n'); nl >= 0 {
			next = off + nl + 1
		}
		line := strings.TrimRight(body[off:next], "\n")
		if nf, isFence := fenceStep(fence, line); isFence {
			fence = nf
		} else if fence == "" {
			if level, text, ok := atxHeading(line); ok && level == 2 {
				flush(off)
				key, inline := classifyHeading(text)
				cur = &Section{Key: key, Heading: text, Inline: inline, Line: i + 1}
				start = next
			}
		}
		off = next
	}
	flush(len(body))
	return pre, sections
}

// normalizeString is NormalizeText for a string, without a copy when it
// needs no normalizing (no BOM, no CR).
func normalizeString(s string) string {
	if !strings.HasPrefix(s, "\xef\xbb\xbf") && strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return NormalizeText([]byte(s))
}

// classifyHeading maps a heading to a section, also accepting a known
// heading followed by ": value" on the same line.
func classifyHeading(text string) (SectionKey, string) {
	if k := LookupSection(text); k != SecUnknown {
		return k, ""
	}
	for _, sep := range []string{":", " - ", " — ", " – "} {
		if before, after, ok := strings.Cut(text, sep); ok {
			if k := LookupSection(before); k != SecUnknown {
				return k, strings.TrimSpace(after)
			}
		}
	}
	// a trailing qualifier in parentheses ("Hipóteses (H1–H3)") moves below
	if t := strings.TrimSpace(text); strings.HasSuffix(t, ")") {
		if i := strings.LastIndex(t, "("); i > 0 {
			if k := LookupSection(t[:i]); k != SecUnknown {
				return k, t[i:]
			}
		}
	}
	return SecUnknown, ""
}

// fenceStep advances the fenced-code-block state over one line. fence is the
// open fence's marker run ("" outside a block); it returns the new state and
// whether the line was a fence line (an opening or a closing one).
func fenceStep(fence, line string) (string, bool) {
	marker, info, ok := fenceMarker(line)
	if !ok {
		return fence, false
	}
	if fence == "" {
		return marker, true
	}
	if marker[0] == fence[0] && len(marker) >= len(fence) && strings.TrimSpace(info) == "" {
		return "", true
	}
	return fence, false // a shorter or different run inside a block is content
}

// fenceMarker reports whether line starts with a code fence, and returns its
// marker run ("```", "~~~~") and the rest of the line (the info string).
func fenceMarker(line string) (string, string, bool) {
	t := line
	indent := 0
	for indent < len(t) && t[indent] == ' ' {
		indent++
	}
	if indent > 3 {
		return "", "", false
	}
	t = t[indent:]
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return "", "", false
	}
	c := t[0]
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 {
		return "", "", false
	}
	if c == '`' && strings.ContainsRune(t[n:], '`') {
		return "", "", false // an inline code span, not a fence
	}
	return t[:n], t[n:], true
}

// atxHeading parses an ATX heading line ("## Title ##") and returns its level
// and text.
func atxHeading(line string) (int, string, bool) {
	t := line
	indent := 0
	for indent < len(t) && t[indent] == ' ' {
		indent++
	}
	if indent > 3 {
		return 0, "", false
	}
	t = t[indent:]
	level := 0
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return 0, "", false
	}
	rest := t[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, "", false
	}
	rest = strings.TrimSpace(rest)
	// optional closing sequence of #s preceded by a space
	if j := strings.LastIndexFunc(rest, func(r rune) bool { return r != '#' }); j >= 0 && j < len(rest)-1 {
		if rest[j] == ' ' || rest[j] == '\t' {
			rest = strings.TrimSpace(rest[:j])
		}
	} else if j < 0 {
		rest = ""
	}
	return level, rest, true
}

// Headings lists every ATX heading of a Markdown text outside code fences,
// with its level, text and 0-based byte offset of the line start.
func Headings(text string) []Heading {
	var out []Heading
	var fence string
	off := 0
	for _, raw := range strings.SplitAfter(text, "\n") {
		line := strings.TrimRight(raw, "\n")
		if next, isFence := fenceStep(fence, line); isFence {
			fence = next
		} else if fence == "" {
			if level, t, ok := atxHeading(line); ok {
				out = append(out, Heading{Level: level, Text: t, Offset: off})
			}
		}
		off += len(raw)
	}
	return out
}

// Heading is one ATX heading found by Headings.
type Heading struct {
	Level  int
	Text   string
	Offset int
}
