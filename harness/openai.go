package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// openaiEngine calls any OpenAI-compatible server (Ollama, vLLM, llama.cpp,
// LM Studio, a cloud) with a streamed Chat Completions request. An Ollama
// server is called on its native chat endpoint instead, whose num_ctx
// moot sizes to fit the prompt (the OpenAI endpoint would silently
// truncate at Ollama's small default).
type openaiEngine struct {
	cfg  *EngineConfig
	opts Options
	base string

	mu     sync.Mutex
	ollama *bool // nil until detected
	model  string
}

func newOpenAI(e *EngineConfig, o Options) *openaiEngine {
	base := e.BaseURL
	if base == "" {
		base = DefaultOllamaURL
	}
	return &openaiEngine{cfg: e, opts: o, base: strings.TrimRight(base, "/")}
}

// origin is the server's root (the base URL without its /v1).
func (o *openaiEngine) origin() string {
	u, err := url.Parse(o.base)
	if err != nil {
		return o.base
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/v1")
	return strings.TrimRight(u.String(), "/")
}

// isOllama detects an Ollama server once: it answers GET /api/version.
func (o *openaiEngine) isOllama(ctx context.Context) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ollama != nil {
		return *o.ollama
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.origin()+"/api/version", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false // unknown; try again next call
	}
	defer resp.Body.Close()
	var v struct {
		Version string `json:"version"`
	}
	yes := resp.StatusCode == 200 && json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&v) == nil && v.Version != ""
	o.ollama = &yes
	return yes
}

// modelName is the model to ask for: the entry's, or the only model the
// server offers.
func (o *openaiEngine) modelName(ctx context.Context, key string) (string, error) {
	if o.cfg.Model != "" {
		return o.cfg.Model, nil
	}
	o.mu.Lock()
	m := o.model
	o.mu.Unlock()
	if m != "" {
		return m, nil
	}
	ids, _, err := listModels(ctx, o.base+"/models", map[string]string{"Authorization": "Bearer " + key})
	if err != nil {
		return "", fmt.Errorf("engines.%s.model is not set and the server's model list could not be read (%v): set model: in the engines file", o.cfg.Name, err)
	}
	if len(ids) != 1 {
		return "", fmt.Errorf("engines.%s.model is not set and the server offers %d models (%s): set model: in the engines file", o.cfg.Name, len(ids), strings.Join(firstN(ids, 8), ", "))
	}
	o.mu.Lock()
	o.model = ids[0]
	o.mu.Unlock()
	return ids[0], nil
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "…")
	}
	return s
}

func (o *openaiEngine) Call(ctx context.Context, req Request) Result {
	ctx, cancel := callContext(ctx, req.Timeout)
	defer cancel()
	key, err := o.key()
	if err != nil {
		return errorf(FailEngine, "%v", err)
	}
	model, err := o.modelName(ctx, key)
	if err != nil {
		if ctx.Err() != nil {
			return httpFailure(ctx, req.Timeout, 0, "", false, err)
		}
		return errorf(FailEngine, "%s", oneLine(err.Error()))
	}
	if o.isOllama(ctx) {
		return o.callOllama(ctx, req, model, key)
	}
	return o.callChat(ctx, req, model, key)
}

// key is the key sent: the api_key_env's value; without one, OPENAI_API_KEY
// only when the server is OpenAI's own (a vendor key is never sent to a
// server the entry did not name it for).
func (o *openaiEngine) key() (string, error) {
	if o.cfg.APIKeyEnv != "" {
		k := os.Getenv(o.cfg.APIKeyEnv)
		if k == "" {
			return "", fmt.Errorf("%s is not set: export %s=… with the key of engine %s", o.cfg.APIKeyEnv, o.cfg.APIKeyEnv, o.cfg.Name)
		}
		return k, nil
	}
	if u, err := url.Parse(o.base); err == nil && strings.EqualFold(u.Hostname(), "api.openai.com") {
		return os.Getenv("OPENAI_API_KEY"), nil
	}
	return "", nil
}

