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
	"strings"
)

// DefaultAnthropicURL is the Anthropic API's root.
const DefaultAnthropicURL = "https://api.anthropic.com"

// anthropicVersion is the Messages API version moot speaks (its streamed
// events and usage fields as docs/engines.md describes them).
const anthropicVersion = "2023-06-01"

// defaultAnthropicMaxTokens is the answer budget when neither the engines
// file nor the model catalogue gives one (the Messages API requires one).
const defaultAnthropicMaxTokens = 8192

// anthropicEngine calls the Anthropic Messages API, streamed, with moot's
// own small client (one POST, its server-sent events read as they come;
// no retries of its own: moot's one-retry rule applies).
type anthropicEngine struct {
	cfg  *EngineConfig
	opts Options
}

func newAnthropic(e *EngineConfig, o Options) *anthropicEngine {
	return &anthropicEngine{cfg: e, opts: o}
}

func (a *anthropicEngine) base() string {
	if a.cfg.BaseURL == "" {
		return DefaultAnthropicURL
	}
	return trimV1(a.cfg.BaseURL)
}

func (a *anthropicEngine) model() string {
	if a.cfg.Model != "" {
		return a.cfg.Model
	}
	return DefaultModel(KindAnthropic)
}

func (a *anthropicEngine) maxTokens() int64 {
	if n := LimitsOf(a.cfg).MaxOutputTokens; n > 0 {
		return int64(n)
	}
	return defaultAnthropicMaxTokens
}

// anthropicRequest is the body of a streamed Messages API request: one
// user message of text blocks.
type anthropicRequest struct {
	Model     string             `json:"model"`
	MaxTokens int64              `json:"max_tokens"`
	Messages  []anthropicMessage `json:"messages"`
	Stream    bool               `json:"stream"`
}

type anthropicMessage struct {
	Role    string           `json:"role"`
	Content []anthropicBlock `json:"content"`
}

// anthropicBlock is a text block, with a cache breakpoint when it ends
// the prompt's shared part.
type anthropicBlock struct {
	Type         string                 `json:"type"`
	Text         string                 `json:"text"`
	CacheControl *anthropicCacheControl `json:"cache_control,omitempty"`
}

type anthropicCacheControl struct {
	Type string `json:"type"`
}

// anthropicUsage is the API's usage object; a field the event leaves out
// is nil (message_delta repeats only some of them).
type anthropicUsage struct {
	InputTokens              *int64 `json:"input_tokens"`
	OutputTokens             *int64 `json:"output_tokens"`
	CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int64 `json:"cache_read_input_tokens"`
}

// merge takes the fields an event reports over what came before.
func (u *anthropicUsage) merge(v *anthropicUsage) {
	if v == nil {
		return
	}
	for _, f := range []struct{ dst, src **int64 }{
		{&u.InputTokens, &v.InputTokens}, {&u.OutputTokens, &v.OutputTokens},
		{&u.CacheCreationInputTokens, &v.CacheCreationInputTokens}, {&u.CacheReadInputTokens, &v.CacheReadInputTokens},
	} {
		if *f.src != nil {
			*f.dst = *f.src
		}
	}
}

// tokenCount is a usage field's value, 0 when never reported.
func tokenCount(p *int64) int {
	if p == nil {
		return 0
	}
	return int(*p)
}

// anthropicEvent is the part of a streamed event moot reads.
type anthropicEvent struct {
	Type  string `json:"type"`
	Delta struct {
		Type       string `json:"type"`
		Text       string `json:"text"`
		StopReason string `json:"stop_reason"`
	} `json:"delta"`
	Message struct {
		Usage *anthropicUsage `json:"usage"`
	} `json:"message"`
	Usage *anthropicUsage    `json:"usage"`
	Error anthropicErrorBody `json:"error"`
}

// anthropicErrorBody is the API's error object, in an error response and
// in a streamed error event.
type anthropicErrorBody struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// anthropicAPIError is an error the API reported: its status (0 for an
// error event in a stream that began well) and its message, never the
// request.
type anthropicAPIError struct {
	status int
	msg    string
}

func (e *anthropicAPIError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.status, e.msg) }

