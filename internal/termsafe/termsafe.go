// Package termsafe makes untrusted text (model output, engine stderr, a
// register's titles and file names) safe to print on a terminal: escape
// sequences (window titles, OSC 52 clipboard writes, cursor moves,
// hyperlinks) and control characters are removed, so text is shown, never
// obeyed. It is the one sanitizer of moot: the CLI, the headless progress
// and the TUI all call it.
package termsafe

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Text returns s without escape sequences or control characters, keeping
// newlines and tabs; invalid UTF-8 becomes U+FFFD.
func Text(s string) string {
	if clean(s) {
		return s
	}
	return filter(ansi.Strip(strings.ToValidUTF8(s, "\uFFFD")), true)
}

// Line is Text for a one-line field (a title, a file name): newlines and
// tabs become spaces too.
func Line(s string) string {
	if clean(s) && !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return filter(ansi.Strip(strings.ToValidUTF8(s, "\uFFFD")), false)
}

// Styled sanitizes text that moot itself styled (glamour's rendering): its
// colour and weight sequences (SGR, ESC [ … m) are kept, every other
// sequence and control character is removed. Untrusted text is passed
// through Text before it is rendered, and the rendering through Styled.
func Styled(s string) string {
	if clean(s) || onlySGR(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	var state byte
	for len(s) > 0 {
		seq, _, n, newState := ansi.DecodeSequence(s, state, nil)
		state = newState
		if n <= 0 {
			break
		}
		switch {
		case isSGR(seq):
			b.WriteString(seq)
		case seq[0] == ansi.ESC || seq[0] < 0x20 && seq[0] != '\n' && seq[0] != '\t':
			// another sequence or a control character: dropped
		default:
			b.WriteString(filter(seq, true))
		}
		s = s[n:]
	}
	return b.String()
}

// onlySGR reports whether every escape in s is a complete SGR sequence and
// s has no other control character, C1 rune, bidirectional override or
// invalid UTF-8: moot's own styled frame, returned as it is (the fast path
// of every terminal UI frame).
func onlySGR(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ansi.ESC:
			j := i + 2
			if j > len(s) || s[i+1] != '[' {
				return false
			}
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j >= len(s) || s[j] != 'm' {
				return false
			}
			i = j + 1
		case c < 0x20 && c != '\n' && c != '\t', c == 0x7f:
			return false
		case c >= 0x80:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 || unsafeRune(r) {
				return false
			}
			i += n
		default:
			i++
		}
	}
	return true
}

// isSGR reports whether seq is a complete Select Graphic Rendition
// sequence: ESC [ then digits, ';' or ':', then 'm'.
func isSGR(seq string) bool {
	if len(seq) < 3 || seq[0] != ansi.ESC || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	for i := 2; i < len(seq)-1; i++ {
		if c := seq[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// clean reports whether s is valid UTF-8 without any byte that could start
// a sequence or a control character (the fast path: most text).
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c >= 0x80 {
			if c >= 0x80 {
				return utf8.ValidString(s) && !strings.ContainsFunc(s, unsafeRune)
			}
			return false
		}
	}
	return true
}

// filter drops control runes (C0 but newline and tab, DEL, C1) and the
// bidirectional overrides that reorder what a reader sees; with keepLines
// false, newlines and tabs become spaces.
func filter(s string, keepLines bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			if keepLines {
				b.WriteRune(r)
			} else {
				b.WriteByte(' ')
			}
		case unsafeRune(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeRune reports a control rune (but newline and tab) or a
// bidirectional override.
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Writer passes what moot writes to a terminal stream through Styled:
// moot's own colours stay, and any sequence or control character that a
// name, a path or a message carried is removed, whichever print site
// formatted it. Each Write is sanitized whole (a sequence split across
// two writes is dropped, never completed).
type Writer struct {
	w io.Writer
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write sanitizes p and writes it; it reports len(p) written when the
// sanitized text was, so callers count their own bytes.
func (s *Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, Styled(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Fd is the wrapped stream's file descriptor (for terminal checks), or
// ^uintptr(0) when it has none.
func (s *Writer) Fd() uintptr {
	if f, ok := s.w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}
