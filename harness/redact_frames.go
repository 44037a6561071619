package harness

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
)

// frameWriter redacts a raw HTTP stream (SSE frames or JSON lines) on the
// text the frames carry, not only on their bytes: a model streams a secret
// in pieces, one per delta, and the JSON between the pieces would hide it
// from a byte-level redactor. Lines whose text could start a secret are
// held back until the next frame settles it; a secret that spans frames
// has its pieces replaced in each frame's text.
type frameWriter struct {
	r       *Redactor
	w       io.Writer
	mu      sync.Mutex
	partial []byte
	held    []frame
}

// frame is one line of the stream and, when it carries a delta, its
// decoded JSON and the text at path.
type frame struct {
	line string
	doc  map[string]any
	path []string
	text string
}

// contentPaths are where the streaming APIs moot calls carry answer text:
// OpenAI chat chunks, Anthropic content deltas, Ollama's native chat.
var contentPaths = [][]string{
	{"choices", "0", "delta", "content"},
	{"choices", "0", "delta", "reasoning_content"},
	{"delta", "text"},
	{"delta", "thinking"},
	{"message", "content"},
	{"response"},
}

// frameWriterFor wraps w (nil stays nil).
func (r *Redactor) frameWriterFor(w io.Writer) (io.Writer, func()) {
	if r.Empty() || w == nil {
		return w, func() {}
	}
	f := &frameWriter{r: r, w: w}
	return f, f.flush
}

func (f *frameWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.partial = append(f.partial, p...)
	for {
		i := bytes.IndexByte(f.partial, '\n')
		if i < 0 {
			break
		}
		line := string(f.partial[:i+1])
		f.partial = f.partial[i+1:]
		f.add(line)
	}
	return len(p), nil
}

// add takes one complete line.
func (f *frameWriter) add(line string) {
	fr := parseFrame(f.r.String(line))
	if fr.doc == nil {
		if strings.TrimSpace(fr.line) == "" || len(f.held) == 0 {
			f.emit(fr)
			return
		}
		f.held = append(f.held, fr) // a blank separator or comment between held frames
		return
	}
	f.held = append(f.held, fr)
	f.settle()
}

// settle redacts secrets across the held frames' texts and writes every
// frame no later text could still complete into a secret.
func (f *frameWriter) settle() {
	var all strings.Builder
	for _, h := range f.held {
		all.WriteString(h.text)
	}
	text := all.String()
	if red := f.r.String(text); red != text {
		f.redactSpans(text)
		text = ""
		for _, h := range f.held {
			text += h.text
		}
	}
	hold := f.r.heldBack(text)
	// keep the frames that hold the last `hold` bytes of text
	keep, n := len(f.held), 0
	for keep > 0 && n < hold {
		keep--
		n += len(f.held[keep].text)
	}
	for _, h := range f.held[:keep] {
		f.emit(h)
	}
	f.held = append([]frame(nil), f.held[keep:]...)
}

// redactSpans replaces every secret found in the joined text of the held
// frames: the first frame a secret touches gets the marker, the others
// lose their piece of it.
func (f *frameWriter) redactSpans(text string) {
	type span struct{ from, to int }
	var spans []span
	for _, v := range f.r.secrets {
		for off := 0; ; {
			i := strings.Index(text[off:], v)
			if i < 0 {
				break
			}
			spans = append(spans, span{off + i, off + i + len(v)})
			off += i + len(v)
		}
	}
	start := 0
	for k := range f.held {
		h := &f.held[k]
		end := start + len(h.text)
		var b strings.Builder
		for i := 0; i < len(h.text); i++ {
			pos, in := start+i, false
			for _, s := range spans {
				if pos >= s.from && pos < s.to {
					in = true
					if pos == s.from {
						b.WriteString(Redacted)
					}
				}
			}
			if !in {
				b.WriteByte(h.text[i])
			}
		}
		if b.String() != h.text {
			h.text = b.String()
			h.rewrite()
		}
		start = end
	}
}

// rewrite puts the frame's text back into its JSON.
func (fr *frame) rewrite() {
	setPath(fr.doc, fr.path, fr.text)
	b, err := json.Marshal(fr.doc)
	if err != nil {
		fr.line = Redacted + "\n"
		return
	}
	prefix := ""
	if strings.HasPrefix(fr.line, "data:") {
		prefix = "data: "
	}
	fr.line = prefix + string(b) + "\n"
}

func (f *frameWriter) emit(fr frame) { _, _ = io.WriteString(f.w, fr.line) }

// flush writes what is held and a last line without a newline.
func (f *frameWriter) flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.partial) > 0 {
		f.add(string(f.partial))
		f.partial = nil
	}
	for _, h := range f.held {
		f.emit(h)
	}
	f.held = nil
}

// parseFrame decodes a line (data: JSON, or a JSON line) that carries text
// at one of contentPaths.
func parseFrame(line string) frame {
	fr := frame{line: line}
	body := strings.TrimSpace(line)
	if rest, ok := strings.CutPrefix(body, "data:"); ok {
		body = strings.TrimSpace(rest)
	}
	if !strings.HasPrefix(body, "{") {
		return fr
	}
	var doc map[string]any
	if json.Unmarshal([]byte(body), &doc) != nil {
		return fr
	}
	for _, p := range contentPaths {
		if s, ok := getPath(doc, p).(string); ok {
			fr.doc, fr.path, fr.text = doc, p, s
			return fr
		}
	}
	return fr
}

func getPath(v any, path []string) any {
	for _, k := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			if k != "0" || len(x) == 0 {
				return nil
			}
			v = x[0]
		default:
			return nil
		}
	}
	return v
}

func setPath(doc map[string]any, path []string, s string) {
	var v any = doc
	for i, k := range path {
		last := i == len(path)-1
		switch x := v.(type) {
		case map[string]any:
			if last {
				x[k] = s
				return
			}
			v = x[k]
		case []any:
			if last {
				x[0] = s
				return
			}
			v = x[0]
		}
	}
}
