package tui

import (
	"strings"
	"testing"

	"charm.land/glamour/v2/styles"
	"github.com/charmbracelet/x/ansi"
)

// TestWrappedLineKeepsItsIndent: a line that wraps goes on under its own
// indent, and under the text of its bullet or number, so a wrapped menu
// choice or figure line still reads as one item.
func TestWrappedLineKeepsItsIndent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, line string
		w          int
		want       string
	}{
		{"indent", "  in its first of 2 debates here: 61 % under (each plan learns from the last)", 40,
			"  in its first of 2 debates here: 61 %\n  under (each plan learns from the last)"},
		{"menu choice", "  Archive it and set up a new debate (moot decide BUG-20260702-Q2R8 still records the decision)", 50,
			"  Archive it and set up a new debate (moot decide\n  BUG-20260702-Q2R8 still records the decision)"},
		{"chosen", "▸ Decide it now (opens the result; d records the decision)", 30,
			"▸ Decide it now (opens the\n  result; d records the\n  decision)"},
		{"bullet", "  • Proposta B: o teste que repete a troca de CEP.", 30,
			"  • Proposta B: o teste que\n    repete a troca de CEP."},
		{"number", "1. the first step, long enough to wrap", 20,
			"1. the first step,\n   long enough to\n   wrap"},
		{"no indent", "cost: unknown (an engine has no price) · 4.7k tokens", 40,
			"cost: unknown (an engine has no price) ·\n4.7k tokens"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := wrapLines(tc.line, tc.w); got != tc.want {
				t.Errorf("wrapped at %d:\n%s\nwant:\n%s", tc.w, got, tc.want)
			}
		})
	}
}

// TestWrapCutsAPathBetweenFolders: a path wider than the line is cut
// after one of its '/', never inside a folder's name that fits a line,
// and no piece is wider than the line.
func TestWrapCutsAPathBetweenFolders(t *testing.T) {
	t.Parallel()
	path := "/tmp/view27/sample/_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto-duplicado/debate/"
	for _, w := range []int{44, 56, 60, 80} {
		lines := strings.Split(wrapLines("folder "+path, w), "\n")
		if strings.Join(lines, "") != "folder"+path {
			t.Fatalf("at %d the path lost or gained something:\n%s", w, strings.Join(lines, "\n"))
		}
		for _, l := range lines[1 : len(lines)-1] {
			if !strings.HasSuffix(l, "/") || ansi.StringWidth(l) > w {
				t.Errorf("at %d a piece of the path is cut inside a name or too wide: %q", w, l)
			}
		}
	}
}

// TestInlineCodeGainsNoSpaces: inline code reads as written, in every
// style: glamour's own styles pad it with a space on each side, so
// "(`moot decide`)" read "( moot decide )"; without colour its backticks
// tell it apart.
func TestInlineCodeGainsNoSpaces(t *testing.T) {
	t.Parallel()
	md := "Record it later (`moot decide BUG-1`), or run `moot list`.\n"
	for _, style := range []string{styles.DarkStyle, styles.LightStyle, styles.NoTTYStyle} {
		out := strings.TrimSpace(ansi.Strip(RenderMarkdown(md, 80, style)))
		out = strings.ReplaceAll(out, "\u00a0", " ")
		want := "Record it later (moot decide BUG-1), or run moot list."
		if style == styles.NoTTYStyle { // no colour: the backticks as written
			want = "Record it later (`moot decide BUG-1`), or run `moot list`."
		}
		if out != want {
			t.Errorf("%s: %q, want %q", style, out, want)
		}
	}
}
