package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"github.com/mattn/go-runewidth"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/safefs"
	"github.com/reversa/moot/internal/termsafe"
)

// docKey names a rendered document: a file (or a part of it) at a width.
type docKey struct {
	path  string
	width int
	// part is "" for the whole body, "synthesis" for a final's synthesis.
	part string
	// version tells apart two files at one path (a new debate's final
	// answer where the archived one's was): "" when the path is enough.
	version string
}

// docMsg delivers a document rendered off the UI goroutine.
type docMsg struct {
	key docKey
	out string
	err error
	// style is the glamour style it was rendered with.
	style string
}

// renderers keeps one glamour renderer per style and width; a renderer is
// not safe for concurrent use, so each has its own lock.
var renderers struct {
	sync.Mutex
	m map[string]*lockedRenderer
}

type lockedRenderer struct {
	sync.Mutex
	r *glamour.TermRenderer
}

// glamourStyle picks the style for the background (no colour under NO_COLOR).
func glamourStyle(dark, noColor bool) string {
	switch {
	case noColor:
		return styles.NoTTYStyle
	case dark:
		return styles.DarkStyle
	}
	return styles.LightStyle
}

// RenderMarkdown renders Markdown at a width with glamour (plain text on
// failure). It may be called from any goroutine.
func RenderMarkdown(md string, width int, style string) string {
	if width < 20 {
		width = 20
	}
	key := fmt.Sprintf("%s/%d", style, width)
	renderers.Lock()
	if renderers.m == nil {
		renderers.m = map[string]*lockedRenderer{}
	}
	lr := renderers.m[key]
	if lr == nil {
		r, err := glamour.NewTermRenderer(glamour.WithStyles(quoteBarStyle(style)), glamour.WithWordWrap(width))
		if err != nil {
			renderers.Unlock()
			return md
		}
		lr = &lockedRenderer{r: r}
		renderers.m[key] = lr
	}
	renderers.Unlock()
	lr.Lock()
	defer lr.Unlock()
	md = showHTML(quoteBreaks(strings.ReplaceAll(termsafe.Text(md), quoteCell, "")))
	md = fitTables(md, width-docMargin)
	out, err := lr.r.Render(forWrapping(md, width-docMargin))
	if err != nil {
		return md
	}
	out = strings.NewReplacer(pathBreak+" ", "", pathBreak, "", nbHyphen, "-").Replace(out)
	// what glamour passed through is sanitized again: only its own styling stays
	return strings.Trim(termsafe.Styled(quoteBars(out)), "\n")
}

// quoteCell holds one cell of a block quote's bar while glamour lays the
// quote out: it is zero cells wide, so a quote's two cells of bar ("│ ")
// are counted where glamour would count one and a wrapped quoted line
// never spills a word past the bar (quoteBars draws the bar after).
const quoteCell = "\u200b"

// quoteBarStyle is the named glamour style with a block quote indented by
// two quoteCells instead of one two-cell "│ ", and inline code without
// padding.
func quoteBarStyle(name string) ansi.StyleConfig {
	cfg := *styles.DefaultStyles[name]
	two := uint(2)
	cfg.BlockQuote.Indent = &two
	token := quoteCell
	cfg.BlockQuote.IndentToken = &token
	// inline code is told by its colour, and without colour by the
	// backticks it was written with: glamour's padding on each side
	// showed "(`moot decide`)" as "( moot decide )"
	cfg.Code.Prefix, cfg.Code.Suffix = "", ""
	if name == styles.NoTTYStyle {
		cfg.Code.Prefix, cfg.Code.Suffix = "`", "`"
	}
	return cfg
}

