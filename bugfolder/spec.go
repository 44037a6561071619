package bugfolder

import (
	"github.com/reversa/moot/internal/lazyre"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

var explicitAnchor = lazyre.New(`\s*\{#([^}\s]+)\}\s*$`)

var (
	// attrAnchor is a Pandoc or kramdown attribute block on a heading:
	// {#id .class key=v}, {: #id}
	attrAnchor = lazyre.New(`\s*\{:?\s*(?:[.\w-]+(?:=\S*)?\s+)*#([^}\s]+)[^}]*\}\s*$`)
	// htmlAnchor is an HTML anchor: <a id="x"></a>, <a name="x">
	htmlAnchor = lazyre.New(`<a\s+(?:[^>]*\s)?(?:id|name)\s*=\s*["']([^"']+)["'][^>]*>(?:\s*</a>)?`)
	setextLine = lazyre.New(`^ {0,3}(=+|-+)\s*$`)
)

// specHeading is a heading of a spec file with the ids written for it.
type specHeading struct {
	Heading
	ids []string
}

// specHeadings finds a spec file's headings, ATX and setext ("Limits" over
// a line of - or =), each with its explicit ids: {#id}, a Pandoc or
// kramdown attribute block ({#id .class}, {: #id} on the heading or the
// line below), an HTML anchor in the heading or on the line above. The
// heading text is returned without them.
func specHeadings(text string) []specHeading {
	lines := strings.SplitAfter(text, "\n")
	var out []specHeading
	var fence string
	off := 0
	inFront := strings.HasPrefix(text, "---\n")
	for i, raw := range lines {
		line := strings.TrimRight(raw, "\r\n")
		start := off
		off += len(raw)
		if inFront {
			if i > 0 && (line == "---" || line == "...") {
				inFront = false
			}
			continue
		}
		if next, isFence := fenceStep(fence, line); isFence {
			fence = next
			continue
		} else if fence != "" {
			continue
		}
		var h specHeading
		if level, t, ok := atxHeading(line); ok {
			h = specHeading{Heading: Heading{Level: level, Text: t, Offset: start}}
		} else if m := setextLine.FindStringSubmatch(line); m != nil && i > 0 && setextText(lines[i-1]) {
			level := 2
			if m[1][0] == '=' {
				level = 1
			}
			prev := lines[i-1]
			h = specHeading{Heading: Heading{Level: level, Text: strings.TrimSpace(prev), Offset: start - len(prev)}}
			if n := len(out); n > 0 && out[n-1].Offset == h.Offset {
				continue
			}
		} else {
			continue
		}
		h.Text, h.ids = headingIDs(h.Text)
		if i > 0 {
			for _, m := range htmlAnchor.FindAllStringSubmatch(lines[max(0, i-1)], -1) {
				h.ids = append(h.ids, m[1])
			}
		}
		if i+1 < len(lines) {
			if m := attrAnchor.FindStringSubmatch(lines[i+1]); m != nil && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "{:") {
				h.ids = append(h.ids, m[1])
			}
		}
		out = append(out, h)
	}
	return out
}

// setextText reports whether a line can be a setext heading's text: a
// paragraph line, not a list item, table row, quote or heading.
func setextText(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || strings.HasPrefix(line, "    ") {
		return false
	}
	switch t[0] {
	case '#', '|', '>', '-', '*', '+', '<', '{':
		return false
	}
	return !setextLine.MatchString(line)
}

// headingIDs cuts the explicit ids from a heading's text.
func headingIDs(text string) (string, []string) {
	var ids []string
	for _, re := range []*lazyre.Regexp{explicitAnchor, attrAnchor} {
		if m := re.FindStringSubmatchIndex(text); m != nil {
			ids = append(ids, text[m[2]:m[3]])
			text = strings.TrimSpace(text[:m[0]])
		}
	}
	for _, m := range htmlAnchor.FindAllStringSubmatch(text, -1) {
		ids = append(ids, m[1])
	}
	return strings.TrimSpace(htmlAnchor.ReplaceAllString(text, "")), ids
}

