package tui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
)

func TestStreamWrap(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	help := "↑↓ move · enter open · / filter · s sort · n new · r resume · ? keys · q quit"
	for _, w := range []int{80, 60, 40, 30} {
		got := fitHelp(help, w)
		if !strings.HasSuffix(got, "? keys · q quit") || runewidth.StringWidth(got) > w {
			t.Errorf("width %d: %q", w, got)
		}
	}
}

// TestAddressesNeverBreakInside: a word wider than a note is cut in its
// middle (start and end kept), and the demo's banner keeps its path's end
// at 80 columns instead of cutting it.
func TestAddressesNeverBreakInside(t *testing.T) {
	t.Parallel()
	url := "http://127.0.0.1:11434/v1/models/" + strings.Repeat("x", 60) + "/end"
	got := shortTokens("dial "+url+" refused", 40)
	words := strings.Fields(got)
	if len(words) != 3 || !strings.HasPrefix(words[1], "http://127.0.0.1") || !strings.HasSuffix(words[1], "x/end") || !strings.Contains(words[1], "…") || runewidth.StringWidth(words[1]) != 40 {
		t.Errorf("shortTokens: %q", got)
	}
	if s := shortTokens("short words stay", 40); s != "short words stay" {
		t.Errorf("short words changed: %q", s)
	}
	f := newFixture(t)
	opts := f.options()
	opts.Banner = "moot demo · a recorded debate (replay engine: no model, no network) in /tmp/moot-demo-1234567890/sample/project"
	m := sized(t, opts, 80, 24)
	first := strings.SplitN(screenText(m, ""), "\n", 2)[0]
	if !strings.HasPrefix(first, "moot demo") || !strings.HasSuffix(first, "sample/project") || runewidth.StringWidth(first) > 80 {
		t.Errorf("banner at 80 columns: %q", first)
	}
}

// A final answer's head quotes line by line (degraded, absent, escalation):
// rendered, each quoted line stays on its own line instead of running
// into the next; fenced code is untouched.
func TestQuotedLinesStayApart(t *testing.T) {
	t.Parallel()
	md := "> Degraded: 2 of 3 members took part.\n> absent: member-3 (timeout)\n> escalate: confidence 40 %\n\nBody.\n\n```\n> not a quote\n> kept\n```\n"
	out := ansi.Strip(RenderMarkdown(md, 80, "notty"))
	for _, want := range []string{"Degraded: 2 of 3 members took part.", "absent: member-3 (timeout)", "escalate: confidence 40 %"} {
		found := false
		for _, l := range strings.Split(out, "\n") {
			if strings.HasSuffix(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "│┃>")), want) {
				found = true
			}
		}
		if !found {
			t.Errorf("the quoted line %q does not end a line of its own:\n%s", want, out)
		}
	}
	if got := quoteBreaks("```\n> a\n> b\n```"); got != "```\n> a\n> b\n```" {
		t.Errorf("fenced code changed: %q", got)
	}
}

// TestWrappedPathGetsNoSpace: a path wrapped on a hanging indent (a cost
// screen warning) is never given a space where the first line broke it.
func TestWrappedPathGetsNoSpace(t *testing.T) {
	t.Parallel()
	path := "checkout/debate-20261202T004954Z/resposta-final.md"
	for w := 20; w <= 90; w++ {
		lines := wrapStyled("  ! the previous answer is at "+path+" until this one finishes", w, "    ", nil)
		var joined strings.Builder
		for i, l := range lines {
			if i > 0 {
				l = strings.TrimPrefix(l, "    ")
			}
			joined.WriteString(l)
		}
		if flat := joined.String(); !strings.Contains(strings.ReplaceAll(flat, " ", ""), strings.ReplaceAll(path, " ", "")) || strings.Contains(flat, "debate- ") || strings.Contains(flat, "resposta- ") {
			t.Errorf("width %d: the path got a space or lost a part:\n%s", w, strings.Join(lines, "\n"))
		}
	}
}
