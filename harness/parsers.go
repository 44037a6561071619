package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// lines splits a stream of chunks into JSON lines.
type lines struct{ buf []byte }

// feed appends a chunk and calls f with every complete line.
func (l *lines) feed(chunk []byte, f func(line []byte)) {
	l.buf = append(l.buf, chunk...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return
		}
		line := bytes.TrimSpace(l.buf[:i])
		if len(line) > 0 {
			f(line)
		}
		l.buf = l.buf[i+1:]
	}
}

// rest calls f with a last line that had no newline.
func (l *lines) rest(f func(line []byte)) {
	if line := bytes.TrimSpace(l.buf); len(line) > 0 {
		f(line)
	}
	l.buf = nil
}

// jsonNumber reads a number field that may be missing or null.
func intOf(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case json.Number:
		i, _ := n.Int64()
		return int(i)
	}
	return 0
}

// cliOutcome is what a parser learned; finish turns it into a Result.
type cliOutcome struct {
	tool string
	// answer is the final answer the tool reported; streamed is what it
	// streamed on the way (used when no final answer came).
	answer   string
	streamed strings.Builder
	// done is set when the tool reported the end of a successful turn.
	done bool
	// failed is set when the tool reported a failure, with its message
	// and, when known, the HTTP status behind it.
	failed  bool
	errMsg  string
	status  int
	in, out int
	// read and write are the part of in served from and written to the
	// provider's prompt cache.
	read, write int
	cost        *float64
}

// finish classifies the end of a CLI call from what its output said, its
// exit code and its last stderr line.
func (o *cliOutcome) finish(exitCode int, stderrTail string, exitStatus func(int) int) Result {
	code := exitCode
	r := Result{ExitCode: &code, TokensIn: o.in, TokensOut: o.out, CacheRead: o.read, CacheWrite: o.write, CostUSD: o.cost}
	r.Body = o.answer
	if r.Body == "" {
		r.Body = o.streamed.String()
	}
	if o.done && !o.failed && exitCode == 0 && strings.TrimSpace(r.Body) != "" {
		return r
	}
	if b := strings.TrimSpace(r.Body); o.failed && b != "" && strings.Contains(o.errMsg, b) {
		r.Body = "" // the tool streamed its own error message as if the model had said it
	}
	msg := o.errMsg
	status := o.status
	if status == 0 && exitStatus != nil {
		status = exitStatus(exitCode)
	}
	if msg == "" {
		msg = stderrTail
	}
	switch {
	case msg == "" && exitCode == 0:
		msg = "the tool finished without an answer"
	case msg == "":
		msg = fmt.Sprintf("exit %d", exitCode)
	}
	if len(msg) > 400 {
		msg = msg[:400] + "…"
	}
	r.Failure = classify(status, msg)
	if r.Failure.Retryable() && strings.TrimSpace(r.Body) != "" {
		r.Failure = FailEngine // part of an answer came: never retried automatically
	}
	prefix := o.tool
	if status > 0 {
		prefix = fmt.Sprintf("%s: HTTP %d", o.tool, status)
	}
	r.Err = prefix + ": " + strings.ToValidUTF8(msg, "?")
	return r
}

// codexParser reads `codex exec --json`: the answer is the text of the
// last agent_message item; usage comes with turn.completed; turn.failed is
// fatal, error items are notices.
type codexParser struct {
	lines
	cliOutcome
}

func newCodexParser() *codexParser { return &codexParser{cliOutcome: cliOutcome{tool: "codex"}} }

