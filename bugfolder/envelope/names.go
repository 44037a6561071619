package envelope

import (
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	xrunes "golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/reversa/moot/internal/lazyre"
)

// Thresholds of the name match (docs/protocols/review.md, the
// envelope): what is too short to be told from ordinary text.
const (
	// minName is the fewest letters and digits a person's name must
	// have to be scanned for ("Al", "Li" alone are in every HTML file).
	minName = 3
	// minLabel is the fewest an engine's name or a model id must have.
	minLabel = 4
	// minGlued is the fewest letters two parts of a name need each to
	// be found glued ("GraceHopper"; "Go Lang" is not "golang").
	minGlued = 3
	// minInitialLast is the fewest letters the last part needs for the
	// initials form ("G. Hopper"; "J. Wu" would be "j.wu" in code).
	minInitialLast = 4
)

// sepClass is what may stand between the parts of a name: any space
// (Unicode's too: no-break, em, the line separator), a line break, a
// comment's marks, punctuation ("." "-" "," "_") and symbols.
const sepClass = `[\s\p{Z}\p{P}\p{S}\x{85}]`

// fold is s as the scan reads it: Unicode compatibility-decomposed (a
// fullwidth "Ｇrace" is "Grace", a no-break or em space a space), its
// accents and other combining marks dropped ("José Núñez" is "Jose
// Nunez", however it was typed), and the characters that show nothing
// dropped too — format characters (zero-width space, soft hyphen, byte
// order mark) and the other default-ignorable ones (the combining
// grapheme joiner U+034F, the Hangul fillers U+3164 and U+FFA0) — a
// Cyrillic or Greek letter drawn as a Latin one read as that letter
// (lookAlikes), then recomposed; line breaks, so line numbers, stay.
func fold(s string) string {
	s = unescape(s)
	if isASCII(s) {
		return s
	}
	out, _, err := transform.String(folder(), s)
	if err != nil {
		return s // a transform of a string in memory does not fail
	}
	return out
}

// unescape reads the escapes a file may spell a name with as the
// characters they stand for: HTML entities ("Ada&nbsp;Lovelace",
// "ada&#64;example.org") and Go or JSON string escapes
// ("Ada\u0020Lovelace", "Ada\x20Lovelace"). Line by line: an escaped
// line end reads as a space, so a leak's line number stays the file's.
func unescape(s string) string {
	if !strings.ContainsAny(s, "&\\") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if !strings.ContainsAny(l, "&\\") {
			continue
		}
		l = stringEscape.ReplaceAllStringFunc(l, func(e string) string {
			n, err := strconv.ParseUint(e[2:], 16, 32)
			if err != nil || !utf8.ValidRune(rune(n)) {
				return e
			}
			return string(rune(n))
		})
		if strings.ContainsRune(l, '&') {
			l = html.UnescapeString(l)
		}
		lines[i] = strings.NewReplacer("\n", " ", "\r", " ").Replace(l)
	}
	return strings.Join(lines, "\n")
}

// stringEscape is a Go or JSON string escape of one character.
var stringEscape = lazyre.New(`\\(?:u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2})`)

// folder is fold's chain (golang.org/x/text): NFKD, drop the invisible
// and the marks, read a look-alike letter of another script as its Latin
// twin, NFC. A new one for each string: a chain holds its buffers (tens of
// kilobytes, which a package-level chain would allocate at every start)
// and is not safe for use by two goroutines at once.
func folder() transform.Transformer {
	return transform.Chain(norm.NFKD, xrunes.Remove(xrunes.Predicate(invisible)), xrunes.Map(latinTwin), norm.NFC)
}

// lookAlikes are the Cyrillic and Greek letters drawn as a Latin one
// ("\u0410da" reads as Ada): a name spelt with them is the name.
var lookAlikes = map[rune]rune{
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T',
	'У': 'Y', 'Х': 'X', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ԁ': 'D', 'Ԛ': 'Q', 'Ԝ': 'W',
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j',
	'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v', 'ι': 'i', 'α': 'a', 'ρ': 'p', 'τ': 't',
	'ı': 'i', 'ɑ': 'a', 'ɡ': 'g', 'ǀ': 'l',
}

// latinTwin is r's Latin twin when it is a look-alike, else r.
func latinTwin(r rune) rune {
	if l, ok := lookAlikes[r]; ok {
		return l
	}
	return r
}

// invisible says whether r is dropped by fold: a combining mark, a format
// character or another default-ignorable code point.
func invisible(r rune) bool {
	return unicode.Is(unicode.Mn, r) || isFormat(r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r)
}

