package bugfolder

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
)

// The visibility values of the bug schema.
const (
	VisibilityNormal     = "normal"
	VisibilityInternal   = "internal"
	VisibilityRestricted = "restricted"
	// VisibilityPublic is what real registers write for a bug anyone may
	// see: no restriction at all.
	VisibilityPublic = "public"
)

// restrictedVisibility is the one rule for what a visibility allows: only
// exactly normal, internal or public let a bug reach an external engine;
// any other value, the empty one included, is restricted (fail-closed).
func restrictedVisibility(v string) bool {
	return v != VisibilityNormal && v != VisibilityInternal && v != VisibilityPublic
}

// visibilityOf reads a bug's visibility from its front matter, failing
// closed: an absent field is normal (the schema's default); a plain text
// value normal, internal, public or restricted in any case is itself; anything else
// — another word (private, secret), a list, a mapping, an alias, a tag, an
// empty value, a key in another case (Visibility:) or a YAML merge key that
// could bring one in — is restricted, and why says so.
func visibilityOf(m *yaml.Node) (v, why string) {
	if m == nil {
		return VisibilityNormal, ""
	}
	var node *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		switch {
		case k.Value == "<<" || k.Tag == "!!merge":
			return VisibilityRestricted, "the front matter uses a YAML merge key (<<), which could set visibility where moot does not read it"
		case k.Value == "visibility":
			node = m.Content[i+1]
		case strings.EqualFold(strings.TrimSpace(k.Value), "visibility"):
			return VisibilityRestricted, "the field is written " + k.Value + ": (the schema's key is visibility:, in lower case)"
		case looksLikeVisibility(k.Value):
			return VisibilityRestricted, "the field is written " + strconv.QuoteToASCII(k.Value) + ", which reads as visibility but holds another script's letter or an invisible character (write visibility: in plain ASCII)"
		}
	}
	if node == nil {
		return VisibilityNormal, ""
	}
	if node.Kind != yaml.ScalarNode || (node.Tag != "!!str" && node.Tag != "") || node.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return VisibilityRestricted, describeNode(node) + " is not one of normal, internal, public, restricted"
	}
	switch w := strings.ToLower(strings.TrimSpace(node.Value)); w {
	case VisibilityNormal, VisibilityInternal, VisibilityRestricted, VisibilityPublic:
		return w, ""
	}
	return VisibilityRestricted, describeNode(node) + " is not one of normal, internal, public, restricted"
}

// looksLikeVisibility reports whether a front-matter key a person reads as
// visibility is spelled otherwise: a byte-order mark or another invisible
// or format character in or around it, a combining mark, or a letter of
// another script (a Cyrillic і) in place of one of its letters. Every
// ASCII letter it keeps must be visibility's own, at its place.
func looksLikeVisibility(key string) bool {
	const want = "visibility"
	var rs []rune
	for _, r := range norm.NFKC.String(key) {
		if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Mn, r) || unicode.IsSpace(r) || r == '\u3164' || r == '\u115f' || r == '\u1160' || r == '\uffa0' {
			continue
		}
		rs = append(rs, unicode.ToLower(r))
	}
	if len(rs) != len(want) {
		return false
	}
	for i, r := range rs {
		if r != rune(want[i]) && (r < utf8.RuneSelf || !unicode.IsLetter(r) && !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}
