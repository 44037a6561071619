package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"

	"github.com/reversa/moot/internal/midcut"
	"github.com/reversa/moot/internal/termsafe"
)

// maxRows bounds the wrapped rows a pane keeps.
const maxRows = 2000

// streamWrap word-wraps text as it streams, so each delta costs only its own
// length: completed rows are kept, the current row and the pending word
// grow. Words longer than the width are broken.
type streamWrap struct {
	width int
	rows  []string
	cur   strings.Builder
	curW  int
	word  strings.Builder
	wordW int
}

func newStreamWrap(width int) *streamWrap { return &streamWrap{width: max(1, width)} }

// write adds sanitized text.
func (w *streamWrap) write(s string) {
	for _, r := range s {
		switch r {
		case '\n':
			w.flushWord()
			w.emit()
		case ' ':
			w.flushWord()
			if w.curW+1 <= w.width {
				w.cur.WriteByte(' ')
				w.curW++
			} else {
				w.emit()
			}
		default:
			rw := runewidth.RuneWidth(r)
			if w.wordW+rw > w.width {
				// a word longer than a row: break it
				w.flushWord()
				if w.curW > 0 {
					w.emit()
				}
			}
			w.word.WriteRune(r)
			w.wordW += rw
		}
	}
}

// flushWord moves the pending word to the current row (or the next).
func (w *streamWrap) flushWord() {
	if w.word.Len() == 0 {
		return
	}
	if w.curW+w.wordW > w.width {
		w.emit()
	}
	w.cur.WriteString(w.word.String())
	w.curW += w.wordW
	w.word.Reset()
	w.wordW = 0
}

// emit closes the current row.
func (w *streamWrap) emit() {
	w.rows = append(w.rows, strings.TrimRight(w.cur.String(), " "))
	w.cur.Reset()
	w.curW = 0
	if len(w.rows) > 2*maxRows {
		w.rows = append(w.rows[:0], w.rows[len(w.rows)-maxRows:]...)
	}
}

// last returns the last n rows (all when n ≤ 0), the unfinished row included.
func (w *streamWrap) last(n int) []string {
	tail := w.cur.String()
	var extra []string
	switch {
	case w.word.Len() > 0 && w.curW+w.wordW > w.width:
		extra = []string{strings.TrimRight(tail, " "), w.word.String()}
	case tail != "" || w.word.Len() > 0:
		extra = []string{tail + w.word.String()}
	}
	total := len(w.rows) + len(extra)
	if n <= 0 || n > total {
		n = total
	}
	out := make([]string, 0, n)
	if skip := total - n; skip < len(w.rows) {
		out = append(out, w.rows[skip:]...)
	}
	if len(out) < n {
		out = append(out, extra[len(extra)-(n-len(out)):]...)
	}
	return out
}

// sanitize drops escape sequences and control characters from model
// output (the shared termsafe sanitizer), turning tabs into spaces: text
// from an engine must never drive the engineer's terminal.
func sanitize(s string) string {
	return strings.ReplaceAll(termsafe.Text(s), "\t", "    ")
}

// shortTokens cuts the middle of every word wider than w cells, so that a
// wrapped note never breaks an address or a path inside a word.
func shortTokens(s string, w int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		words := strings.Split(l, " ")
		for j, word := range words {
			if runewidth.StringWidth(word) > w {
				words[j] = midcut.Cut(word, w)
			}
		}
		lines[i] = strings.Join(words, " ")
	}
	return strings.Join(lines, "\n")
}

// wordWrap wraps every line of s to w cells, breaking only at spaces: a
// flag (--config), a path or an ID with a hyphen in it stays whole on its
// line (ansi.Wrap also breaks after a '-'), and only a word wider than w
// is cut: after a '/' or a '-' (wordCut), else at w. Styles (ANSI
// sequences) are kept and not counted.
func wordWrap(s string, w int) string {
	if w < 1 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = wrapAtSpace(l, w)
		}
	}
	return strings.Join(lines, "\n")
}

