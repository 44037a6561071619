package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestMarkdownShowsHTMLAsWritten: text that looks like HTML (a tradeoff
// option "…&y=<script>", a closing tag, a comment) is shown as written on
// a rendered document, while code spans and fenced code keep theirs
// unescaped.
func TestMarkdownShowsHTMLAsWritten(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"Option A: redirect to /cb?x=1&y=<script>alert(1)</script>", "&y=<script>alert(1)</script>"},
		{"keep <b>bold</b> and <!-- note -->", "keep <b>bold</b> and <!-- note -->"},
		{"a span `a<b>c` stays", "a<b>c"},
		{"```\n<div>x</div>\n```", "<div>x</div>"},
		{`already \<escaped`, `already <escaped`},
		{"1 < 2 and a<3", "1 < 2 and a<3"},
	} {
		out := ansi.Strip(RenderMarkdown(tc.md, 100, glamourStyle(true, true)))
		if !strings.Contains(strings.Join(strings.Fields(out), " "), tc.want) {
			t.Errorf("%q renders as %q: want %q in it", tc.md, out, tc.want)
		}
		if strings.Contains(out, `\<`) {
			t.Errorf("%q renders a backslash: %q", tc.md, out)
		}
	}
}

// FuzzShowHTML: escaping never panics, only ever adds backslashes, and
// escapes nothing twice.
func FuzzShowHTML(f *testing.F) {
	for _, s := range []string{"a<b>", "`x<y>` <z>", "```\n<a>\n```\n<b>", `\<a`, "``a<b``` <c>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := showHTML(s)
		if strings.ReplaceAll(got, `\`, "") != strings.ReplaceAll(s, `\`, "") {
			t.Errorf("showHTML(%q) = %q: changed more than the escapes", s, got)
		}
		if again := showHTML(got); again != got {
			t.Errorf("showHTML(%q) = %q, escaped again %q", s, got, again)
		}
	})
}