// quoteBars draws each quote level's bar where quoteBarStyle left its two
// cells, and takes back the two cells of padding glamour added for them
// at the line's end.
func quoteBars(out string) string {
	if !strings.Contains(out, quoteCell) {
		return out
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		n := strings.Count(l, quoteCell) / 2
		if n == 0 {
			continue
		}
		// the marks come in twos, each maybe wrapped in glamour's styling:
		// the first of two is the bar, the second its space
		var b strings.Builder
		for k, part := range strings.Split(l, quoteCell) {
			if k > 0 {
				b.WriteString([]string{" ", "│"}[k%2])
			}
			b.WriteString(part)
		}
		l = b.String()
		for range n {
			if t, ok := strings.CutSuffix(l, "  "); ok {
				l = t
			}
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// quoteBreaks keeps the lines of a block quote apart: moot's documents
// quote line by line (a final answer's head: degraded, absent, escalation;
// a decision's note), and Markdown would join consecutive quoted lines
// into one paragraph (glamour drops a hard break inside a quote). Each
// quoted line followed by another becomes a paragraph of the quote of its
// own; fenced code is left as it is.
func quoteBreaks(md string) string {
	lines := strings.Split(md, "\n")
	out := make([]string, 0, len(lines))
	var code fences
	quoted := func(l string) bool {
		t := strings.TrimLeft(l, " ")
		return len(l)-len(t) < 4 && strings.HasPrefix(t, ">") && strings.TrimSpace(strings.TrimLeft(t, "> ")) != ""
	}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		out = append(out, l)
		switch {
		case code.follow(t):
		case i+1 < len(lines) && quoted(l) && quoted(lines[i+1]):
			out = append(out, ">")
		}
	}
	return strings.Join(out, "\n")
}

// renderFileCmd reads a Markdown file (its body, without front matter),
// optionally transforms it, and renders it — all off the UI goroutine.
func renderFileCmd(key docKey, style string, transform func(string) string) tea.Cmd {
	return func() tea.Msg {
		raw, err := safefs.ReadFile(key.path, 0)
		if err != nil {
			return docMsg{key: key, out: unreadable(key.path, err), err: err, style: style}
		}
		body := bugfolder.NormalizeText(raw)
		if doc, err := bugfolder.ParseDocument(raw); err == nil {
			body = doc.Body
		}
		if transform != nil {
			body = transform(body)
		}
		return docMsg{key: key, out: RenderMarkdown(body, key.width, style), style: style}
	}
}

// unreadable says in words why a document is not shown (never the raw
// error of the system call).
func unreadable(path string, err error) string {
	name := filepath.Base(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return name + " is not written yet"
	case errors.Is(err, fs.ErrPermission):
		return name + " cannot be read: permission denied"
	}
	return name + " cannot be read"
}

// forgetDocsIn drops what was rendered from files in dir: a new debate is
// written where the archived one's files were, at the same paths.
func (f *frame) forgetDocsIn(dir string) {
	for k := range f.docs {
		if filepath.Dir(k.path) == dir || strings.HasPrefix(k.path, dir+string(filepath.Separator)) {
			delete(f.docs, k)
		}
	}
}

// fences follows a Markdown document's fenced code blocks line by line.
type fences struct{ open string }

// follow reports whether the trimmed line t opens, closes or lies inside a
// fenced code block (``` or ~~~), which the rewrites above leave as written.
func (f *fences) follow(t string) bool {
	switch {
	case f.open != "":
		if strings.HasPrefix(t, f.open) {
			f.open = ""
		}
		return true
	case strings.HasPrefix(t, "```"), strings.HasPrefix(t, "~~~"):
		f.open = t[:3]
		return true
	}
	return false
}

// nbHyphen stands in for a hyphen inside a word while glamour wraps the
// text: glamour breaks a line after any '-', which splits a bug ID
// ("BUG-20260702-" / "Q2R8"), a flag or a path; a word is broken at a
// space instead, and the hyphen put back after.
const nbHyphen = "\u2011"

// keepHyphens replaces every hyphen between two characters of a word (a
// letter, a digit or another hyphen: "BUG-2026", "--timeout") with
// nbHyphen; a list's "- " and a rule's "---" are left alone.
func keepHyphens(md string) string {
	r := []rune(md)
	word := func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }
	var b strings.Builder
	for i, c := range r {
		if c == '-' && i+1 < len(r) && i > 0 {
			next, prev := r[i+1], r[i-1]
			inWord := word(prev) && (word(next) || next == '-')
			flag := next == '-' && i+2 < len(r) && word(r[i+2]) && unicode.IsSpace(prev) || prev == '-' && word(next) && i > 1 && (unicode.IsSpace(r[i-2]) || r[i-2] == '-')
			if inWord || flag {
				b.WriteString(nbHyphen)
				continue
			}
		}
		b.WriteRune(c)
	}
	return b.String()
}

// pathBreak, then a space, follows each '/' of a path too long for a line
// while glamour wraps it: the path is cut between its folders, and the
// space (with the mark) taken out after where no line broke.
const pathBreak = "\u2063"

// forWrapping readies md's text (not its fenced code) for glamour's wrap
// at width: hyphens kept (keepHyphens), long paths cut at their slashes
// (breakPaths).
func forWrapping(md string, width int) string {
	lines := strings.Split(md, "\n")
	var code fences
	for i, l := range lines {
		if !code.follow(strings.TrimSpace(l)) {
			lines[i] = keepHyphens(breakPaths(l, width))
		}
	}
	return strings.Join(lines, "\n")
}

// breakPaths lets glamour break every word of a line with a '/' wider
// than a third of the width after its slashes (not a link or an address).
func breakPaths(l string, width int) string {
	words := strings.Split(l, " ")
	for j, w := range words {
		if strings.Contains(w, "/") && runewidth.StringWidth(w) > width/3 && !strings.ContainsAny(w, "()<>[]") {
			body := strings.TrimRight(w, "/")
			words[j] = strings.ReplaceAll(body, "/", "/"+pathBreak+" ") + w[len(body):]
		}
	}
	return strings.Join(words, " ")
}
