package tui

import "strings"

// showHTML escapes every "<" that would open an HTML tag, comment or
// autolink in Markdown ("<script>", "</b>", "<!--") outside code spans and
// fenced code blocks, so that glamour shows it as written: glamour drops
// raw HTML, and an option "…&y=<script>" must not read "…&y=". The text
// is already free of terminal controls (termsafe) when it gets here.
func showHTML(md string) string {
	if !strings.Contains(md, "<") {
		return md
	}
	lines := strings.SplitAfter(md, "\n")
	fence := ""
	for i, l := range lines {
		if f := fenceOf(l); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(f, fence[:1]) && len(f) >= len(fence):
				fence = ""
			}
			continue
		}
		if fence == "" {
			lines[i] = escapeTagOpeners(l)
		}
	}
	return strings.Join(lines, "")
}

// fenceOf is the run of ``` or ~~~ that opens or closes a fenced code
// block on line l (up to three spaces in), else "".
func fenceOf(l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return ""
	}
	return t[:n]
}

// escapeTagOpeners puts a backslash before each "<" of line l that a
// letter, "/", "!" or "?" follows, leaving code spans and characters
// already escaped as they are.
func escapeTagOpeners(l string) string {
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == '\\' && i+1 < len(l):
			b.WriteString(l[i : i+2])
			i++
		case c == '`':
			n := len(l[i:]) - len(strings.TrimLeft(l[i:], "`"))
			run := l[i : i+n]
			end := strings.Index(l[i+n:], run)
			for end >= 0 && i+n+end+n < len(l) && l[i+n+end+n] == '`' { // a longer run closes nothing
				next := strings.Index(l[i+n+end+n:], run)
				if next < 0 {
					end = -1
					break
				}
				end += n + next
			}
			if end < 0 {
				b.WriteString(run)
				i += n - 1
				continue
			}
			b.WriteString(l[i : i+n+end+n])
			i += n + end + n - 1
		case c == '<' && i+1 < len(l) && isTagStart(l[i+1]):
			b.WriteString(`\<`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isTagStart reports whether c may follow "<" in an HTML tag, comment,
// declaration or autolink.
func isTagStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!' || c == '?'
}