// plainHeadings drops the ids of spec headings.
func plainHeadings(hs []specHeading) []Heading {
	out := make([]Heading, len(hs))
	for i, h := range hs {
		out[i] = h.Heading
	}
	return out
}

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

// LocRule names the rule that located a part of the effective spec.
type LocRule string

// The rules a spec locator is resolved by, tried in this order (docs/registers.md).
const (
	// RuleWholeFile: the locator has no anchor; the whole file.
	RuleWholeFile LocRule = "whole-file"
	// RuleExplicitID: the heading that carries {#anchor}.
	RuleExplicitID LocRule = "explicit-id"
	// RuleHeadingSlug: the heading whose GitHub-style slug is the anchor.
	RuleHeadingSlug LocRule = "heading-slug"
	// RuleLineRange: a GitHub line anchor (#L120, #L225-L245): those lines.
	RuleLineRange LocRule = "line-range"
	// RuleHeadingNumber: a bare number (#2): the heading numbered 2.
	RuleHeadingNumber LocRule = "heading-number"
	// RuleRequirementID: an ID such as RF-06 or T006: the table row with its
	// header, the list item, the paragraph or the heading section holding it.
	RuleRequirementID LocRule = "requirement-id"
	// RuleAddendum: an addendum in force for a located file.
	RuleAddendum LocRule = "addendum"
	// RuleSlugHyphens: the heading whose slug is the anchor once every run
	// of hyphens counts as one (GitHub leaves "--" where it drops an emoji
	// or a dash; hosts write one, or the reverse).
	RuleSlugHyphens LocRule = "heading-slug-hyphens"
	// RuleSlugNumber: the heading whose slug is the anchor but for a
	// leading number one of them has and the other lost
	// (#3-regras-de-negócio for "## Regras de Negócio").
	RuleSlugNumber LocRule = "heading-slug-number"
	// RuleNumberWords: an anchor <n>-words the host shortened
	// (#4-usuarios-e-perfis-de-acesso-rbac): the heading numbered n that
	// holds every word of the anchor.
	RuleNumberWords LocRule = "numbered-heading-words"
	// RuleTableCell: an anchor that is the slug of a table cell, as an
	// addendum's impact table names the section it amends ("| §6.1
	// Requisitos Funcionais |" for #61-requisitos-funcionais): those rows
	// with the table's header.
	RuleTableCell LocRule = "table-cell"
	// RuleItemLabel: an anchor that names a list item's label — its bold
	// lead ("- **A7. Configurações:** …" for #A7-configuracoes) or the
	// words before its colon, some dropped ("- Endpoints de Apontamento
	// (…):" for #endpoints-apontamento): that item.
	RuleItemLabel LocRule = "list-item-label"
	// RuleSlugWords: an unnumbered anchor the host shortened (#known-gaps
	// for "## Known Gaps and Open Questions"): the one heading whose slug
	// holds every word of the anchor, in order.
	RuleSlugWords LocRule = "heading-slug-words"
	// RuleBareLine: a bare number no heading carries (SKILL.md#82): the
	// block of text holding that line.
	RuleBareLine LocRule = "bare-line"
)

// Locator is a parsed traceability.specs entry ("path#anchor comment").
type Locator struct {
	// Raw is the entry as written.
	Raw string
	// Path is the file part, Anchor the part after the first '#' cut at its
	// first space, and Comment what was cut off (without surrounding space).
	Path, Anchor, Comment string
}

