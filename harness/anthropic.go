package harness

import (
	"context"
	"errors"
	"strings"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// DefaultAnthropicURL is the Anthropic API's root.
const DefaultAnthropicURL = "https://api.anthropic.com"

// defaultAnthropicMaxTokens is the answer budget when neither the engines
// file nor the model catalogue gives one (the Messages API requires one).
const defaultAnthropicMaxTokens = 8192

// anthropicEngine calls the Anthropic Messages API, streamed, with the
// official SDK (no retries of its own: moot's one-retry rule applies).
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
	client := anthropic.NewClient(
		option.WithAPIKey(key),
		option.WithBaseURL(a.base()+"/"),
		option.WithMaxRetries(0),
		option.WithHTTPClient(httpClient(req.Stdout, a.opts.OutputCap)),
	)
	stream := client.Messages.NewStreaming(ctx, anthropic.MessageNewParams{
		Model:     anthropic.Model(a.model()),
		MaxTokens: a.maxTokens(),
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(promptBlocks(req)...)},
	})
	defer stream.Close()
	sink := &deltaSink{on: req.OnOutput, cap: a.opts.OutputCap}
	var msg anthropic.Message
	stopped := false
	for stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return sink.failed(errorf(FailEngine, "the stream was not well formed: %s", oneLine(err.Error())))
		}
		switch ev.Type {
		case "content_block_delta":
			if ev.Delta.Type == "text_delta" && !sink.add(ev.Delta.Text) {
				return sink.overCap()
			}
		case "message_stop":
			stopped = true
		}
	}
	if err := stream.Err(); err != nil {
		return sink.failed(a.failure(ctx, req, err, sink.body.Len() > 0))
	}
	if !stopped {
		return sink.cut("message_stop")
	}
	u := msg.Usage
	r := okResult(sink, int(u.InputTokens+u.CacheCreationInputTokens+u.CacheReadInputTokens), int(u.OutputTokens))
	r.CacheRead, r.CacheWrite = int(u.CacheReadInputTokens), int(u.CacheCreationInputTokens)
	if msg.StopReason == anthropic.StopReasonMaxTokens {
		r.Err = "the answer stopped at the output limit (stop_reason max_tokens)"
	}
	return r
}

// promptBlocks is the prompt as the message's text blocks: the shared
// block the calls of a run begin with (req.CachePrefix bytes) marked with
// a cache breakpoint, so the API writes it to its prompt cache once and
// reads it back, at a tenth of the input price, for every later call on
// the same model within the cache's lifetime; then the call's own part.
// A prompt with no shared block is one block, unmarked.
func promptBlocks(req Request) []anthropic.ContentBlockParamUnion {
	text := req.PromptText()
	n := req.CachePrefix
	if n <= 0 || n >= len(text) {
		return []anthropic.ContentBlockParamUnion{anthropic.NewTextBlock(text)}
	}
	shared := anthropic.TextBlockParam{Text: text[:n], CacheControl: anthropic.NewCacheControlEphemeralParam()}
	return []anthropic.ContentBlockParamUnion{{OfText: &shared}, anthropic.NewTextBlock(text[n:])}
}

// failure classifies an SDK error from its status and message only: the
// error's own text includes the request, which is never shown.
func (a *anthropicEngine) failure(ctx context.Context, req Request, err error, gotText bool) Result {
	var ae *anthropic.Error
	switch {
	case ctx.Err() != nil:
		return httpFailure(ctx, req.Timeout, 0, "", gotText, err)
	case errors.As(err, &ae):
		msg := ae.Message
		if msg == "" {
			msg = strings.TrimSpace(string(ae.Type()))
		}
		return httpFailure(ctx, req.Timeout, ae.StatusCode, msg, gotText, nil)
	case isNetError(err):
		return httpFailure(ctx, req.Timeout, 0, netMessage(err), gotText, err)
	}
	return httpFailure(ctx, req.Timeout, 0, oneLine(err.Error()), gotText, err)
}