// chatRequest is the body of a streamed Chat Completions request: one
// user message, the final usage chunk asked for (stream_options).
type chatRequest struct {
	Model           string            `json:"model"`
	Messages        []chatMessage     `json:"messages"`
	Stream          bool              `json:"stream"`
	StreamOptions   chatStreamOptions `json:"stream_options"`
	ReasoningEffort string            `json:"reasoning_effort,omitempty"`
	// max_tokens, not max_completion_tokens: the OpenAI-compatible
	// servers moot targets (Ollama, vLLM, llama.cpp) read this one
	MaxTokens int `json:"max_tokens,omitempty"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// chatChunk is the part of a streamed chunk moot reads; an error object
// in the stream (some servers report a failure after the 200) ends the
// call.
type chatChunk struct {
	Choices []struct {
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// callChat makes a streamed Chat Completions request with moot's own
// small client: one POST, its server-sent events read line by line as
// they come (keep-alive comments and blank lines skipped however many
// come before the first token), no retries of its own (moot's one-retry
// rule applies).
func (o *openaiEngine) callChat(ctx context.Context, req Request, model, key string) Result {
	cr := chatRequest{
		Model:         model,
		Messages:      []chatMessage{{Role: "user", Content: req.PromptText()}},
		Stream:        true,
		StreamOptions: chatStreamOptions{IncludeUsage: true},
		MaxTokens:     LimitsOf(o.cfg).MaxOutputTokens,
	}
	if req.ReasoningOff && o.cfg.ReasoningSwitch(false) != "" {
		cr.ReasoningEffort = o.cfg.VerdictEffort
	}
	body, err := json.Marshal(cr)
	if err != nil {
		return errorf(FailEngine, "encode the request: %v", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, o.base+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return errorf(FailEngine, "engine %s: base_url: %v", o.cfg.Name, err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "text/event-stream")
	hr.Header.Set("Cache-Control", "no-cache")
	if key != "" {
		hr.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := httpClient(req.Stdout, o.opts.OutputCap).Do(hr)
	if err != nil {
		return o.failure(ctx, req, err, false)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return httpFailure(ctx, req.Timeout, resp.StatusCode, errorBodyMessage(raw, http.StatusText(resp.StatusCode)), false, nil)
	}
	sink := &deltaSink{on: req.OnOutput, cap: o.opts.OutputCap}
	var in, out, cached int
	finish := ""
	r := bufio.NewReader(resp.Body)
	for {
		line, rerr := r.ReadBytes('\n')
		if data, ok := chatData(line); ok {
			if string(data) == "[DONE]" {
				break
			}
			var c chatChunk
			if err := json.Unmarshal(data, &c); err != nil {
				return sink.failed(errorf(FailEngine, "the stream was not well formed: %s", oneLine(err.Error())))
			}
			if len(c.Error) > 0 && string(c.Error) != "null" {
				return sink.failed(httpFailure(ctx, req.Timeout, 0, errorBodyMessage(c.Error, "the server reported an error in the stream"), sink.body.Len() > 0, nil))
			}
			if c.Usage != nil {
				in, out = c.Usage.PromptTokens, c.Usage.CompletionTokens
				if d := c.Usage.PromptTokensDetails; d != nil {
					cached = d.CachedTokens // part of PromptTokens, served from the provider's prefix cache
				}
			}
			for _, ch := range c.Choices {
				if !sink.add(ch.Delta.Content) {
					return sink.overCap()
				}
				if ch.FinishReason != "" {
					finish = ch.FinishReason
				}
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return sink.failed(o.failure(ctx, req, rerr, sink.body.Len() > 0))
		}
	}
	if finish == "" {
		// a stream cut short also ends in EOF: only finish_reason tells
		return sink.cut("finish_reason")
	}
	res := okResult(sink, in, out)
	res.CacheRead = cached
	if finish == "length" {
		res.Err = "the answer stopped at the output limit (finish_reason length)"
	}
	return res
}

// chatData is a stream line's data, when the line is a data line; a
// line holding a bare JSON error object (a server's failure written
// outside the event format) is taken as data too, so it ends the call
// with its message.
func chatData(line []byte) ([]byte, bool) {
	line = bytes.TrimSpace(line)
	if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		return bytes.TrimSpace(v), true
	}
	if bytes.HasPrefix(line, []byte("{")) && bytes.Contains(line, []byte(`"error"`)) {
		return line, true
	}
	return nil, false
}

// failure classifies a transport error without ever printing the
// request.
func (o *openaiEngine) failure(ctx context.Context, req Request, err error, gotText bool) Result {
	switch {
	case ctx.Err() != nil:
		return httpFailure(ctx, req.Timeout, 0, "", gotText, err)
	case isNetError(err):
		return httpFailure(ctx, req.Timeout, 0, netMessage(err), gotText, err)
	}
	return httpFailure(ctx, req.Timeout, 0, err.Error(), gotText, err)
}

// errorBodyMessage digs the message out of an API's JSON error body.
func errorBodyMessage(body []byte, fallback string) string {
	var v any
	if json.Unmarshal(body, &v) == nil {
		if s := errorText(v); s != "" {
			return s
		}
	}
	if s := strings.TrimSpace(string(body)); s != "" && len(s) < 300 {
		return s
	}
	return fallback
}

// numCtx is the context Ollama is asked to allocate: the prompt, the
// answer and a margin, rounded up, within the model's window when known.
func numCtx(prompt string, maxOut, window int) int {
	if maxOut <= 0 {
		maxOut = 4096
	}
	n := estimateTokens(prompt) + maxOut + 512
	n = (n + 1023) / 1024 * 1024
	if n < 8192 {
		n = 8192
	}
	if window > 0 && n > window {
		n = window
	}
	return n
}

// callOllama streams from Ollama's native /api/chat with num_ctx set.
func (o *openaiEngine) callOllama(ctx context.Context, req Request, model, key string) Result {
	lim := LimitsOf(o.cfg)
	prompt := req.PromptText()
	msg := map[string]any{
		"model":    model,
		"messages": []map[string]string{{"role": "user", "content": prompt}},
		"stream":   true,
		"options":  map[string]any{"num_ctx": numCtx(prompt, lim.MaxOutputTokens, lim.ContextTokens)},
	}
	if req.ReasoningOff && o.cfg.ReasoningSwitch(true) != "" {
		msg["think"] = false // Ollama's native switch for the same opt-in
	}
	body, _ := json.Marshal(msg)
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, o.origin()+"/api/chat", bytes.NewReader(body))
	if err != nil {
		return errorf(FailEngine, "build the request: %v", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if key != "" {
		hr.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := httpClient(req.Stdout, o.opts.OutputCap).Do(hr)
	if err != nil {
		return httpFailure(ctx, req.Timeout, 0, netMessage(err), false, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return httpFailure(ctx, req.Timeout, resp.StatusCode, errorBodyMessage(b, resp.Status), false, nil)
	}
	sink := &deltaSink{on: req.OnOutput, cap: o.opts.OutputCap}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var ev struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			Done            bool   `json:"done"`
			DoneReason      string `json:"done_reason"`
			PromptEvalCount int    `json:"prompt_eval_count"`
			EvalCount       int    `json:"eval_count"`
			Error           string `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		if ev.Error != "" {
			return sink.failed(httpFailure(ctx, req.Timeout, 0, ev.Error, sink.body.Len() > 0, nil))
		}
		if !sink.add(ev.Message.Content) {
			return sink.overCap()
		}
		if ev.Done {
			r := okResult(sink, ev.PromptEvalCount, ev.EvalCount)
			if ev.DoneReason == "length" {
				r.Err = "the answer stopped at the output limit (done_reason length)"
			}
			return r
		}
	}
	if ctx.Err() != nil {
		return sink.failed(httpFailure(ctx, req.Timeout, 0, "", sink.body.Len() > 0, sc.Err()))
	}
	return sink.cut("done")
}

// listModels reads an OpenAI-style (data[].id) or Anthropic-style model
// list; status is the HTTP status (0 when the server was not reached).
func listModels(ctx context.Context, u string, headers map[string]string) ([]string, int, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, err
	}
	for k, v := range headers {
		if v != "" && v != "Bearer " {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, 0, errors.New(netMessage(err))
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if resp.StatusCode != 200 {
		return nil, resp.StatusCode, fmt.Errorf("HTTP %d: %s", resp.StatusCode, oneLine(errorBodyMessage(b, resp.Status)))
	}
	var v struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, 200, fmt.Errorf("the model list is not JSON: %v", err)
	}
	var ids []string
	for _, d := range v.Data {
		ids = append(ids, d.ID)
	}
	for _, m := range v.Models {
		ids = append(ids, strings.TrimPrefix(m.Name, "models/"))
	}
	sort.Strings(ids)
	return ids, 200, nil
}