// ParseLocator splits a traceability.specs entry into its path, anchor and
// trailing comment. The anchor is cut at its first white space
// ("req.md#requisitos-funcionais (RF-01 …)" has anchor
// "requisitos-funcionais" and comment "(RF-01 …)"); without an anchor, a
// comment after the path starts at " (" or " —". A path that ends in
// ":3" or ":3-5" names those lines, as "#L3" and "#L3-L5" do.
func ParseLocator(raw string) Locator {
	s := strings.Trim(strings.TrimSpace(raw), "`") // copied as a code span
	l := Locator{Raw: raw}
	path, anchor, hasAnchor := strings.Cut(s, "#")
	if !hasAnchor {
		for _, sep := range []string{" (", " — ", " - ", " – "} {
			if p, c, ok := strings.Cut(path, sep); ok {
				path, l.Comment = p, strings.TrimSpace(strings.TrimPrefix(sep, " ")+c)
				break
			}
		}
		l.Path = strings.TrimSpace(path)
		if m := colonLineRE.FindStringSubmatch(l.Path); m != nil {
			l.Path, l.Anchor = m[1], "L"+m[2]
			if m[3] != "" {
				l.Anchor += "-L" + m[3]
			}
		}
		return l
	}
	l.Path = strings.TrimSpace(path)
	if i := strings.IndexFunc(anchor, func(r rune) bool { return unicode.IsSpace(r) || r == ',' }); i >= 0 {
		l.Comment = strings.TrimSpace(anchor[i:])
		anchor = anchor[:i]
	}
	anchor = strings.TrimRight(strings.TrimLeft(anchor, "#"), ":;.)")
	if strings.Contains(anchor, "%") { // a copied link: #requisitos-n%C3%A3o-funcionais
		if u, err := url.PathUnescape(anchor); err == nil && !strings.ContainsFunc(u, unicode.IsSpace) {
			anchor = u
		}
	}
	l.Anchor = strings.TrimPrefix(anchor, "user-content-") // GitHub's rendered ids
	return l
}

// colonLineRE is a place written as editors and compilers write it
// ("domain.md:3", "domain.md:3-5"): a file with an extension, then lines.
var colonLineRE = lazyre.New(`^(.*\.[A-Za-z0-9]+):(\d+)(?:-(\d+))?$`)

var moreAnchorsRE = lazyre.New(`^(?:,\s*|\s*#)([A-Za-z][\w.-]*\d[\w.-]*|L\d+(?:-L?\d+)?)`)

// MoreAnchors returns the further anchors a locator's comment names, one
// after another: "#RF-06,RF-07" and "#RF-06 #RF-07" both name RF-07 too.
func (l Locator) MoreAnchors() []string {
	var out []string
	c := l.Comment
	for {
		m := moreAnchorsRE.FindStringSubmatchIndex(c)
		if m == nil {
			return out
		}
		out = append(out, strings.TrimRight(c[m[2]:m[3]], ":;.)"))
		c = strings.TrimSpace(c[m[1]:])
		if !strings.HasPrefix(c, ",") && !strings.HasPrefix(c, "#") {
			return out
		}
	}
}

// Location is a part of a spec file that a locator found.
type Location struct {
	// Text is the located text (a whole section, some lines, a table row
	// with its header…), ending in a newline.
	Text string
	// Rule is the rule that found it, and Detail what it found ("table
	// row", "lines 120–245"…), in English, for P and messages.
	Rule   LocRule
	Detail string
	// Start and End are the 1-based first and last lines of Text in the file.
	Start, End int
	// Own is the first line the anchor names itself, when Text starts
	// earlier for context (a table row's header); 0 means Start.
	Own int
}

// own is the first line the anchor names itself: two locations overlap
// when these lines do, never by a shared table header alone.
func (l Location) own() int {
	if l.Own > 0 {
		return l.Own
	}
	return l.Start
}

// SpecSection finds the section of a Markdown text that anchor names: the
// heading whose explicit id is {#anchor}, or whose GitHub-style slug is
// anchor (duplicates numbered -1, -2 as GitHub does; a slug without accents
// also matches), down to the next heading of the same or a higher level.
// It returns the section including its heading line.
func SpecSection(text, anchor string) (string, bool) {
	loc, ok := headingLocation(text, strings.TrimPrefix(strings.TrimSpace(anchor), "#"))
	return loc.Text, ok
}

