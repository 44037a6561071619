package tui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

func TestStreamWrap(t *testing.T) {
	w := newStreamWrap(10)
	w.write("uma frase ")
	w.write("que continua em ped")
	w.write("aços\nnova linha\n\nfim")
	got := strings.Join(w.last(0), "|")
	want := "uma frase|que|continua|em pedaços|nova linha||fim"
	if got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
	if last := strings.Join(w.last(2), "|"); last != "|fim" {
		t.Errorf("last 2 %q", last)
	}
	// a word longer than a row is broken
	w = newStreamWrap(4)
	w.write("abcdefghij")
	if got := strings.Join(w.last(0), "|"); got != "abcd|efgh|ij" {
		t.Errorf("long word %q", got)
	}
	// wide runes count two cells
	w = newStreamWrap(4)
	w.write("日本語テキスト")
	for _, r := range w.last(0) {
		if runewidth.StringWidth(r) > 4 {
			t.Errorf("row %q is wider than 4", r)
		}
	}
}

func TestSanitizeDropsTerminalControl(t *testing.T) {
	in := "ok\x1b]0;pwned\x07 \x1b[2J\x1b[31mred\ttab\r\nnext\x9b1m\x00end"
	out := sanitize(in)
	for _, bad := range []string{"\x1b", "\x07", "\x00", "\r", "\x9b"} {
		if strings.Contains(out, bad) {
			t.Errorf("sanitize left %q in %q", bad, out)
		}
	}
	if !strings.Contains(out, "red    tab\nnext") {
		t.Errorf("sanitize lost text: %q", out)
	}
}

// FuzzStreamWrap: model output is outside input; the wrapper never panics,
// never exceeds the width, and keeps every word in order.
func FuzzStreamWrap(f *testing.F) {
	f.Add("## Hipóteses\n\nH1: texto longo que continua", 12)
	f.Add("\x1b[2J日本語 abcdefghijklmnopqrstuvwxyz", 5)
	f.Fuzz(func(t *testing.T, s string, width int) {
		width = width%80 + 1
		if width < 1 {
			width = -width + 1
		}
		clean := sanitize(s)
		if !utf8.ValidString(clean) {
			t.Fatal("invalid UTF-8 out of sanitize")
		}
		w := newStreamWrap(width)
		half := len(clean) / 2
		for half > 0 && !utf8.RuneStart(clean[half]) {
			half--
		}
		w.write(clean[:half])
		w.write(clean[half:])
		rows := w.last(0)
		for _, r := range rows {
			if runewidth.StringWidth(r) > width && utf8.RuneCountInString(r) > 1 {
				t.Fatalf("row %q wider than %d", r, width)
			}
		}
		if strings.Join(strings.Fields(strings.Join(rows, "")), "") != strings.Join(strings.Fields(clean), "") {
			t.Fatalf("text changed:\n%q\n%q", rows, clean)
		}
	})
}

// TestFooterKeepsHelpAndQuit: a footer cut to a small terminal keeps
// "? keys · q quit" and drops keys from its middle.
func TestFooterKeepsHelpAndQuit(t *testing.T) {
	help := "↑↓ move · enter open · / filter · s sort · n new · r resume · ? keys · q quit"
	for _, w := range []int{80, 60, 40, 30} {
		got := fitHelp(help, w)
		if !strings.HasSuffix(got, "? keys · q quit") || runewidth.StringWidth(got) > w {
			t.Errorf("width %d: %q", w, got)
		}
	}
}
