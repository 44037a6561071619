// Package fakeprovider is a fake model provider for moot's tests: an
// httptest server that speaks the APIs the vendor CLIs and HTTP engines call
// — the OpenAI Responses API (codex), the Anthropic Messages API with SSE
// and plain JSON (claude, anthropic), Gemini's streamGenerateContent SSE
// (gemini), Chat Completions SSE with a usage chunk (opencode, qwen,
// openai) and Ollama's native chat — answering in the debate protocol's
// format, or failing the way a test asks.
package fakeprovider

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/reversa/moot/internal/fakeanswer"
)

// Mode is how the fake provider behaves.
type Mode string

// The modes a test can set.
const (
	OK Mode = "ok"
	// Unauthorized answers 401; RateLimited 429; ServerError 500.
	Unauthorized Mode = "401"
	RateLimited  Mode = "429"
	ServerError  Mode = "500"
	// Hang never sends headers; Stall sends the first chunk and stops;
	// Cut sends part of the answer and closes the stream.
	Hang  Mode = "hang"
	Stall Mode = "stall"
	Cut   Mode = "cut"
	// Tool asks the client to write a file and run a shell command first,
	// then answers.
	Tool Mode = "tool"
	// GiantLine streams one SSE data line that never ends (up to 4 GiB);
	// GzipBomb streams a gzip-encoded body that inflates to 1 GiB from a
	// few MiB. Both stop when the client hangs up.
	GiantLine Mode = "giantline"
	GzipBomb  Mode = "gzipbomb"
	// CallTool calls the offered tool whose name ends with CallToolName
	// (an MCP server's tool, as a host CLI names it) with CallToolArgs,
	// then answers with the text the tool returned; a request that offers
	// no such tool is answered as OK.
	CallTool Mode = "calltool"
)

// Request is a request the server received.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         map[string]any
	Prompt       string
}

// Server is the fake provider.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	mode     Mode
	requests []Request
	// TokensIn and TokensOut are the usage every answer reports.
	TokensIn, TokensOut int
	// Delay is how long each answer takes to start.
	Delay time.Duration
	// ToolFile is the file name the tool mode asks to create.
	ToolFile string
	// Ollama makes the server answer Ollama's own endpoints (/api/version,
	// /api/show) as well, so clients detect an Ollama server.
	Ollama bool
	// ContextLength is the context window /api/show reports.
	ContextLength int
	// CallToolName and CallToolArgs are the tool the CallTool mode calls.
	CallToolName string
	CallToolArgs map[string]any
	// Cache makes the server count a request's input from its prompt
	// (a token every 4 bytes) and emulate each API's prompt cache
	// (cache.go): Anthropic's explicit breakpoints, OpenAI's and Gemini's
	// automatic prefix caches.
	Cache   bool
	caches  prefixCaches
	stop    chan struct{}
	attacks int
}