// Locate finds what anchor names in a spec file's text, trying in order a
// heading's explicit id or slug, a GitHub line anchor, a bare heading
// number and a requirement ID. An empty anchor is the whole file.
func Locate(text, anchor string) (Location, bool) {
	anchor = strings.TrimLeft(strings.TrimSpace(anchor), "#")
	if anchor == "" {
		return Location{Text: endNL(text), Rule: RuleWholeFile, Start: 1, End: lineCount(text)}, true
	}
	if loc, ok := headingLocation(text, anchor); ok {
		return loc, true
	}
	if loc, ok := lineLocation(text, anchor); ok {
		return loc, true
	}
	if loc, ok := numberLocation(text, anchor); ok {
		return loc, true
	}
	if loc, ok := looseHeadingLocation(text, anchor); ok {
		return loc, true
	}
	if loc, ok := requirementLocation(text, anchor); ok {
		return loc, true
	}
	if loc, ok := cellLocation(text, anchor); ok {
		return loc, true
	}
	if loc, ok := itemLabelLocation(text, anchor); ok {
		return loc, true
	}
	if loc, ok := wordsHeadingLocation(text, anchor); ok {
		return loc, true
	}
	return bareLineLocation(text, anchor)
}

// LocateLocator finds what a locator names in a spec file's text: its
// anchor (Locate), else — the anchor was cut at its first space, but some
// hosts write a heading's text rather than its slug
// ("#Impacto por artefato da extração") — the anchor and the rest of the
// entry read together as that heading's text.
func LocateLocator(text string, l Locator) (Location, bool) {
	if loc, ok := Locate(text, l.Anchor); ok || l.Comment == "" || l.Anchor == "" {
		return loc, ok
	}
	return Locate(text, Slug(l.Anchor+" "+l.Comment))
}