type codexEvent struct {
	Type string `json:"type"`
	Item struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"`
	Usage struct {
		InputTokens  int `json:"input_tokens"`
		Cached       int `json:"cached_input_tokens"`
		CacheWrite   int `json:"cache_write_input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	Error struct {
		Message string `json:"message"`
	} `json:"error"`
	Message string `json:"message"`
}

func (p *codexParser) Feed(chunk []byte) string {
	var out strings.Builder
	p.feed(chunk, func(l []byte) { out.WriteString(p.line(l)) })
	return out.String()
}

func (p *codexParser) line(l []byte) string {
	var ev codexEvent
	if json.Unmarshal(l, &ev) != nil {
		return ""
	}
	switch ev.Type {
	case "item.completed":
		if ev.Item.Type == "agent_message" && ev.Item.Text != "" {
			sep := ""
			if p.answer != "" {
				sep = "\n\n"
			}
			p.answer = ev.Item.Text
			p.streamed.WriteString(sep + ev.Item.Text)
			return sep + ev.Item.Text
		}
	case "turn.completed":
		p.done = true
		p.in += ev.Usage.InputTokens // cached input included, as OpenAI counts it
		p.read += ev.Usage.Cached
		p.write += ev.Usage.CacheWrite
		p.out += ev.Usage.OutputTokens
	case "turn.failed":
		p.failed = true
		p.errMsg = ev.Error.Message
	case "error":
		if p.errMsg == "" || !p.failed {
			p.errMsg = ev.Message
		}
	}
	return ""
}

func (p *codexParser) Finish(exitCode int, stderrTail string) Result {
	p.rest(func(l []byte) { p.line(l) })
	p.status = statusIn(p.errMsg)
	return p.finish(exitCode, stderrTail, nil)
}

// streamJSONParser reads the stream-json of claude and qwen: text deltas
// in stream_event lines, and one result line with the answer, is_error,
// usage and (claude) the cost.
type streamJSONParser struct {
	lines
	cliOutcome
	deltas bool
}

func newStreamJSONParser(tool string) *streamJSONParser {
	return &streamJSONParser{cliOutcome: cliOutcome{tool: tool}}
}

type streamJSONEvent struct {
	Type  string `json:"type"`
	Event struct {
		Type  string `json:"type"`
		Delta struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"delta"`
	} `json:"event"`
	Message struct {
		Model   string `json:"model"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"message"`
	Subtype        string         `json:"subtype"`
	IsError        bool           `json:"is_error"`
	Result         string         `json:"result"`
	Usage          map[string]any `json:"usage"`
	TotalCostUSD   *float64       `json:"total_cost_usd"`
	APIErrorStatus any            `json:"api_error_status"`
	Error          any            `json:"error"`
}

func (p *streamJSONParser) Feed(chunk []byte) string {
	var out strings.Builder
	p.feed(chunk, func(l []byte) { out.WriteString(p.line(l)) })
	return out.String()
}

func (p *streamJSONParser) line(l []byte) string {
	var ev streamJSONEvent
	if json.Unmarshal(l, &ev) != nil {
		return ""
	}
	switch ev.Type {
	case "stream_event":
		if ev.Event.Type == "content_block_delta" && ev.Event.Delta.Type == "text_delta" {
			p.deltas = true
			p.streamed.WriteString(ev.Event.Delta.Text)
			return ev.Event.Delta.Text
		}
	case "assistant":
		// without partial messages the whole message streams at once; a
		// "<synthetic>" message is the tool's own error text, not the model's
		if !p.deltas && ev.Message.Model != "<synthetic>" {
			var s strings.Builder
			for _, c := range ev.Message.Content {
				if c.Type == "text" {
					s.WriteString(c.Text)
				}
			}
			p.streamed.WriteString(s.String())
			return s.String()
		}
	case "result":
		p.read, p.write = intOf(ev.Usage["cache_read_input_tokens"]), intOf(ev.Usage["cache_creation_input_tokens"])
		p.in = intOf(ev.Usage["input_tokens"]) + p.read + p.write // Anthropic counts them apart
		p.out = intOf(ev.Usage["output_tokens"])
		if ev.TotalCostUSD != nil && *ev.TotalCostUSD > 0 {
			p.cost = ev.TotalCostUSD
		}
		if ev.IsError || (ev.Subtype != "" && ev.Subtype != "success") {
			p.failed = true
			p.errMsg = ev.Result
			if p.errMsg == "" {
				p.errMsg = errorText(ev.Error)
			}
			if p.errMsg == "" {
				p.errMsg = ev.Subtype
			}
			p.status = intOf(ev.APIErrorStatus)
			if p.status == 0 {
				p.status = statusIn(p.errMsg)
			}
		} else {
			p.done = true
			p.answer = ev.Result
		}
	}
	return ""
}

func (p *streamJSONParser) Finish(exitCode int, stderrTail string) Result {
	p.rest(func(l []byte) { p.line(l) })
	if p.status == 0 {
		p.status = statusIn(stderrTail)
	}
	return p.finish(exitCode, stderrTail, nil)
}

// errorText digs a message out of an error value of unknown shape.
func errorText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case map[string]any:
		for _, k := range []string{"message", "error", "data"} {
			if s := errorText(t[k]); s != "" {
				return s
			}
		}
	}
	return ""
}

// geminiParser reads `gemini -o stream-json`: assistant message deltas and
// a result line with status and token stats. Errors also come as JSON on
// stderr, and the exit code is the HTTP status mod 256.
type geminiParser struct {
	lines
	cliOutcome
}

func newGeminiParser() *geminiParser { return &geminiParser{cliOutcome: cliOutcome{tool: "gemini"}} }

func (p *geminiParser) Feed(chunk []byte) string {
	var out strings.Builder
	p.feed(chunk, func(l []byte) { out.WriteString(p.line(l)) })
	return out.String()
}