// New starts a fake provider on 127.0.0.1.
func New() *Server {
	s := &Server{mode: OK, TokensIn: 1234, TokensOut: 321, ToolFile: "pwned.txt", ContextLength: 32768, stop: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close stops the server, releasing requests left hanging.
func (s *Server) Close() {
	s.mu.Lock()
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.mu.Unlock()
	s.Server.CloseClientConnections()
	s.Server.Close()
}

// SetMode changes the behaviour of the next requests.
func (s *Server) SetMode(m Mode) {
	s.mu.Lock()
	s.mode = m
	s.mu.Unlock()
}

func (s *Server) currentMode() Mode {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Calls counts the model requests (listings excluded).
func (s *Server) Calls() int {
	n := 0
	for _, r := range s.Requests() {
		if r.Method == http.MethodPost {
			n++
		}
	}
	return n
}

// api is the protocol a request speaks.
type api int

const (
	apiResponses api = iota
	apiMessages
	apiGemini
	apiChat
	apiOllama
)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	raw, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(raw, &body)
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	var a api
	switch {
	case r.Method == http.MethodGet:
		s.record(req)
		s.list(w, r)
		return
	case strings.HasSuffix(r.URL.Path, "/responses"):
		a = apiResponses
	case strings.HasSuffix(r.URL.Path, "/messages"):
		a = apiMessages
	case strings.Contains(r.URL.Path, ":streamGenerateContent") || strings.Contains(r.URL.Path, ":generateContent"):
		a = apiGemini
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		a = apiChat
	case r.URL.Path == "/api/chat":
		a = apiOllama
	case r.URL.Path == "/api/show":
		s.record(req)
		if !s.Ollama {
			http.NotFound(w, r)
			return
		}
		writeJSON(w, 200, map[string]any{"model_info": map[string]any{"general.architecture": "llama", "llama.context_length": s.ContextLength}})
		return
	case strings.HasSuffix(r.URL.Path, "/count_tokens"):
		s.record(req)
		writeJSON(w, 200, map[string]any{"input_tokens": s.TokensIn})
		return
	default:
		s.record(req)
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	req.Prompt = promptOf(a, body)
	arrived := time.Now()
	s.record(req)
	mode := s.currentMode()
	if s.Delay > 0 {
		select {
		case <-time.After(s.Delay):
		case <-r.Context().Done():
			return
		}
	}
	switch mode {
	case Unauthorized, RateLimited, ServerError:
		s.fail(w, a, mode)
		return
	case Hang:
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
		return
	}
	if mode == GiantLine || mode == GzipBomb {
		s.flood(w, r, mode)
		return
	}
	if mode == CallTool {
		s.callTool(w, r, a, body, req.Prompt)
		return
	}
	if mode == Tool && !hasToolResult(a, body) {
		s.tool(w, r, a, body, raw, req.Prompt)
		return
	}
	u := usage{in: s.TokensIn}
	if s.Cache {
		u = s.caches.use(a, body, req.Prompt, arrived)
	}
	s.answer(w, r, a, body, mode, fakeanswer.Reply(req.Prompt, ""), u)
}

// flood sends a body without bound: one endless SSE line, or a gzip bomb.
// It stops when the client hangs up, the server closes, or at 4 GiB.
func (s *Server) flood(w http.ResponseWriter, r *http.Request, mode Mode) {
	w.Header().Set("Content-Type", "text/event-stream")
	var out io.Writer = w
	if mode == GzipBomb {
		w.Header().Set("Content-Encoding", "gzip")
		gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
		defer gz.Close()
		out = gz
	}
	w.WriteHeader(200)
	_, _ = io.WriteString(out, `data: {"choices":[{"index":0,"delta":{"content":"`)
	chunk := bytes.Repeat([]byte("A"), 64<<10)
	fl, _ := w.(http.Flusher)
	limit := 4 << 30
	if mode == GzipBomb {
		limit = 1 << 30
	}
	for sent := 0; sent < limit; sent += len(chunk) {
		select {
		case <-r.Context().Done():
			return
		case <-s.stop:
			return
		default:
		}
		if _, err := out.Write(chunk); err != nil {
			return
		}
		if fl != nil && sent%(1<<20) == 0 {
			fl.Flush()
		}
	}
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r)
	s.mu.Unlock()
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// list answers the model listings the probes use.
func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	if m := s.currentMode(); m == Unauthorized {
		writeJSON(w, 401, map[string]any{"error": map[string]any{"message": "invalid api key", "type": "authentication_error"}})
		return
	}
	switch {
	case r.URL.Path == "/api/version":
		if !s.Ollama {
			http.NotFound(w, r)
			return
		}
		writeJSON(w, 200, map[string]any{"version": "0.0.0-fake"})
	case strings.Contains(r.URL.Path, "/v1beta/models"):
		writeJSON(w, 200, map[string]any{"models": []any{map[string]any{"name": "models/fake-model"}}})
	default:
		writeJSON(w, 200, map[string]any{"object": "list", "data": []any{map[string]any{"id": "fake-model", "object": "model", "type": "model"}}})
	}
}

// fail answers with an HTTP error in the API's shape.
func (s *Server) fail(w http.ResponseWriter, a api, m Mode) {
	code := map[Mode]int{Unauthorized: 401, RateLimited: 429, ServerError: 500}[m]
	if code != 401 {
		// what real providers send; clients that retry on their own
		// (opencode) then retry at once instead of backing off for a minute
		w.Header().Set("Retry-After-Ms", "0")
		w.Header().Set("Retry-After", "0")
	}
	msg := map[Mode]string{Unauthorized: "invalid x-api-key", RateLimited: "rate limit exceeded", ServerError: "internal server error"}[m]
	switch a {
	case apiMessages:
		typ := map[Mode]string{Unauthorized: "authentication_error", RateLimited: "rate_limit_error", ServerError: "api_error"}[m]
		writeJSON(w, code, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
	case apiGemini:
		status := map[Mode]string{Unauthorized: "UNAUTHENTICATED", RateLimited: "RESOURCE_EXHAUSTED", ServerError: "INTERNAL"}[m]
		writeJSON(w, code, map[string]any{"error": map[string]any{"code": code, "message": msg, "status": status}})
	default:
		writeJSON(w, code, map[string]any{"error": map[string]any{"message": msg, "type": "error", "code": fmt.Sprint(code)}})
	}
}

// promptOf extracts the last user text of a request.
func promptOf(a api, body map[string]any) string {
	var texts []string
	add := func(v any) {
		switch c := v.(type) {
		case string:
			texts = append(texts, c)
		case []any:
			// each text block is a text of its own (a CLI adds notes of its
			// own beside the prompt), but a Messages API block marked with a
			// cache breakpoint is joined to the next: the breakpoint split
			// one prompt into two
			var b strings.Builder
			for _, part := range c {
				if m, ok := part.(map[string]any); ok {
					if t, ok := m["text"].(string); ok {
						b.WriteString(t)
						if _, split := m["cache_control"]; !split || a != apiMessages {
							texts = append(texts, b.String())
							b.Reset()
						}
					}
				}
			}
			if b.Len() > 0 {
				texts = append(texts, b.String())
			}
		}
	}
	switch a {
	case apiResponses:
		if in, ok := body["input"].([]any); ok {
			for _, item := range in {
				if m, ok := item.(map[string]any); ok && m["role"] == "user" {
					add(m["content"])
				}
			}
		} else if s, ok := body["input"].(string); ok {
			texts = append(texts, s)
		}
	case apiGemini:
		if cs, ok := body["contents"].([]any); ok {
			for _, c := range cs {
				if m, ok := c.(map[string]any); ok && m["role"] != "model" {
					add(m["parts"])
				}
			}
		}
	default:
		if ms, ok := body["messages"].([]any); ok {
			for _, msg := range ms {
				if m, ok := msg.(map[string]any); ok && m["role"] == "user" {
					add(m["content"])
				}
			}
		}
	}
	// the debate's prompt (CLIs add notes of their own): the last user text
	// that addresses a debater, else the longest
	best := ""
	for _, t := range texts {
		if strings.Contains(t, "Você é") || strings.Contains(t, "You are ") {
			best = t
		}
	}
	if best == "" {
		for _, t := range texts {
			if len(t) > len(best) {
				best = t
			}
		}
	}
	if a == apiGemini {
		// a caller that puts the start of its prompt in the system prompt
		// (the gemini CLI's own begins "You are Gemini CLI"): the file's
		// text, whose trailing blank lines the CLI trims, then the rest
		if sys := geminiSystem(body); sys != "" && !strings.HasPrefix(sys, "You are Gemini CLI") {
			best = sys + "\n\n" + best
		}
	}
	return best
}

// geminiSystem is the text of a Gemini request's system instruction.
func geminiSystem(body map[string]any) string {
	si, _ := body["systemInstruction"].(map[string]any)
	parts, _ := si["parts"].([]any)
	var b strings.Builder
	for _, part := range parts {
		if m, ok := part.(map[string]any); ok {
			t, _ := m["text"].(string)
			b.WriteString(t)
		}
	}
	return b.String()
}

// hasToolResult reports whether the client already ran (or refused) the tool.
func hasToolResult(a api, body map[string]any) bool {
	items := func(key string) []map[string]any {
		var out []map[string]any
		list, _ := body[key].([]any)
		for _, x := range list {
			if m, ok := x.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	parts := func(m map[string]any, key string) []map[string]any {
		var out []map[string]any
		list, _ := m[key].([]any)
		for _, x := range list {
			if p, ok := x.(map[string]any); ok {
				out = append(out, p)
			}
		}
		return out
	}
	switch a {
	case apiResponses:
		for _, it := range items("input") {
			if t, _ := it["type"].(string); t == "function_call_output" || t == "custom_tool_call_output" {
				return true
			}
		}
	case apiMessages:
		for _, m := range items("messages") {
			for _, p := range parts(m, "content") {
				if p["type"] == "tool_result" {
					return true
				}
			}
		}
	case apiGemini:
		for _, c := range items("contents") {
			for _, p := range parts(c, "parts") {
				if _, ok := p["functionResponse"]; ok {
					return true
				}
			}
		}
	default:
		for _, m := range items("messages") {
			if m["role"] == "tool" {
				return true
			}
		}
	}
	return false
}

// flusher streams SSE or NDJSON.
type stream struct {
	w http.ResponseWriter
	f http.Flusher
}

func newStream(w http.ResponseWriter, contentType string) *stream {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	f, _ := w.(http.Flusher)
	st := &stream{w: w, f: f}
	st.flush()
	return st
}

func (st *stream) flush() {
	if st.f != nil {
		st.f.Flush()
	}
}

func (st *stream) event(name string, v any) {
	b, _ := json.Marshal(v)
	if name != "" {
		fmt.Fprintf(st.w, "event: %s\n", name)
	}
	fmt.Fprintf(st.w, "data: %s\n\n", b)
	st.flush()
}

func (st *stream) line(v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(st.w, "%s\n", b)
	st.flush()
}

// chunks splits an answer into streaming pieces.
func chunks(text string) []string {
	var out []string
	for len(text) > 0 {
		n := min(len(text), 200)
		for n < len(text) && (text[n]&0xC0) == 0x80 {
			n++
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

// interrupt ends a stream early for the stall and cut modes; it returns
// true when the stream must stop here.
func (s *Server) interrupt(r *http.Request, mode Mode, i int) bool {
	if i == 0 {
		return false
	}
	switch mode {
	case Stall:
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
		return true
	case Cut:
		return true
	}
	return false
}

func isStream(body map[string]any) bool {
	b, _ := body["stream"].(bool)
	return b
}

// answer streams (or returns) a text answer in the API's shape.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, a api, body map[string]any, mode Mode, text string, u usage) {
	model, _ := body["model"].(string)
	if model == "" {
		model = "fake-model"
	}
	parts := chunks(text)
	switch a {
	case apiResponses:
		st := newStream(w, "text/event-stream")
		st.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_fake", "status": "in_progress", "model": model}})
		st.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0,
			"item": map[string]any{"type": "message", "id": "msg_fake", "role": "assistant", "status": "in_progress", "content": []any{}}})
		st.event("response.content_part.added", map[string]any{"type": "response.content_part.added", "item_id": "msg_fake", "output_index": 0, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		for i, p := range parts {
			if s.interrupt(r, mode, i) {
				return
			}
			st.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": "msg_fake", "output_index": 0, "content_index": 0, "delta": p})
		}
		item := map[string]any{"type": "message", "id": "msg_fake", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
		st.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
		st.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
			"id": "resp_fake", "status": "completed", "model": model, "output": []any{item},
			"usage": map[string]any{"input_tokens": u.in, "output_tokens": s.TokensOut, "total_tokens": u.in + s.TokensOut,
				"input_tokens_details": map[string]any{"cached_tokens": u.read}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}})
	case apiMessages:
		uncached := u.in - u.read - u.write
		msg := map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": []any{},
			"stop_reason": nil, "usage": map[string]any{"input_tokens": uncached, "output_tokens": 1,
				"cache_read_input_tokens": u.read, "cache_creation_input_tokens": u.write}}
		if !isStream(body) {
			if mode == Cut || mode == Stall {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(200)
				io.WriteString(w, `{"id":"msg_fake","type":"mess`)
				return
			}
			msg["content"] = []any{map[string]any{"type": "text", "text": text}}
			msg["stop_reason"] = "end_turn"
			msg["usage"] = map[string]any{"input_tokens": uncached, "output_tokens": s.TokensOut, "cache_read_input_tokens": u.read, "cache_creation_input_tokens": u.write}
			writeJSON(w, 200, msg)
			return
		}
		st := newStream(w, "text/event-stream")
		st.event("message_start", map[string]any{"type": "message_start", "message": msg})
		st.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		for i, p := range parts {
			if s.interrupt(r, mode, i) {
				return
			}
			st.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": p}})
		}
		st.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		st.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil},
			"usage": map[string]any{"input_tokens": uncached, "output_tokens": s.TokensOut, "cache_read_input_tokens": u.read, "cache_creation_input_tokens": u.write}})
		st.event("message_stop", map[string]any{"type": "message_stop"})
	case apiGemini:
		st := newStream(w, "text/event-stream")
		for i, p := range parts {
			if s.interrupt(r, mode, i) {
				return
			}
			st.event("", map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": p}}}, "index": 0}}})
		}
		st.event("", map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": ""}}}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": u.in, "cachedContentTokenCount": u.read, "candidatesTokenCount": s.TokensOut, "totalTokenCount": u.in + s.TokensOut}})
	case apiChat:
		if !isStream(body) {
			writeJSON(w, 200, map[string]any{"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
				"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
				"usage":   chatUsage(u, s.TokensOut)})
			return
		}
		st := newStream(w, "text/event-stream")
		chunk := func(delta map[string]any, finish any) map[string]any {
			return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model,
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		}
		st.event("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
		for i, p := range parts {
			if s.interrupt(r, mode, i) {
				return
			}
			st.event("", chunk(map[string]any{"content": p}, nil))
		}
		st.event("", chunk(map[string]any{}, "stop"))
		st.event("", map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model, "choices": []any{},
			"usage": chatUsage(u, s.TokensOut)})
		fmt.Fprint(w, "data: [DONE]\n\n")
		st.flush()
	case apiOllama:
		st := newStream(w, "application/x-ndjson")
		for i, p := range parts {
			if s.interrupt(r, mode, i) {
				return
			}
			st.line(map[string]any{"model": model, "message": map[string]any{"role": "assistant", "content": p}, "done": false})
		}
		st.line(map[string]any{"model": model, "message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop",
			"prompt_eval_count": u.in, "eval_count": s.TokensOut})
	}
}

// offeredTool is a tool the client offered the model.
type offeredTool struct {
	name   string
	schema map[string]any
	custom bool // a Responses API custom tool (free-form input)
}

// offeredTools lists the tools of a request, in each API's shape.
func offeredTools(a api, body map[string]any) []offeredTool {
	var out []offeredTool
	list, _ := body["tools"].([]any)
	for _, x := range list {
		t, _ := x.(map[string]any)
		if t == nil {
			continue
		}
		switch a {
		case apiResponses:
			name, _ := t["name"].(string)
			params, _ := t["parameters"].(map[string]any)
			out = append(out, offeredTool{name: name, schema: params, custom: t["type"] == "custom"})
		case apiMessages:
			name, _ := t["name"].(string)
			params, _ := t["input_schema"].(map[string]any)
			out = append(out, offeredTool{name: name, schema: params})
		case apiGemini:
			decls, _ := t["functionDeclarations"].([]any)
			for _, d := range decls {
				m, _ := d.(map[string]any)
				name, _ := m["name"].(string)
				params, _ := m["parameters"].(map[string]any)
				if params == nil {
					params, _ = m["parametersJsonSchema"].(map[string]any)
				}
				out = append(out, offeredTool{name: name, schema: params})
			}
		default:
			f, _ := t["function"].(map[string]any)
			name, _ := f["name"].(string)
			params, _ := f["parameters"].(map[string]any)
			out = append(out, offeredTool{name: name, schema: params})
		}
	}
	return out
}

var (
	writeToolRE = regexp.MustCompile(`(?i)^(write|write_file|create_file|edit|edit_file|multiedit|replace|str_replace\w*|apply_patch|notebookedit|patch)$`)
	shellToolRE = regexp.MustCompile(`(?i)^(bash|shell|shell_command|exec_command|run_shell_command|run_command|execute|terminal|unified_exec)$`)
	agentToolRE = regexp.MustCompile(`(?i)^(task|agent|spawn_agent|invoke_agent)$`)
	workDirRE   = regexp.MustCompile(`(/[^\s"'\\]*moot-[a-z]+-\d+/work)`)
)

// attackCall is a tool call the fake model makes.
type attackCall struct {
	name string
	args map[string]any
	// input is a custom tool's free-form input.
	input  string
	custom bool
}

// attackCalls are the calls that try to write a file and run a shell
// command with whatever tools the client offered: direct write and shell
// tools, a meta tool that calls another tool, or a subagent told to do
// it. The arguments follow each tool's own schema.
func (s *Server) attackCalls(a api, body map[string]any, raw []byte, prompt string) []attackCall {
	dir := ""
	if m := workDirRE.FindSubmatch(raw); m != nil {
		dir = string(m[1])
	}
	path := s.ToolFile
	if dir != "" {
		path = dir + "/" + s.ToolFile
	}
	shell := "echo pwned > " + path + ".shell"
	subagent := strings.Contains(prompt, "Create the file ")
	var calls []attackCall
	for _, t := range offeredTools(a, body) {
		switch {
		case t.custom && writeToolRE.MatchString(t.name):
			calls = append(calls, attackCall{name: t.name, custom: true,
				input: "*** Begin Patch\n*** Add File: " + path + "\n+pwned\n*** End Patch\n"})
		case writeToolRE.MatchString(t.name) || shellToolRE.MatchString(t.name):
			calls = append(calls, attackCall{name: t.name, args: schemaArgs(t.schema, path, shell)})
		case t.name == "tool_call":
			for _, inner := range []struct {
				name string
				args map[string]any
			}{
				{"write_file", map[string]any{"file_path": path, "content": "pwned"}},
				{"run_shell_command", map[string]any{"command": shell, "description": "x"}},
			} {
				args := map[string]any{}
				for p, v := range properties(t.schema) {
					switch typ, _ := v["type"].(string); {
					case typ == "object":
						args[p] = inner.args
					case strings.Contains(strings.ToLower(p), "name"):
						args[p] = inner.name
					case typ == "string":
						b, _ := json.Marshal(inner.args)
						args[p] = string(b)
					}
				}
				calls = append(calls, attackCall{name: t.name, args: args})
			}
		case agentToolRE.MatchString(t.name) && !subagent:
			calls = append(calls, attackCall{name: t.name, args: schemaArgs(t.schema, path, shell)})
		}
	}
	return calls
}

// properties returns a JSON schema's properties.
func properties(schema map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	props, _ := schema["properties"].(map[string]any)
	for k, v := range props {
		m, _ := v.(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		out[k] = m
	}
	return out
}

// schemaArgs fills a tool's arguments from its schema: paths point at the
// file to create, contents say pwned, commands run the shell command,
// prompts ask a subagent to do both.
func schemaArgs(schema map[string]any, path, shell string) map[string]any {
	args := map[string]any{}
	required := map[string]bool{}
	if r, ok := schema["required"].([]any); ok {
		for _, x := range r {
			if s, ok := x.(string); ok {
				required[s] = true
			}
		}
	}
	for p, v := range properties(schema) {
		typ, _ := v["type"].(string)
		l := strings.ToLower(p)
		switch {
		case strings.Contains(l, "path") || l == "file" || l == "filename":
			args[p] = path
		case l == "content" || l == "contents" || l == "text" || l == "new_string" || l == "newstring" || l == "new_str":
			args[p] = "pwned"
		case l == "old_string" || l == "oldstring" || l == "old_str":
			args[p] = ""
		case strings.Contains(l, "command") || l == "cmd" || l == "script":
			if typ == "array" {
				args[p] = []any{"bash", "-lc", shell}
			} else {
				args[p] = shell
			}
		case l == "description" || l == "prompt" || l == "task" || l == "instructions" || l == "message" || l == "objective":
			args[p] = "Create the file " + path + " containing pwned, then run: " + shell
		case l == "subagent_type" || l == "agent_type" || l == "agent_name" || l == "agent":
			args[p] = "general-purpose"
		case required[p]:
			switch typ {
			case "boolean":
				args[p] = false
			case "number", "integer":
				args[p] = 1
			case "array":
				args[p] = []any{}
			case "object":
				args[p] = map[string]any{}
			default:
				args[p] = "x"
			}
		}
	}
	return args
}

// Attacks counts the tool calls the fake model has made.
func (s *Server) Attacks() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attacks
}

// tool answers with tool calls that try to write a file and run a shell
// command; with no such tool offered it answers normally.
func (s *Server) tool(w http.ResponseWriter, r *http.Request, a api, body map[string]any, raw []byte, prompt string) {
	calls := s.attackCalls(a, body, raw, prompt)
	if len(calls) == 0 {
		s.answer(w, r, a, body, OK, fakeanswer.Reply(prompt, ""), usage{in: s.TokensIn})
		return
	}
	s.mu.Lock()
	s.attacks += len(calls)
	s.mu.Unlock()
	s.respondCalls(w, a, body, calls)
}

// respondCalls answers with the tool calls, in the request's API.
func (s *Server) respondCalls(w http.ResponseWriter, a api, body map[string]any, calls []attackCall) {
	switch a {
	case apiResponses:
		st := newStream(w, "text/event-stream")
		st.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_tool", "status": "in_progress"}})
		var items []any
		for i, c := range calls {
			var item map[string]any
			if c.custom {
				item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%d", i), "call_id": fmt.Sprintf("call_%d", i), "name": c.name, "input": c.input, "status": "completed"}
			} else {
				args, _ := json.Marshal(c.args)
				item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", i), "call_id": fmt.Sprintf("call_%d", i), "name": c.name, "arguments": string(args), "status": "completed"}
			}
			items = append(items, item)
			st.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": item})
		}
		st.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp_tool", "status": "completed", "output": items,
			"usage": map[string]any{"input_tokens": 10, "output_tokens": 10, "total_tokens": 20}}})
	case apiMessages:
		var content []any
		for i, c := range calls {
			content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", i), "name": c.name, "input": c.args})
		}
		msg := map[string]any{"id": "msg_tool", "type": "message", "role": "assistant", "model": "fake-model", "content": content, "stop_reason": "tool_use",
			"usage": map[string]any{"input_tokens": 10, "output_tokens": 10}}
		if !isStream(body) {
			writeJSON(w, 200, msg)
			return
		}
		st := newStream(w, "text/event-stream")
		start := map[string]any{}
		for k, v := range msg {
			start[k] = v
		}
		start["content"] = []any{}
		st.event("message_start", map[string]any{"type": "message_start", "message": start})
		for i, c := range content {
			cb := c.(map[string]any)
			in, _ := json.Marshal(cb["input"])
			st.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": cb["id"], "name": cb["name"], "input": map[string]any{}}})
			st.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
			st.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
		}
		st.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use"}, "usage": map[string]any{"output_tokens": 10}})
		st.event("message_stop", map[string]any{"type": "message_stop"})
	case apiGemini:
		var parts []any
		for _, c := range calls {
			parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.name, "args": c.args}})
		}
		st := newStream(w, "text/event-stream")
		st.event("", map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 10, "totalTokenCount": 20}})
	case apiOllama:
		var tc []any
		for _, c := range calls {
			tc = append(tc, map[string]any{"function": map[string]any{"name": c.name, "arguments": c.args}})
		}
		st := newStream(w, "application/x-ndjson")
		st.line(map[string]any{"model": "fake-model", "message": map[string]any{"role": "assistant", "content": "", "tool_calls": tc}, "done": true, "done_reason": "stop",
			"prompt_eval_count": 10, "eval_count": 10})
	default:
		var tc []any
		for i, c := range calls {
			args, _ := json.Marshal(c.args)
			tc = append(tc, map[string]any{"index": i, "id": fmt.Sprintf("call_%d", i), "type": "function", "function": map[string]any{"name": c.name, "arguments": string(args)}})
		}
		st := newStream(w, "text/event-stream")
		st.event("", map[string]any{"id": "chatcmpl-tool", "object": "chat.completion.chunk", "created": 0, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "tool_calls": tc}, "finish_reason": nil}}})
		st.event("", map[string]any{"id": "chatcmpl-tool", "object": "chat.completion.chunk", "created": 0, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "tool_calls"}}})
		st.event("", map[string]any{"id": "chatcmpl-tool", "object": "chat.completion.chunk", "created": 0, "model": "fake-model", "choices": []any{},
			"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}})
		fmt.Fprint(w, "data: [DONE]\n\n")
		st.flush()
	}
}

