package harness

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestOpenAIStreamReadsWhatServersSend: the openai kind's stream reader
// against what OpenAI-compatible servers write: keep-alive comments
// before the first token (hundreds of them on a slow local model), a
// usage chunk with cached tokens, an error object after the 200, and a
// stream that ends without a finish_reason.
func TestOpenAIStreamReadsWhatServersSend(t *testing.T) {
	chunk := func(content, finish string) string {
		f := "null"
		if finish != "" {
			f = `"` + finish + `"`
		}
		return fmt.Sprintf(`data: {"choices":[{"index":0,"delta":{"content":%q},"finish_reason":%s}]}`+"\n\n", content, f)
	}
	usage := `data: {"choices":[],"usage":{"prompt_tokens":1200,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":1024}}}` + "\n\n"
	cases := []struct {
		name               string
		stream             string
		body, err          string
		in, out, cacheRead int
		failure            Failure
	}{
		{"keep-alive comments before the first token",
			strings.Repeat(": keep-alive\n\n", 500) + chunk("Hello, ", "") + chunk("world.", "stop") + usage + "data: [DONE]\n\n",
			"Hello, world.", "", 1200, 7, 1024, FailNone},
		{"data lines without a space or blank lines between them",
			"data:" + strings.TrimPrefix(chunk("one ", ""), "data: ") + strings.TrimSuffix(chunk("two", "stop"), "\n") + "data: [DONE]\n",
			"one two", "", 0, 0, 0, FailNone},
		{"an error object in the stream",
			chunk("part", "") + `data: {"error":{"message":"the model crashed","type":"server_error"}}` + "\n\n",
			"", "the model crashed", 0, 0, 0, FailEngine},
		{"a stream cut before its finish_reason",
			chunk("part of an answer", ""),
			"", "finish_reason", 0, 0, 0, FailEngine},
		{"the output limit",
			chunk("long", "length") + "data: [DONE]\n\n",
			"long", "output limit", 0, 0, 0, FailNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/v1/chat/completions" {
					http.NotFound(w, r) // no Ollama here
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = w.Write([]byte(c.stream))
			}))
			defer srv.Close()
			a, err := New(&EngineConfig{Name: "h", Kind: KindOpenAI, Model: "m", BaseURL: srv.URL + "/v1"}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := a.Call(context.Background(), Request{Prompt: "x", Timeout: 30 * time.Second})
			if res.Failure != c.failure {
				t.Errorf("failure %v (%s), want %v", res.Failure, res.Err, c.failure)
			}
			if c.body != "" && res.Body != c.body {
				t.Errorf("body %q, want %q", res.Body, c.body)
			}
			if !strings.Contains(res.Err, c.err) || (c.err == "" && res.Err != "") {
				t.Errorf("error %q, want one that says %q", res.Err, c.err)
			}
			if res.TokensIn != c.in || res.TokensOut != c.out || res.CacheRead != c.cacheRead {
				t.Errorf("tokens %d in (%d cached) / %d out, want %d (%d) / %d", res.TokensIn, res.CacheRead, res.TokensOut, c.in, c.cacheRead, c.out)
			}
		})
	}
}