func (p *geminiParser) line(l []byte) string {
	var ev struct {
		Type    string         `json:"type"`
		Role    string         `json:"role"`
		Content string         `json:"content"`
		Status  string         `json:"status"`
		Stats   map[string]any `json:"stats"`
		Error   any            `json:"error"`
		Message string         `json:"message"`
	}
	if json.Unmarshal(l, &ev) != nil {
		return ""
	}
	switch ev.Type {
	case "message":
		if ev.Role == "assistant" {
			p.streamed.WriteString(ev.Content)
			return ev.Content
		}
	case "result":
		p.in = intOf(ev.Stats["input_tokens"]) // cached input included
		p.read = intOf(ev.Stats["cached"])
		p.out = intOf(ev.Stats["output_tokens"])
		if ev.Status == "success" {
			p.done = true
		} else {
			p.failed = true
			p.errMsg = errorText(ev.Error)
			if p.errMsg == "" {
				p.errMsg = "result status " + ev.Status
			}
			if m, ok := ev.Error.(map[string]any); ok {
				p.status = httpStatus(intOf(m["code"]))
			}
		}
	case "error":
		if s := errorText(ev.Error); s != "" {
			p.errMsg = s
		} else if ev.Message != "" {
			p.errMsg = ev.Message
		}
	}
	return ""
}

// httpStatus keeps a code only when it is an HTTP status.
func httpStatus(c int) int {
	if c >= 400 && c < 600 {
		return c
	}
	return 0
}

func (p *geminiParser) Finish(exitCode int, stderrTail string) Result {
	p.rest(func(l []byte) { p.line(l) })
	if p.errMsg == "" {
		var e struct {
			Error struct {
				Message string `json:"message"`
				Code    any    `json:"code"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(stderrTail), &e) == nil && e.Error.Message != "" {
			p.errMsg = e.Error.Message
			p.status = httpStatus(intOf(e.Error.Code))
		}
	}
	switch exitCode {
	case 41:
		if p.errMsg == "" {
			p.errMsg = "no usable credentials (exit 41): set GEMINI_API_KEY or the engine's api_key_env"
		}
		p.status = 401
	case 55:
		if p.errMsg == "" {
			p.errMsg = "the working folder is not trusted (exit 55)"
		}
	}
	if p.status == 0 {
		p.status = statusIn(p.errMsg)
	}
	return p.finish(exitCode, stderrTail, geminiExitStatus)
}

// geminiExitStatus maps gemini's exit code back to the HTTP status it
// encodes (the status mod 256).
func geminiExitStatus(exit int) int {
	for _, s := range []int{400, 401, 403, 404, 408, 429, 500, 502, 503, 504} {
		if exit == s%256 {
			return s
		}
	}
	return 0
}

// opencodeParser reads `opencode run --format json`: text parts, step
// endings with tokens and cost, and error events.
type opencodeParser struct {
	lines
	cliOutcome
	step strings.Builder
}

func newOpencodeParser() *opencodeParser {
	return &opencodeParser{cliOutcome: cliOutcome{tool: "opencode"}}
}

func (p *opencodeParser) Feed(chunk []byte) string {
	var out strings.Builder
	p.feed(chunk, func(l []byte) { out.WriteString(p.line(l)) })
	return out.String()
}

func (p *opencodeParser) line(l []byte) string {
	var ev struct {
		Type string `json:"type"`
		Part struct {
			Text   string         `json:"text"`
			Reason string         `json:"reason"`
			Tokens map[string]any `json:"tokens"`
			Cost   *float64       `json:"cost"`
		} `json:"part"`
		Error any `json:"error"`
	}
	if json.Unmarshal(l, &ev) != nil {
		return ""
	}
	switch ev.Type {
	case "step_start":
		p.step.Reset()
	case "text":
		sep := ""
		if p.step.Len() > 0 {
			sep = "\n\n"
		}
		p.step.WriteString(sep + ev.Part.Text)
		p.streamed.WriteString(sep + ev.Part.Text)
		return sep + ev.Part.Text
	case "step_finish":
		p.in += intOf(ev.Part.Tokens["input"])
		if c, ok := ev.Part.Tokens["cache"].(map[string]any); ok {
			p.in += intOf(c["read"]) + intOf(c["write"])
			p.read += intOf(c["read"])
			p.write += intOf(c["write"])
		}
		p.out += intOf(ev.Part.Tokens["output"]) + intOf(ev.Part.Tokens["reasoning"])
		if ev.Part.Cost != nil && *ev.Part.Cost > 0 {
			c := *ev.Part.Cost
			if p.cost != nil {
				c += *p.cost
			}
			p.cost = &c
		}
		if p.step.Len() > 0 {
			p.answer = p.step.String()
		}
		if ev.Part.Reason != "tool-calls" {
			p.done = true
		}
	case "error":
		p.failed = true
		p.errMsg = errorText(ev.Error)
		if m, ok := ev.Error.(map[string]any); ok {
			if d, ok := m["data"].(map[string]any); ok {
				p.status = httpStatus(intOf(d["statusCode"]))
			}
			if p.errMsg == "" {
				if n, ok := m["name"].(string); ok {
					p.errMsg = n
				}
			}
		}
	}
	return ""
}

func (p *opencodeParser) Finish(exitCode int, stderrTail string) Result {
	p.rest(func(l []byte) { p.line(l) })
	if p.status == 0 {
		p.status = statusIn(p.errMsg + " " + stderrTail)
	}
	return p.finish(exitCode, stderrTail, nil)
}
