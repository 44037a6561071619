package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapNeverBreaksAFlagOrAPath: the review panes' and the cost
// warnings' wrap (wrapStyled, wrapLines, wrapText) breaks only at spaces:
// a flag (--config) or a path with hyphens reads whole on one line, a
// word wider than the line is cut only at the width, and no line is wider.
func TestWrapNeverBreaksAFlagOrAPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		w          int
		whole      []string
	}{
		{"a flag", "the resume needs the engines file again: pass --config walk/moot.yaml to moot resume", 20, []string{"--config", "walk/moot.yaml"}},
		{"a path", "! _reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto/debate-20261202T004954Z/ holds a finished debate", 84, []string{"_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto/debate-20261202T004954Z/"}},
		{"evidence", "evidence: internal/rate-limit/token-bucket.go:42 and cmd/moot-serve/main.go", 30, []string{"internal/rate-limit/token-bucket.go:42", "cmd/moot-serve/main.go"}},
		{"styled", ansi.SGR(ansi.AttrBold) + "note:" + ansi.SGR(ansi.AttrReset) + " run moot with --max-usd 0.50 and --on-budget stop", 20, []string{"--max-usd", "--on-budget"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for w := tc.w; w < tc.w+20; w++ { // every width: a break falls inside each word at one of them
				for name, lines := range map[string][]string{
					"wrapStyled": wrapStyled(tc.text, w, "  ", nil),
					"wrapLines":  strings.Split(wrapLines(tc.text, w), "\n"),
					"wrapText":   strings.Split(wrapText(tc.text, w), "\n"),
				} {
					for _, l := range lines {
						if n := ansi.StringWidth(l); n > w {
							t.Errorf("%s at %d: a line %d wide: %q", name, w, n, l)
						}
					}
					text := ansi.Strip(strings.Join(lines, "\n"))
					for _, word := range tc.whole {
						if len(word) <= w-2 && !strings.Contains(text, word) {
							t.Errorf("%s at %d broke %q:\n%s", name, w, word, text)
						}
					}
				}
			}
		})
	}
	long := strings.Repeat("x", 25)
	if got := wrapLines("and see "+long, 10); got != "and see\n"+long[:10]+"\n"+long[10:20]+"\n"+long[20:] {
		t.Errorf("a word wider than the line is cut at the width only, from a line of its own:\n%s", got)
	}
	if got := wrapLines("  ! "+long, 10); got != "  ! "+long[:6]+"\n    "+long[6:12]+"\n    "+long[12:18]+"\n    "+long[18:24]+"\n    "+long[24:] {
		t.Errorf("a word wider than the line is left alone after its mark, and its pieces hang under it:\n%s", got)
	}
	if got := wrapLines("    indented line of text", 12); !strings.HasPrefix(got, "    indented") {
		t.Errorf("the indent a line opens with is lost:\n%s", got)
	}
}