// wrapAtSpace wraps one line for wordWrap; the spaces a line opens with
// (an indent) are kept, those at a break are dropped, and every line it
// wraps into keeps that indent, under the text of a bullet ("• ", "- ",
// "▸ ", "! ", "1. ": hangOf). A word wider than the line starts a line (a
// path reads from its start), after its indent and a mark of at most
// markW cells ("  !"), and is cut after a '/' or else a '-' that ends a
// piece that fits (wordCut), else at the width.
func wrapAtSpace(l string, w int) string {
	return wrapHanging(l, w, hangOf(ansi.Strip(l), w))
}

// WrapUnder wraps one line for a command's output on a terminal by the
// TUI's one rule (wordWrap: at spaces; a word wider than the line, a path
// or an ID, cut after a '/' or a '-'), its continuations indented by hang
// cells: under a plan's key ("  calls     ", 12) or a warning's bullet
// ("  - ", 4). w ≤ 0 (piped output) leaves the line whole.
func WrapUnder(l string, w, hang int) string {
	if w <= 0 || ansi.StringWidth(l) <= w {
		return l
	}
	if 2*hang > w { // the text would have no room under the key: hang at the start
		hang = 0
	}
	return wrapHanging(l, w, hang)
}

// wrapHanging is wrapAtSpace with the continuations' indent given (hang
// cells).
func wrapHanging(l string, w, hang int) string {
	const markW = 4
	pad := strings.Repeat(" ", hang)
	var out []string
	var cur strings.Builder
	curW, started := 0, false
	emit := func() {
		out = append(out, strings.TrimRight(cur.String(), " "))
		cur.Reset()
		cur.WriteString(pad)
		curW, started = hang, false
	}
	for _, word := range strings.Split(l, " ") {
		ww := ansi.StringWidth(word)
		switch {
		case ww > w-hang: // wider than any line: cut, from a line of its own (after its indent and a mark such as "!" or "-")
			if started && ansi.StringWidth(strings.TrimLeft(ansi.Strip(cur.String()), " ")) > markW {
				emit()
			} else if started {
				cur.WriteByte(' ')
				curW++
			}
			for ww > w-curW {
				if curW >= w {
					emit()
					continue
				}
				n := wordCut(word, w-curW)
				cur.WriteString(ansi.Truncate(word, n, ""))
				emit()
				word = ansi.TruncateLeft(word, n, "")
				ww = ansi.StringWidth(word)
			}
		case started && curW+1+ww > w:
			emit()
		case started:
			cur.WriteByte(' ')
			curW++
		}
		cur.WriteString(word)
		curW += ww
		started = true
	}
	if rest := strings.TrimRight(cur.String(), " "); rest != strings.TrimRight(pad, " ") || len(out) == 0 {
		out = append(out, rest)
	}
	return strings.Join(out, "\n")
}

// bullets are the marks a wrapped line hangs under the text of.
var bullets = []string{"• ", "- ", "* ", "+ ", "▸ ", "! ", "· ", "◆ "}

// hangOf is the indent of a line's continuations: the spaces it opens
// with, and its bullet or number ("1. ") after them; none when that is
// more than half the width (the text would have no room).
func hangOf(plain string, w int) int {
	rest := strings.TrimLeft(plain, " ")
	n := len(plain) - len(rest)
	for _, b := range bullets {
		if strings.HasPrefix(rest, b) {
			n += ansi.StringWidth(b)
			break
		}
	}
	if d := len(rest) - len(strings.TrimLeft(rest, "0123456789")); d > 0 && d < 4 && (strings.HasPrefix(rest[d:], ". ") || strings.HasPrefix(rest[d:], ") ")) {
		n += d + 2
	}
	if 2*n > w {
		return 0
	}
	return n
}

// wordCut is how many cells of a word wider than room go on this line:
// up to its last '/' that fits (a path is cut between its folders, never
// inside a name), else up to its last '-' that fits (an ID is cut between
// its parts, never inside a word), unless that leaves less than a third
// of the line; else room.
func wordCut(word string, room int) int {
	if strings.Contains(word, "\x1b") {
		return room
	}
	head := ansi.Truncate(word, room, "")
	for _, sep := range []byte{'/', '-'} {
		if i := strings.LastIndexByte(head, sep); i >= 0 && ansi.StringWidth(head[:i+1]) >= (room+2)/3 {
			return ansi.StringWidth(head[:i+1])
		}
	}
	return room
}