func (a *anthropicEngine) Call(ctx context.Context, req Request) Result {
	ctx, cancel := callContext(ctx, req.Timeout)
	defer cancel()
	key, _ := apiKey(a.cfg, "ANTHROPIC_API_KEY")
	if key == "" {
		v := a.cfg.APIKeyEnv
		if v == "" {
			v = "ANTHROPIC_API_KEY"
		}
		return errorf(FailEngine, "no key for engine %s: export %s=… (or name another variable in api_key_env)", a.cfg.Name, v)
	}
	body, err := json.Marshal(anthropicRequest{
		Model:     a.model(),
		MaxTokens: a.maxTokens(),
		Messages:  []anthropicMessage{{Role: "user", Content: promptBlocks(req)}},
		Stream:    true,
	})
	if err != nil {
		return errorf(FailEngine, "encode the request: %v", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base()+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		return errorf(FailEngine, "engine %s: base_url: %v", a.cfg.Name, err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "text/event-stream")
	hr.Header.Set("X-Api-Key", key)
	hr.Header.Set("Anthropic-Version", anthropicVersion)
	resp, err := httpClient(req.Stdout, a.opts.OutputCap).Do(hr)
	if err != nil {
		return a.failure(ctx, req, err, false)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return a.failure(ctx, req, apiErrorOf(resp), false)
	}
	sink := &deltaSink{on: req.OnOutput, cap: a.opts.OutputCap}
	var usage anthropicUsage
	stopped, stopReason := false, ""
	var end *Result // set when an event ends the call
	stop := func(r Result) error { end = &r; return errStopReading }
	err = readEvents(resp.Body, func(name string, data []byte) error {
		if name == "ping" || len(data) == 0 {
			return nil
		}
		var ev anthropicEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			return stop(sink.failed(errorf(FailEngine, "the stream was not well formed: %s", oneLine(err.Error()))))
		}
		if name == "error" || ev.Type == "error" {
			return stop(sink.failed(httpFailure(ctx, req.Timeout, 0, errorMessage(ev.Error), sink.body.Len() > 0, nil)))
		}
		switch ev.Type {
		case "message_start":
			usage.merge(ev.Message.Usage)
		case "content_block_delta":
			if ev.Delta.Type == "text_delta" && !sink.add(ev.Delta.Text) {
				return stop(sink.overCap())
			}
		case "message_delta":
			usage.merge(ev.Usage)
			if ev.Delta.StopReason != "" {
				stopReason = ev.Delta.StopReason
			}
		case "message_stop":
			stopped = true
		}
		return nil
	})
	switch {
	case end != nil:
		return *end
	case err != nil:
		return sink.failed(a.failure(ctx, req, err, sink.body.Len() > 0))
	case !stopped:
		return sink.cut("message_stop")
	}
	in := tokenCount(usage.InputTokens) + tokenCount(usage.CacheCreationInputTokens) + tokenCount(usage.CacheReadInputTokens)
	r := okResult(sink, in, tokenCount(usage.OutputTokens))
	r.CacheRead, r.CacheWrite = tokenCount(usage.CacheReadInputTokens), tokenCount(usage.CacheCreationInputTokens)
	if stopReason == "max_tokens" {
		r.Err = "the answer stopped at the output limit (stop_reason max_tokens)"
	}
	return r
}

// errStopReading ends reading a stream once an event decided the call.
var errStopReading = errors.New("the call's result is known")

// apiErrorOf reads an error response's status and message (a bounded
// read: the body is the API's error object, or a proxy's page).
func apiErrorOf(resp *http.Response) *anthropicAPIError {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var body struct {
		Error anthropicErrorBody `json:"error"`
	}
	msg := ""
	if json.Unmarshal(raw, &body) == nil {
		msg = errorMessage(body.Error)
	}
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	return &anthropicAPIError{status: resp.StatusCode, msg: msg}
}

// errorMessage is what the API says went wrong: its message, else its
// error type.
func errorMessage(e anthropicErrorBody) string {
	if e.Message != "" {
		return e.Message
	}
	return strings.TrimSpace(e.Type)
}

// readEvents reads a text/event-stream body and calls on with each
// event's name and data (its data lines joined), until the body ends, a
// read fails or on returns an error.
func readEvents(body io.Reader, on func(name string, data []byte) error) error {
	r := bufio.NewReader(body)
	var name string
	var data []byte
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 || err == nil {
			line = bytes.TrimRight(line, "\r\n")
			switch {
			case len(line) == 0:
				if name != "" || data != nil {
					if cerr := on(name, data); cerr != nil {
						return cerr
					}
				}
				name, data = "", nil
			case line[0] == ':': // a comment
			default:
				field, value, _ := bytes.Cut(line, []byte(":"))
				value = bytes.TrimPrefix(value, []byte(" "))
				switch string(field) {
				case "event":
					name = string(value)
				case "data":
					if data != nil {
						data = append(data, '\n')
					}
					data = append(data, value...)
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// promptBlocks is the prompt as the message's text blocks: the shared
// block the calls of a run begin with (req.CachePrefix bytes) marked with
// a cache breakpoint, so the API writes it to its prompt cache once and
// reads it back, at a tenth of the input price, for every later call on
// the same model within the cache's lifetime; then the call's own part.
// A prompt with no shared block is one block, unmarked.
func promptBlocks(req Request) []anthropicBlock {
	text := req.PromptText()
	n := req.CachePrefix
	if n <= 0 || n >= len(text) {
		return []anthropicBlock{{Type: "text", Text: text}}
	}
	return []anthropicBlock{
		{Type: "text", Text: text[:n], CacheControl: &anthropicCacheControl{Type: "ephemeral"}},
		{Type: "text", Text: text[n:]},
	}
}

// failure classifies a failed call from its status and message only (an
// error's own text may include the request, which is never shown).
func (a *anthropicEngine) failure(ctx context.Context, req Request, err error, gotText bool) Result {
	var ae *anthropicAPIError
	switch {
	case ctx.Err() != nil:
		return httpFailure(ctx, req.Timeout, 0, "", gotText, err)
	case errors.As(err, &ae):
		return httpFailure(ctx, req.Timeout, ae.status, ae.msg, gotText, nil)
	case isNetError(err):
		return httpFailure(ctx, req.Timeout, 0, netMessage(err), gotText, err)
	}
	return httpFailure(ctx, req.Timeout, 0, oneLine(err.Error()), gotText, err)
}