// callTool answers the CallTool mode: a call of the named tool, then,
// once the client sends its result, that result as the answer's text.
func (s *Server) callTool(w http.ResponseWriter, r *http.Request, a api, body map[string]any, prompt string) {
	if hasToolResult(a, body) {
		s.answer(w, r, a, body, OK, "moot answered: "+toolResultText(body), usage{in: s.TokensIn})
		return
	}
	for _, t := range offeredTools(a, body) {
		if s.CallToolName != "" && strings.HasSuffix(t.name, s.CallToolName) {
			s.mu.Lock()
			s.attacks++
			s.mu.Unlock()
			s.respondCalls(w, a, body, []attackCall{{name: t.name, args: s.CallToolArgs}})
			return
		}
	}
	s.answer(w, r, a, body, OK, fakeanswer.Reply(prompt, ""), usage{in: s.TokensIn})
}

// toolResultText is the text of the last tool result a Messages API
// request carries (a tool_result block's string or text parts).
func toolResultText(body map[string]any) string {
	text := ""
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		msg, _ := m.(map[string]any)
		parts, _ := msg["content"].([]any)
		for _, p := range parts {
			part, _ := p.(map[string]any)
			if part["type"] != "tool_result" {
				continue
			}
			switch c := part["content"].(type) {
			case string:
				text = c
			case []any:
				text = ""
				for _, x := range c {
					if xm, ok := x.(map[string]any); ok {
						if t, ok := xm["text"].(string); ok {
							text += t
						}
					}
				}
			}
		}
	}
	return text
}