// isFormat says whether r is an invisible format character.
func isFormat(r rune) bool { return unicode.Is(unicode.Cf, r) }

// isAlnum says whether r belongs to a name's part.
func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// isWord says whether r can be part of a word (an identifier's too).
func isWord(r rune) bool { return r == '_' || isAlnum(r) }

// partsOf splits a folded name into its parts: the runs of letters and
// digits, each cut again where a lower-case letter meets an upper-case
// one when camel ("GraceHopper" is Grace, Hopper).
func partsOf(s string, camel bool) []string {
	var parts []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !isAlnum(r) }) {
		start, prev := 0, rune(0)
		for i, r := range w {
			if camel && unicode.IsLower(prev) && unicode.IsUpper(r) {
				parts = append(parts, w[start:i])
				start = i
			}
			prev = r
		}
		parts = append(parts, w[start:])
	}
	return parts
}

// runes counts the letters and digits of parts.
func runes(parts []string) int {
	n := 0
	for _, p := range parts {
		n += utf8.RuneCountInString(p)
	}
	return n
}

// nameForms lists the forms a person's name of several parts is found
// in, each a sequence of parts: in order; first and last only (middle
// names dropped); reversed ("Hopper, Grace"); initials then the last part
// ("G. Hopper", "G. B. Hopper") when the last part is long enough.
func nameForms(parts []string) [][]string {
	n := len(parts)
	first, last := parts[0], parts[n-1]
	forms := [][]string{parts, {last, first}}
	if n > 2 {
		forms = append(forms, []string{first, last})
	}
	if utf8.RuneCountInString(last) >= minInitialLast {
		var inits []string
		for _, p := range parts[:n-1] {
			r, _ := utf8.DecodeRuneInString(p)
			inits = append(inits, string(r))
		}
		forms = append(forms, []string{inits[0], last})
		if n > 2 {
			forms = append(forms, append(inits, last))
		}
	}
	return forms
}

// formRe is the regexp of one form: its parts joined by a run of
// separators — or by nothing where both parts are at least glue letters
// long (glue 0: always).
func formRe(parts []string, glue int) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			short := utf8.RuneCountInString(parts[i-1]) < glue || utf8.RuneCountInString(p) < glue
			b.WriteString(sepClass)
			if short {
				b.WriteString("+")
			} else {
				b.WriteString("*")
			}
		}
		b.WriteString(regexp.QuoteMeta(p))
	}
	return b.String()
}

// finder finds one identity case-insensitively: by a plain search of the
// ASCII-lowered text when the identity is one ASCII word, else by its
// regexp, tried only on the lines around each hit of its anchor.
type finder struct {
	id     string         // as a leak names it
	anchor string         // lower-cased text every match holds
	re     *regexp.Regexp // the identity's forms; nil for a plain search of anchor
	span   int            // lines a match may reach on either side of its anchor
	loose  bool           // "_" and a case change ("byGrace") end a word
}

// newNameFinder makes the finder of a person's name or email; false
// when there is nothing to find (empty, or a name of fewer than minName
// letters). An email is found as written; a name of one part as a whole
// word; a name of several parts in any of its nameForms, whole-word.
func newNameFinder(id string) (finder, bool) {
	id = fold(strings.Join(strings.Fields(strings.ToValidUTF8(id, "\uFFFD")), " "))
	if strings.Contains(id, "@") {
		return literalFinder(id, id, false)
	}
	parts := partsOf(id, true)
	switch {
	case runes(parts) < minName:
		return finder{}, false
	case len(parts) == 1:
		return literalFinder(id, parts[0], false)
	}
	var alts []string
	for _, f := range nameForms(parts) {
		alts = append(alts, formRe(f, minGlued))
	}
	return formsFinder(id, parts[len(parts)-1], alts, len(parts))
}

// newLabelFinder makes the finder of an engine's name or a model id:
// its parts in order, joined by any separators or none; false below
// minLabel letters.
func newLabelFinder(id string) (finder, bool) {
	id = fold(strings.TrimSpace(strings.ToValidUTF8(id, "\uFFFD")))
	parts := partsOf(id, false)
	if runes(parts) < minLabel {
		return finder{}, false
	}
	if len(parts) == 1 {
		f, ok := literalFinder(id, parts[0], true)
		return f, ok
	}
	longest := slices.MaxFunc(parts, func(a, b string) int { return len(a) - len(b) })
	return formsFinder(id, longest, []string{formRe(parts, 0)}, len(parts))
}

