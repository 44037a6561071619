package tui

import (
	"path"
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

// TestMenusNeverBreakAnIDOrAPathAtItsHyphen: a menu's descriptions (the
// quit question's resume hint, the decision's archived folder) keep a bug
// ID whole and break a path only after a '/', at every width of a menu
// from 40 to 90 columns, as huh's own wrapping (after a '-') did not.
func TestMenusNeverBreakAnIDOrAPathAtItsHyphen(t *testing.T) {
	t.Parallel()
	const folder = "_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto/debate-20261202T004954Z"
	onArchived := &debateView{which: "the archived debate of 2026-12-02 00:49 UTC", dir: folder}
	for w := 40; w <= 90; w++ {
		for name, mn := range map[string]*menu{"quit": quitMenu("debate", "BUG-20260702-Q2R8", true), "decide": decideMenu("BUG-20260715-A7K3", onArchived)} {
			mn.form.Init()
			mn.fitText(w)
			mn.form = frame{w: 100, h: 40}.fitForm(mn.form, w, 0)
			view := ansi.Strip(mn.view(w))
			for _, l := range strings.Split(view, "\n") {
				if l = strings.TrimRight(l, " "); strings.HasSuffix(l, "-") {
					t.Errorf("%s at %d: a line broken at a hyphen: %q\n%s", name, w, l, view)
				}
			}
			if name == "quit" && !strings.Contains(view, "BUG-20260702-Q2R8") {
				t.Errorf("%s at %d: the resume command is not whole:\n%s", name, w, view)
			}
			if name == "decide" && !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(view, "┃", "")), ""), path.Base(folder)+"/") {
				t.Errorf("%s at %d: the archived folder is not whole:\n%s", name, w, view)
			}
		}
	}
}

// TestRefusalShowsAPathWholeCutAtItsSlashes: the review wizard's refusal
// of a bug with no applied fix names the bug's folder whole, its rows cut
// after a '/', never in the middle of a name with "…", at 50 to 100
// columns (where its longest name fits a row).
func TestRefusalShowsAPathWholeCutAtItsSlashes(t *testing.T) {
	t.Parallel()
	const dir = "/tmp/walk-s1/_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto-aplicado-duas-vezes"
	text := "* BUG-20260715-A7K3 has no applied fix to review: no fix/CHG-*.diff in " + dir + "; apply the fix first, or give the change in the Change field"
	for w := 50; w <= 100; w++ {
		rows := refusalLines(text, w, "  ", func(s ...string) string { return strings.Join(s, "") })
		for _, r := range rows {
			if ansi.StringWidth(r) > w || strings.Contains(r, "…") {
				t.Errorf("at %d: a row cut or too wide: %q", w, r)
			}
			if rest := strings.TrimRight(r, " "); strings.HasSuffix(rest, "-") {
				t.Errorf("at %d: a row broken at a hyphen: %q", w, r)
			}
		}
		if joined := strings.Join(strings.Fields(strings.Join(rows, "\n")), ""); !strings.Contains(joined, dir) {
			t.Errorf("at %d: the folder is not whole:\n%s", w, strings.Join(rows, "\n"))
		}
	}
}

// TestWrapCutsAWordWiderThanTheLineBetweenItsParts: wordWrap, the one
// wrap rule, cuts a word wider than the line only where it must, and then
// between its parts: a path after a '/', an ID (a question's folder name)
// after a '-', never inside a name or a word; only a word with neither
// that fits a third of the line is cut at the width.
func TestWrapCutsAWordWiderThanTheLineBetweenItsParts(t *testing.T) {
	t.Parallel()
	const id = "20261203-should-checkout-retry-payment-webhooks-forever"
	for _, tc := range []struct {
		name, text string
		w          int
		want       string
	}{
		{"an ID fits: whole", "moot resume " + id + " continues it.", 60,
			"moot resume\n" + id + "\ncontinues it."},
		{"an ID wider than the line: after a '-'", "moot resume " + id + " continues it.", 50,
			"moot resume\n20261203-should-checkout-retry-payment-webhooks-\nforever continues it."},
		{"an ID under a mark", "  ! " + id, 30,
			"  ! 20261203-should-checkout-\n    retry-payment-webhooks-\n    forever"},
		{"a path: after a '/', not its names' '-'", "the folder _reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/debate/", 50,
			"the folder\n_reversa_bugs/checkout/bugs/\nBUG-20260702-Q2R8-frete-arredondado/debate/"},
		{"a name with neither: at the width", "and see " + strings.Repeat("a", 25), 10,
			"and see\naaaaaaaaaa\naaaaaaaaaa\naaaaa"},
		{"a '-' too early to help: at the width", "a-" + strings.Repeat("b", 30), 12,
			"a-bbbbbbbbbb\nbbbbbbbbbbbb\nbbbbbbbb"},
		{"indented, under a key: no empty line first", "            " + id, 40,
			"            20261203-should-checkout-\n            retry-payment-webhooks-\n            forever"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := wordWrap(tc.text, tc.w)
			if tc.name == "indented, under a key: no empty line first" {
				got = WrapUnder(tc.text, tc.w, 12)
			}
			if got != tc.want {
				t.Errorf("at %d:\n%s\nwant\n%s", tc.w, got, tc.want)
			}
			for _, l := range strings.Split(got, "\n") {
				if n := ansi.StringWidth(l); n > tc.w {
					t.Errorf("a line %d wide: %q", n, l)
				}
			}
		})
	}
}