// slugKey is a slug as the loose rules compare it: lower case, accents
// folded, every run of hyphens one hyphen, none at either end.
func slugKey(s string) string {
	s = stripAccents(strings.ToLower(s))
	var b strings.Builder
	dash := false
	for _, r := range s {
		if r == '-' {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	return b.String()
}

var (
	// numberedAnchorRE is an anchor that starts with a heading's number as
	// GitHub slugs it ("4-", "21-" for "2.1.", "2.1-" as hosts write it).
	numberedAnchorRE = lazyre.New(`^(\d{1,4}(?:[.-]\d{1,4})*?)-([^\d].*)$`)
)

// cutNumber splits a slug key into its leading number (dots dropped, as a
// slug drops them) and the rest; "" when it has none.
func cutNumber(key string) (num, rest string) {
	m := numberedAnchorRE.FindStringSubmatch(key)
	if m == nil {
		return "", key
	}
	return strings.NewReplacer(".", "", "-", "").Replace(m[1]), m[2]
}

// looseHeadingLocation finds a heading the way hosts misspell its slug,
// strictest first: hyphen runs read as one; a leading number only one side
// has; a numbered anchor whose words the heading numbered so all holds.
func looseHeadingLocation(text, anchor string) (Location, bool) {
	want := slugKey(anchor)
	if want == "" {
		return Location{}, false
	}
	hs := plainHeadings(specHeadings(text))
	keys := make([]string, len(hs))
	for i, h := range hs {
		keys[i] = slugKey(Slug(h.Text))
	}
	for i, k := range keys {
		if k == want {
			return sectionFrom(text, hs, i, RuleSlugHyphens, "heading “"+hs[i].Text+"”"), true
		}
	}
	wantNum, wantRest := cutNumber(want)
	for i, k := range keys {
		num, rest := cutNumber(k)
		if (num != "" || wantNum != "") && (num == "" || wantNum == "") && rest == wantRest && strings.ContainsFunc(rest, unicode.IsLetter) {
			return sectionFrom(text, hs, i, RuleSlugNumber, "heading “"+hs[i].Text+"”"), true
		}
	}
	if wantNum == "" {
		return Location{}, false
	}
	words := strings.Split(wantRest, "-")
	best := -1
	for i, h := range hs {
		m := headingNumberRE.FindStringSubmatch(h.Text)
		if m == nil || strings.ReplaceAll(strings.TrimSuffix(m[1], "."), ".", "") != wantNum {
			continue
		}
		have := map[string]bool{}
		for _, w := range strings.Split(keys[i], "-") {
			have[w] = true
		}
		all := true
		for _, w := range words {
			if w != "" && !have[w] {
				all = false
				break
			}
		}
		if all && (best < 0 || h.Level < hs[best].Level) {
			best = i
		}
	}
	if best < 0 {
		return Location{}, false
	}
	return sectionFrom(text, hs, best, RuleNumberWords, "heading “"+hs[best].Text+"”"), true
}

// cellLocation reads an anchor that names no heading as the slug of a
// table cell: an addendum's impact table names the section it amends in a
// cell ("| `policy-analysis.md` | §6.1 Requisitos Funcionais | …"), and
// hosts point at it with that section's slug (#61-requisitos-funcionais).
// It returns the first table holding such a cell: its header and
// separator, then every row whose cell it is.
func cellLocation(text, anchor string) (Location, bool) {
	want := slugKey(anchor)
	if !strings.ContainsFunc(want, unicode.IsLetter) {
		return Location{}, false
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var fence string
	for i := 0; i < len(lines); i++ {
		if next, isFence := fenceStep(fence, lines[i]); isFence {
			fence = next
			continue
		}
		if fence != "" || !strings.HasPrefix(strings.TrimSpace(lines[i]), "|") {
			continue
		}
		top, end := i, i
		for end+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[end+1]), "|") {
			end++
		}
		i = end
		var rows []int
		for r := top + 2; r <= end; r++ {
			for _, cell := range strings.Split(strings.Trim(strings.TrimSpace(lines[r]), "|"), "|") {
				if slugKey(Slug(cell)) == want {
					rows = append(rows, r)
					break
				}
			}
		}
		if len(rows) == 0 || end-top < 2 {
			continue
		}
		out := []string{lines[top], lines[top+1]}
		for _, r := range rows {
			out = append(out, lines[r])
		}
		detail := "table row"
		if len(rows) > 1 {
			detail = strconv.Itoa(len(rows)) + " table rows"
		}
		return Location{Text: strings.Join(out, "\n") + "\n", Rule: RuleTableCell, Detail: detail, Start: top + 1, End: rows[len(rows)-1] + 1, Own: rows[0] + 1}, true
	}
	return Location{}, false
}

// itemLabelRE is a list item's label: its bold lead ("- **A7.
// Configurações:** …") or the words before its first colon or
// parenthesis ("- Endpoints de Apontamento (`POST …`): …").
var itemLabelRE = lazyre.New(`^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\*\*([^*]{1,120})\*\*|([^*:(\x60]{1,80})[:(])`)

// itemLabelLocation reads an anchor that names no heading as a list
// item's label, as criteria and permission lists name their items: the
// item whose label's slug is the anchor ("- **A7. Configurações:** …" for
// #A7-configuracoes), else the one item whose label holds every word of
// an anchor of two words or more, in order ("- Endpoints de Apontamento
// (…): …" for #endpoints-apontamento); with the lines that continue it.
func itemLabelLocation(text, anchor string) (Location, bool) {
	want := slugKey(anchor)
	if !strings.ContainsFunc(want, unicode.IsLetter) {
		return Location{}, false
	}
	type item struct {
		line  int
		label string
	}
	var items []item
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var fence string
	for i, line := range lines {
		if next, isFence := fenceStep(fence, line); isFence {
			fence = next
			continue
		}
		if m := itemLabelRE.FindStringSubmatch(line); fence == "" && m != nil && specListItemRE.MatchString(line) {
			items = append(items, item{i, strings.TrimRight(strings.TrimSpace(m[1]+m[2]), ":")})
		}
	}
	at := func(it item) (Location, bool) {
		loc := listItem(lines, it.line)
		loc.Rule, loc.Detail = RuleItemLabel, "list item “"+it.label+"”"
		return loc, true
	}
	for _, it := range items {
		if slugKey(Slug(it.label)) == want {
			return at(it)
		}
	}
	words := strings.Split(want, "-")
	if len(words) < 2 {
		return Location{}, false
	}
	found := -1
	for i, it := range items {
		if inOrder(words, strings.Split(slugKey(Slug(it.label)), "-")) {
			if found >= 0 {
				return Location{}, false // two items hold the words: a guess
			}
			found = i
		}
	}
	if found < 0 {
		return Location{}, false
	}
	return at(items[found])
}

// wordsHeadingLocation reads an anchor of two words or more, not
// numbered, that names no heading's slug as a heading whose slug dropped
// some words (#known-gaps for "## Known Gaps and Open Questions"): the
// heading whose slug holds every word of the anchor in order, when exactly
// one heading does (two are a guess, and a guess is never located).
func wordsHeadingLocation(text, anchor string) (Location, bool) {
	want := slugKey(anchor)
	if num, _ := cutNumber(want); num != "" || !strings.ContainsFunc(want, unicode.IsLetter) {
		return Location{}, false
	}
	words := strings.Split(want, "-")
	if len(words) < 2 {
		return Location{}, false
	}
	hs := plainHeadings(specHeadings(text))
	found := -1
	for i, h := range hs {
		if !inOrder(words, strings.Split(slugKey(Slug(h.Text)), "-")) {
			continue
		}
		if found >= 0 {
			return Location{}, false
		}
		found = i
	}
	if found < 0 {
		return Location{}, false
	}
	return sectionFrom(text, hs, found, RuleSlugWords, "heading “"+hs[found].Text+"”"), true
}

// inOrder reports whether every word of want occurs in have, in the same
// order (other words may come between).
func inOrder(want, have []string) bool {
	i := 0
	for _, w := range have {
		if i < len(want) && w == want[i] {
			i++
		}
	}
	return i == len(want)
}

var bareLineRE = lazyre.New(`^\d{1,7}$`)

// bareLineLocation reads a bare number that names no heading as a line
// (SKILL.md#82): the block of non-blank lines holding it.
func bareLineLocation(text, anchor string) (Location, bool) {
	if !bareLineRE.MatchString(anchor) {
		return Location{}, false
	}
	n, _ := strconv.Atoi(anchor)
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if n < 1 || n > len(lines) || strings.TrimSpace(lines[n-1]) == "" {
		return Location{}, false
	}
	loc := paragraph(lines, n-1)
	loc.Rule, loc.Detail = RuleBareLine, "line "+anchor
	if loc.End > loc.Start {
		loc.Detail += " (lines " + strconv.Itoa(loc.Start) + "–" + strconv.Itoa(loc.End) + ")"
	}
	return loc, true
}

func endNL(s string) string {
	s = strings.TrimRight(s, "\n")
	return s + "\n"
}

func lineCount(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// lineAt is the 1-based line of a byte offset.
func lineAt(text string, off int) int { return strings.Count(text[:off], "\n") + 1 }

// sectionFrom returns the section of heading i of hs: its line down to the
// next heading of the same or a higher level.
func sectionFrom(text string, hs []Heading, i int, rule LocRule, detail string) Location {
	start := hs[i].Offset
	end := len(text)
	for _, h := range hs[i+1:] {
		if h.Level <= hs[i].Level {
			end = h.Offset
			break
		}
	}
	body := strings.TrimRight(text[start:end], "\n") + "\n"
	first := lineAt(text, start)
	return Location{Text: body, Rule: rule, Detail: detail, Start: first, End: first + strings.Count(body, "\n") - 1}
}

func headingLocation(text, anchor string) (Location, bool) {
	shs := specHeadings(text)
	hs := plainHeadings(shs)
	seen := map[string]int{}
	for i, h := range shs {
		if len(h.ids) > 0 {
			for _, id := range h.ids {
				if id == anchor {
					return sectionFrom(text, hs, i, RuleExplicitID, "heading {#"+anchor+"}"), true
				}
			}
			if explicitAnchor.MatchString(h.Text) || strings.Contains(text[h.Offset:], "{#"+h.ids[0]+"}") {
				continue // {#id} replaces the slug
			}
		}
		s := Slug(h.Text)
		n := seen[s]
		seen[s] = n + 1
		if n > 0 {
			s += "-" + strconv.Itoa(n)
		}
		if s == anchor || stripAccents(s) == stripAccents(strings.ToLower(anchor)) {
			return sectionFrom(text, hs, i, RuleHeadingSlug, "heading “"+h.Text+"”"), true
		}
	}
	return Location{}, false
}

var lineAnchorRE = lazyre.New(`^[Ll](\d{1,9})(?:[Cc]\d{1,9})?(?:-[Ll]?(\d{1,9})(?:[Cc]\d{1,9})?)?$`)

// lineLocation reads a GitHub line anchor: L120 is line 120, L225-L245 the
// lines 225 to 245 (an end past the file's last line stops there).
func lineLocation(text, anchor string) (Location, bool) {
	m := lineAnchorRE.FindStringSubmatch(anchor)
	if m == nil {
		return Location{}, false
	}
	from, _ := strconv.Atoi(m[1])
	to := from
	if m[2] != "" {
		to, _ = strconv.Atoi(m[2])
	}
	if to < from {
		from, to = to, from
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if from < 1 || from > len(lines) {
		return Location{}, false
	}
	to = min(to, len(lines))
	detail := "line " + strconv.Itoa(from)
	if to > from {
		detail = "lines " + strconv.Itoa(from) + "–" + strconv.Itoa(to)
	}
	return Location{Text: endNL(strings.Join(lines[from-1:to], "")), Rule: RuleLineRange, Detail: detail, Start: from, End: to}, true
}

var (
	bareNumberRE = lazyre.New(`^\d{1,4}(?:\.\d{1,4})*$`)
	// headingNumberRE reads a heading's number after the emoji hosts put
	// before it ("🪶 2.26 Visão…", "🕊️ 2.23 …": symbols, variation
	// selectors and joiners, then a space) and the bold or "Seção" marks.
	headingNumberRE = lazyre.New(`^(?:[\p{So}\p{Sk}\p{Mn}\x{200D}]+\s+)?[*_]*(?:(?i:se[cç][aã]o|section|cap[ií]tulo|chapter|parte|part)\s+)?(\d{1,4}(?:\.\d{1,4})*)\.?(?:[\s)\-:—–.*_]|$)`)
)

// numberLocation reads a bare number (#2, #3.1): the heading numbered so
// ("2. Escopo", "## 2 — Regras", "Seção 2", "🪶 2.26 Visão"), the
// highest-level one first.
func numberLocation(text, anchor string) (Location, bool) {
	if !bareNumberRE.MatchString(anchor) {
		return Location{}, false
	}
	hs := plainHeadings(specHeadings(text))
	best := -1
	for i, h := range hs {
		m := headingNumberRE.FindStringSubmatch(h.Text)
		if m == nil || strings.TrimSuffix(m[1], ".") != anchor {
			continue
		}
		if best < 0 || h.Level < hs[best].Level {
			best = i
		}
	}
	if best < 0 {
		return Location{}, false
	}
	return sectionFrom(text, hs, best, RuleHeadingNumber, "heading “"+hs[best].Text+"”"), true
}

var requirementRE = lazyre.New(`^[A-Za-z][A-Za-z0-9]{0,15}(?:[-_.][A-Za-z0-9]{1,15}){0,3}$`)

// isRequirementID reports whether an anchor can be an ID such as RF-06,
// T006 or US-3.2: letters first, at least one digit, no spaces.
func isRequirementID(anchor string) bool {
	return len(anchor) <= 40 && requirementRE.MatchString(anchor) && strings.ContainsAny(anchor, "0123456789")
}

// idOccurrence is one place a requirement ID appears, ranked: a heading (0),
// a table row whose first cell holds it (1), a list item or paragraph that
// starts with it (2), any other mention (3).
type idOccurrence struct {
	line, rank int
}

// requirementLocation finds an ID such as RF-06 or T006 as a whole word
// (any case), outside code fences, preferring where it is defined over
// where it is mentioned.
func requirementLocation(text, anchor string) (Location, bool) {
	if !isRequirementID(anchor) {
		return Location{}, false
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var best *idOccurrence
	var fence string
	for i, line := range lines {
		if next, isFence := fenceStep(fence, line); isFence {
			fence = next
			continue
		}
		if fence != "" || !containsWord(line, anchor) {
			continue
		}
		occ := idOccurrence{line: i, rank: rankOccurrence(line, anchor)}
		if best == nil || occ.rank < best.rank {
			best = &occ
		}
	}
	if best == nil {
		return Location{}, false
	}
	switch best.rank {
	case 0:
		hs := plainHeadings(specHeadings(text))
		off := 0
		for _, l := range lines[:best.line] {
			off += len(l) + 1
		}
		for i, h := range hs {
			if h.Offset == off {
				return sectionFrom(text, hs, i, RuleRequirementID, "heading “"+h.Text+"”"), true
			}
		}
	}
	t := strings.TrimSpace(lines[best.line])
	switch {
	case strings.HasPrefix(t, "|"):
		return tableRow(lines, best.line), true
	case specListItemRE.MatchString(lines[best.line]):
		return listItem(lines, best.line), true
	}
	return paragraph(lines, best.line), true
}

// containsWord reports whether id occurs in line as a whole word (any case):
// not inside a longer run of letters, digits, '-' or '_'.
func containsWord(line, id string) bool {
	lower, want := strings.ToLower(line), strings.ToLower(id)
	for from := 0; ; {
		i := strings.Index(lower[from:], want)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(want)
		if (i == 0 || !idRune(lower[i-1])) && (j == len(lower) || !idRune(lower[j]) || (lower[j] == '-' || lower[j] == '_') && (j+1 == len(lower) || !idRune(lower[j+1]))) {
			return true
		}
		from = i + 1
	}
}

func idRune(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c >= 0x80
}

var specListItemRE = lazyre.New(`^(\s*)(?:[-*+]|\d{1,9}[.)])\s+`)

func rankOccurrence(line, id string) int {
	if _, _, ok := atxHeading(line); ok {
		return 0
	}
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "|") {
		cells := strings.Split(strings.Trim(t, "|"), "|")
		if len(cells) > 0 && containsWord(cells[0], id) {
			return 1
		}
		return 3
	}
	t = specListItemRE.ReplaceAllString(line, "")
	t = strings.TrimLeft(strings.TrimSpace(t), "*_`[>~ ")
	if strings.HasPrefix(strings.ToLower(t), strings.ToLower(id)) {
		return 2
	}
	return 3
}

// tableRow returns a table row with the table's header and separator rows.
func tableRow(lines []string, at int) Location {
	top := at
	for top > 0 && strings.HasPrefix(strings.TrimSpace(lines[top-1]), "|") {
		top--
	}
	var rows []string
	start := top
	if at-top >= 2 {
		rows = append(rows, lines[top], lines[top+1])
	} else {
		start = at
	}
	rows = append(rows, lines[at])
	return Location{Text: strings.Join(rows, "\n") + "\n", Rule: RuleRequirementID, Detail: "table row", Start: start + 1, End: at + 1, Own: at + 1}
}

// listItem returns a list item: its line and the lines that continue it
// (indented deeper, or lazy continuation lines) up to a blank line, the
// next item at the same or a lower indentation, or a heading.
func listItem(lines []string, at int) Location {
	indent := len(specListItemRE.FindStringSubmatch(lines[at])[1])
	end := at
	for end+1 < len(lines) {
		l := lines[end+1]
		if strings.TrimSpace(l) == "" {
			break
		}
		if m := specListItemRE.FindStringSubmatch(l); m != nil && len(m[1]) <= indent {
			break
		}
		if _, _, ok := atxHeading(l); ok {
			break
		}
		end++
	}
	return Location{Text: strings.Join(lines[at:end+1], "\n") + "\n", Rule: RuleRequirementID, Detail: "list item", Start: at + 1, End: end + 1}
}

// paragraph returns the block of non-blank lines holding line at.
func paragraph(lines []string, at int) Location {
	start, end := at, at
	for start > 0 && strings.TrimSpace(lines[start-1]) != "" {
		if _, _, ok := atxHeading(lines[start-1]); ok {
			break
		}
		start--
	}
	for end+1 < len(lines) && strings.TrimSpace(lines[end+1]) != "" {
		if _, _, ok := atxHeading(lines[end+1]); ok {
			break
		}
		end++
	}
	return Location{Text: strings.Join(lines[start:end+1], "\n") + "\n", Rule: RuleRequirementID, Detail: "paragraph", Start: start + 1, End: end + 1}
}
