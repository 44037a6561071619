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

	openai "github.com/sashabaranov/go-openai"
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

// callChat makes a streamed Chat Completions request.
func (o *openaiEngine) callChat(ctx context.Context, req Request, model, key string) Result {
	cc := openai.DefaultConfig(key)
	cc.BaseURL = o.base
	cc.HTTPClient = httpClient(req.Stdout, o.opts.OutputCap)
	cc.EmptyMessagesLimit = 1 << 20 // keep-alive comments before the first token are normal
	client := openai.NewClientWithConfig(cc)
	cr := openai.ChatCompletionRequest{
		Model:         model,
		Messages:      []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: req.PromptText()}},
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	if req.ReasoningOff && o.cfg.ReasoningSwitch(false) != "" {
		cr.ReasoningEffort = o.cfg.VerdictEffort
	}
	if n := LimitsOf(o.cfg).MaxOutputTokens; n > 0 {
		// max_tokens, not max_completion_tokens: the OpenAI-compatible
		// servers moot targets (Ollama, vLLM, llama.cpp) read this one
		//lint:ignore SA1019 max_completion_tokens is OpenAI-cloud only
		cr.MaxTokens = n
	}
	stream, err := client.CreateChatCompletionStream(ctx, cr)
	if err != nil {
		return o.failure(ctx, req, err, false)
	}
	defer stream.Close()
	sink := &deltaSink{on: req.OnOutput, cap: o.opts.OutputCap}
	var in, out, cached int
	finish := ""
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return sink.failed(o.failure(ctx, req, err, sink.body.Len() > 0))
		}
		if chunk.Usage != nil {
			in, out = chunk.Usage.PromptTokens, chunk.Usage.CompletionTokens
			if d := chunk.Usage.PromptTokensDetails; d != nil {
				cached = d.CachedTokens // part of PromptTokens, served from the provider's prefix cache
			}
		}
		for _, c := range chunk.Choices {
			if !sink.add(c.Delta.Content) {
				return sink.overCap()
			}
			if c.FinishReason != "" {
				finish = string(c.FinishReason)
			}
		}
	}
	if finish == "" {
		// a stream cut short also ends in EOF: only finish_reason tells
		return sink.cut("finish_reason")
	}
	r := okResult(sink, in, out)
	r.CacheRead = cached
	if finish == "length" {
		r.Err = "the answer stopped at the output limit (finish_reason length)"
	}
	return r
}

// failure classifies an error of go-openai without ever printing its
// value raw (it can carry the request).
func (o *openaiEngine) failure(ctx context.Context, req Request, err error, gotText bool) Result {
	var ae *openai.APIError
	var re *openai.RequestError
	switch {
	case ctx.Err() != nil:
		return httpFailure(ctx, req.Timeout, 0, "", gotText, err)
	case errors.As(err, &ae):
		return httpFailure(ctx, req.Timeout, ae.HTTPStatusCode, ae.Message, gotText, nil)
	case errors.As(err, &re):
		msg := http.StatusText(re.HTTPStatusCode)
		if len(re.Body) > 0 {
			msg = errorBodyMessage(re.Body, msg)
		}
		return httpFailure(ctx, req.Timeout, re.HTTPStatusCode, msg, gotText, nil)
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