// literalFinder finds text as it is (case-insensitively), whole-word.
func literalFinder(id, text string, loose bool) (finder, bool) {
	if text == "" {
		return finder{}, false
	}
	if isASCII(text) {
		return finder{id: id, anchor: asciiLower(text), loose: loose}, true
	}
	re, err := regexp.Compile(`(?i)` + regexp.QuoteMeta(text))
	return finder{id: id, anchor: strings.ToLower(text), re: re, loose: loose}, err == nil
}

// formsFinder finds any of the alternatives, anchored at part.
func formsFinder(id, part string, alts []string, n int) (finder, bool) {
	re, err := regexp.Compile(`(?i)(?:` + strings.Join(alts, "|") + `)`)
	return finder{id: id, anchor: strings.ToLower(part), re: re, span: 2 * n, loose: true}, err == nil
}

// text is a folded body with what the finders search.
type text struct {
	body   string
	starts []int  // byte offset of each line
	alower string // A-Z lowered: the same offsets as body
	ulower string // Unicode-lowered, with its own line starts (made when asked)
	ustart []int
}

// newText indexes a body's lines.
func newText(body string) *text {
	t := &text{body: body, starts: []int{0}, alower: asciiLower(body)}
	for i := 0; i < len(body); i++ {
		if body[i] == '\n' {
			t.starts = append(t.starts, i+1)
		}
	}
	return t
}

// lineIn is the 0-based line of off, given the lines' starts.
func lineIn(starts []int, off int) int {
	i, found := slices.BinarySearch(starts, off)
	if !found {
		i--
	}
	return i
}

// line returns line n without its line break.
func (t *text) line(n int) string {
	end := len(t.body)
	if n+1 < len(t.starts) {
		end = t.starts[n+1] - 1
	}
	return t.body[t.starts[n]:end]
}

// lowered returns the text the anchor is searched in and its lines'
// starts: the ASCII-lowered body for an ASCII anchor, else the Unicode-
// lowered one.
func (t *text) lowered(anchor string) (string, []int) {
	if isASCII(anchor) || isASCII(t.body) {
		return t.alower, t.starts
	}
	if t.ustart == nil {
		t.ulower = strings.ToLower(t.body)
		t.ustart = newText(t.ulower).starts
	}
	return t.ulower, t.ustart
}

// lines returns the 0-based lines where the identity starts, sorted and
// unique.
func (f finder) lines(t *text) []int {
	var out []int
	add := func(off int) {
		if n := lineIn(t.starts, off); len(out) == 0 || out[len(out)-1] != n {
			out = append(out, n)
		}
	}
	low, starts := t.lowered(f.anchor)
	for off := 0; off < len(low); {
		i := strings.Index(low[off:], f.anchor)
		if i < 0 {
			break
		}
		hit := off + i
		if f.re == nil {
			if f.whole(t.body, hit, hit+len(f.anchor)) {
				add(hit)
			}
			off = hit + 1
			continue
		}
		n := lineIn(starts, hit)
		for _, a := range f.matches(t, max(0, n-f.span), min(len(t.starts)-1, n+f.span)) {
			add(a)
		}
		if n+1 >= len(starts) {
			break
		}
		off = starts[n+1] // the window covered this line's hits
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// matches returns where f's regexp matches whole-word in lines from..to.
func (f finder) matches(t *text, from, to int) []int {
	end := len(t.body)
	if to+1 < len(t.starts) {
		end = t.starts[to+1]
	}
	var out []int
	for off := t.starts[from]; off < end; {
		m := f.re.FindStringIndex(t.body[off:end])
		if m == nil {
			break
		}
		a, b := off+m[0], off+m[1]
		if b > a && f.whole(t.body, a, b) {
			out = append(out, a)
			off = b
			continue
		}
		_, size := utf8.DecodeRuneInString(t.body[a:])
		off = a + max(size, 1)
	}
	return out
}

// whole says whether s[a:b] is glued to no word on either side.
func (f finder) whole(s string, a, b int) bool {
	first, _ := utf8.DecodeRuneInString(s[a:])
	last, _ := utf8.DecodeLastRuneInString(s[:b])
	if before, _ := utf8.DecodeLastRuneInString(s[:a]); a > 0 && f.glued(before, first) {
		return false
	}
	after, _ := utf8.DecodeRuneInString(s[b:])
	return b == len(s) || !f.glued(last, after)
}

// glued says whether x then y are one word: letters, digits and "_" for a
// single word; for a name of several parts or a label, letters and digits
// unless the case changes from lower to upper ("byGraceHopper").
func (f finder) glued(x, y rune) bool {
	if !f.loose {
		return isWord(x) && isWord(y)
	}
	return isAlnum(x) && isAlnum(y) && !(unicode.IsLower(x) && unicode.IsUpper(y))
}
