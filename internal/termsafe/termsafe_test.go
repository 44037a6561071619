package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTextRemovesSequences(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello\nworld\t!", "hello\nworld\t!"},
		{"window title", "a\x1b]0;pwned\x07b", "ab"},
		{"OSC 52 clipboard", "x\x1b]52;c;cm0gLXJmIH4=\x1b\\y", "xy"},
		{"CSI clear", "\x1b[2J\x1b[Hhi", "hi"},
		{"colour", "\x1b[31mred\x1b[0m", "red"},
		{"C1 CSI", "a\u009b2Jb", "a2Jb"},
		{"bell and CR", "a\a\rb", "ab"},
		{"bidi override", "a\u202eb", "ab"},
		{"invalid utf-8", "a\xffb", "a\uFFFDb"},
		{"hyperlink", "\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"accents kept", "ação — ok", "ação — ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLineIsOneLine(t *testing.T) {
	if got := Line("a\nb\tc\x1b]0;x\x07"); got != "a b c" {
		t.Errorf("Line = %q", got)
	}
}

func TestStyledKeepsOnlySGR(t *testing.T) {
	in := "\x1b[1;31mtitle\x1b[0m \x1b]0;pwned\x07\x1b[2Jbody\x1b]52;c;eA==\x07"
	got := Styled(in)
	if want := "\x1b[1;31mtitle\x1b[0m body"; got != want {
		t.Errorf("Styled = %q, want %q", got, want)
	}
}

// FuzzText: whatever the input, the output holds no ESC, no C0 control but
// newline and tab, no C1, and is valid UTF-8.
func FuzzText(f *testing.F) {
	for _, s := range []string{"\x1b]0;t\x07", "a\u009bb", "\x1b[31mx", "\x1bP1;2|x\x1b\\", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Text(s), Line(s)} {
			if strings.ContainsFunc(out, unsafeRune) || !utf8.ValidString(out) {
				t.Fatalf("unsafe output %q from %q", out, s)
			}
		}
		if strings.ContainsAny(Line(s), "\n") {
			t.Fatalf("newline left in Line(%q)", s)
		}
		// Styled keeps only SGR sequences
		st := Styled(s)
		for i := strings.IndexByte(st, 0x1b); i >= 0; i = strings.IndexByte(st, 0x1b) {
			j := strings.IndexByte(st[i:], 'm')
			if j < 0 || !isSGR(st[i:i+j+1]) {
				t.Fatalf("non-SGR sequence in Styled(%q) = %q", s, st)
			}
			st = st[i+j+1:]
		}
	})
}

// TestWriterKeepsColourAndDropsEverythingElse: what moot prints through
// the Writer keeps its SGR colours; a name's window title, clipboard
// write and C1 control are gone; the caller's byte count is its own.
func TestWriterKeepsColourAndDropsEverythingElse(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	in := "\x1b[31mwarning\x1b[0m: bug x\x1b]0;pwned\a\x1b]52;c;QQ==\a\u009b2J folder\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	if want := "\x1b[31mwarning\x1b[0m: bug x2J folder\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
	if w.Fd() != ^uintptr(0) {
		t.Error("a writer that is no file has no descriptor")
	}
}
