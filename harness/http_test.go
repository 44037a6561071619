package harness

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversa/moot/internal/fakeanswer"
	"github.com/reversa/moot/internal/fakeprovider"
)

// httpKinds are the HTTP engines, each against the fake provider: the
// OpenAI-compatible kind speaking Chat Completions, the same kind finding
// an Ollama server (native chat), and the Anthropic Messages API.
var httpKinds = []struct {
	name   string
	kind   Kind
	ollama bool
}{
	{"openai", KindOpenAI, false},
	{"ollama", KindOpenAI, true},
	{"anthropic", KindAnthropic, false},
}

type httpRun struct {
	res      Result
	out      bytes.Buffer
	deltas   strings.Builder
	took     time.Duration
	requests []fakeprovider.Request
}

func httpCall(t *testing.T, kind Kind, ollama bool, mode fakeprovider.Mode, ctx context.Context, timeout time.Duration) (*httpRun, *fakeprovider.Server) {
	t.Helper()
	srv := fakeprovider.New()
	t.Cleanup(srv.Close)
	srv.Ollama = ollama
	srv.SetMode(mode)
	plantKey()
	base := srv.URL
	if kind == KindOpenAI {
		base += "/v1"
	}
	e := &EngineConfig{Name: "h", Kind: kind, Model: "fake-model", BaseURL: base, APIKeyEnv: "MOOT_TEST_KEY", ProjectAccess: "none"}
	a, err := New(e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := &httpRun{}
	var mu sync.Mutex
	start := time.Now()
	run.res = a.Call(ctx, Request{Role: "solver", SolverID: "agente-1", Prompt: cliPrompt, Timeout: timeout,
		Stdout: &run.out, OnOutput: func(s string) { mu.Lock(); run.deltas.WriteString(s); mu.Unlock() }})
	run.took = time.Since(start)
	run.requests = srv.Requests()
	for name, s := range map[string]string{"raw": run.out.String(), "body": run.res.Body, "error": run.res.Err} {
		if strings.Contains(s, plantedKey) {
			t.Errorf("the planted key appears in the %s", name)
		}
	}
	return run, srv
}

func TestHTTPHappyCall(t *testing.T) {
	for _, k := range httpKinds {
		t.Run(k.name, func(t *testing.T) {
			run, srv := httpCall(t, k.kind, k.ollama, fakeprovider.OK, context.Background(), time.Minute)
			if statusOf(run.res) != "ok" {
				t.Fatalf("status %s (%s)", statusOf(run.res), run.res.Err)
			}
			want := fakeanswer.Reply(cliPrompt, "solver")
			if run.res.Body != want {
				t.Errorf("body:\n%s\nwant:\n%s", run.res.Body, want)
			}
			if run.deltas.String() != want {
				t.Errorf("the streamed deltas do not add up to the answer:\n%q", run.deltas.String())
			}
			if run.res.TokensIn != srv.TokensIn || run.res.TokensOut != srv.TokensOut {
				t.Errorf("tokens %d/%d, want %d/%d", run.res.TokensIn, run.res.TokensOut, srv.TokensIn, srv.TokensOut)
			}
			if run.out.Len() == 0 {
				t.Error("the raw response was not kept")
			}
			var post *fakeprovider.Request
			for i := range run.requests {
				if run.requests[i].Method == "POST" {
					post = &run.requests[i]
				}
			}
			if post == nil {
				t.Fatal("no model request")
			}
			key := post.Header.Get("Authorization") + post.Header.Get("X-Api-Key")
			if !strings.Contains(key, plantedKey) {
				t.Error("the key of api_key_env was not sent")
			}
			if k.ollama {
				if post.Path != "/api/chat" {
					t.Errorf("an Ollama server must be called on /api/chat (num_ctx), got %s", post.Path)
				}
				opts, _ := post.Body["options"].(map[string]any)
				if n, _ := opts["num_ctx"].(float64); int(n) < estimateTokens(cliPrompt) || int(n) > srv.ContextLength {
					t.Errorf("num_ctx %v does not fit the prompt within the model's window", opts["num_ctx"])
				}
			}
		})
	}
}

func TestHTTPFailureModes(t *testing.T) {
	cases := []struct {
		mode    fakeprovider.Mode
		status  string
		failure Failure
		text    string
	}{
		{fakeprovider.Unauthorized, "error", FailEngine, "401"},
		{fakeprovider.RateLimited, "error", FailTransport, "429"},
		{fakeprovider.ServerError, "error", FailTransport, "500"},
		{fakeprovider.Hang, "timeout", FailTimeout, "no answer within"},
		{fakeprovider.Stall, "timeout", FailTimeout, "no answer within"},
		// part of the answer came, then the connection closed: never
		// mistaken for success, never retried
		{fakeprovider.Cut, "error", FailEngine, "cut"},
	}
	for _, k := range httpKinds {
		for _, c := range cases {
			t.Run(k.name+"/"+string(c.mode), func(t *testing.T) {
				t.Parallel()
				timeout := 3 * time.Second
				run, _ := httpCall(t, k.kind, k.ollama, c.mode, context.Background(), timeout)
				if statusOf(run.res) != c.status || run.res.Failure != c.failure {
					t.Errorf("status %s / %s (%s), want %s / %s", statusOf(run.res), run.res.Failure, run.res.Err, c.status, c.failure)
				}
				if !strings.Contains(run.res.Err, c.text) {
					t.Errorf("error %q does not say %q", run.res.Err, c.text)
				}
				if run.took > timeout+5*time.Second {
					t.Errorf("the call took %s, past its %s deadline", run.took, timeout)
				}
			})
		}
	}
}

func TestHTTPCancel(t *testing.T) {
	for _, k := range httpKinds {
		t.Run(k.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			srvReady := make(chan struct{})
			go func() {
				<-srvReady
				cancel(context.Canceled)
			}()
			// hang until cancelled
			srv := fakeprovider.New()
			defer srv.Close()
			srv.Ollama = k.ollama
			srv.SetMode(fakeprovider.Hang)
			base := srv.URL
			if k.kind == KindOpenAI {
				base += "/v1"
			}
			a, err := New(&EngineConfig{Name: "h", Kind: k.kind, Model: "fake-model", BaseURL: base, APIKeyEnv: "X_UNUSED_KEY"}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Setenv("X_UNUSED_KEY", "k")
			done := make(chan Result, 1)
			go func() { done <- a.Call(ctx, Request{Prompt: cliPrompt, Timeout: time.Minute}) }()
			// cancel once the request reached the server
			deadline := time.After(10 * time.Second)
			for srv.Calls() == 0 {
				select {
				case <-deadline:
					t.Fatal("the request never reached the server")
				case <-time.After(5 * time.Millisecond):
				}
			}
			close(srvReady)
			select {
			case res := <-done:
				if statusOf(res) != "error" || !strings.Contains(res.Err, "interrupted") {
					t.Errorf("status %s (%s), want an interrupted error", statusOf(res), res.Err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the call did not return after its context was cancelled")
			}
		})
	}
}

func TestHTTPConnectionRefused(t *testing.T) {
	srv := fakeprovider.New()
	url := srv.URL
	srv.Close() // nothing listens there any more
	for _, k := range httpKinds {
		if k.ollama {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			plantKey()
			base := url
			if k.kind == KindOpenAI {
				base += "/v1"
			}
			a, _ := New(&EngineConfig{Name: "h", Kind: k.kind, Model: "m", BaseURL: base, APIKeyEnv: "MOOT_TEST_KEY"}, Options{})
			res := a.Call(context.Background(), Request{Prompt: "x", Timeout: 10 * time.Second})
			if res.Failure != FailTransport || !strings.Contains(res.Err, "refused") {
				t.Errorf("failure %s (%s), want a transport failure that says the connection was refused", res.Failure, res.Err)
			}
			if strings.Contains(res.Err, plantedKey) {
				t.Error("the error shows the key")
			}
		})
	}
}

func TestHTTPMissingKey(t *testing.T) {
	a, _ := New(&EngineConfig{Name: "cloud", Kind: KindAnthropic, Model: "m", APIKeyEnv: "MOOT_TEST_ABSENT_KEY"}, Options{})
	res := a.Call(context.Background(), Request{Prompt: "x", Timeout: time.Second})
	if res.Failure != FailEngine || !strings.Contains(res.Err, "MOOT_TEST_ABSENT_KEY") {
		t.Errorf("%s: %s; want an engine failure that names the variable to set", res.Failure, res.Err)
	}
}

func TestNumCtx(t *testing.T) {
	for _, c := range []struct {
		prompt       int
		maxOut, win  int
		atLeast, max int
	}{
		{100, 0, 0, 8192, 8192},
		{300_000, 4096, 0, 100_000 + 4096, 1 << 30},
		{300_000, 4096, 65536, 65536, 65536}, // within the window (the plan refused what cannot fit)
	} {
		n := numCtx(strings.Repeat("x", c.prompt), c.maxOut, c.win)
		if n < c.atLeast || n > c.max || (c.win == 0 && n%1024 != 0) {
			t.Errorf("numCtx(%d bytes, %d, %d) = %d, want in [%d, %d]", c.prompt, c.maxOut, c.win, n, c.atLeast, c.max)
		}
	}
}

// A structured-verdict call (ReasoningOff) carries the engine's opt-in
// switch: reasoning_effort on an OpenAI-compatible server, think: false on
// Ollama's native endpoint; without the opt-in, or on another call,
// nothing is sent.
func TestVerdictCallTurnsReasoningOff(t *testing.T) {
	cases := []struct {
		name        string
		ollama, off bool
		effort, key string
		want        any
	}{
		{"openai, verdict call", false, true, "none", "reasoning_effort", "none"},
		{"openai, no opt-in", false, true, "", "reasoning_effort", nil},
		{"openai, not a verdict call", false, false, "none", "reasoning_effort", nil},
		{"ollama, verdict call", true, true, "none", "think", false},
		{"ollama, no opt-in", true, true, "", "think", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := fakeprovider.New()
			t.Cleanup(srv.Close)
			srv.Ollama = c.ollama
			srv.SetMode(fakeprovider.OK)
			plantKey()
			e := &EngineConfig{Name: "h", Kind: KindOpenAI, Model: "fake-model", BaseURL: srv.URL + "/v1", APIKeyEnv: "MOOT_TEST_KEY", ProjectAccess: "none", VerdictEffort: c.effort}
			a, err := New(e, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res := a.Call(context.Background(), Request{Role: "juror", Prompt: cliPrompt, Timeout: time.Minute, ReasoningOff: c.off}); !res.Answered() {
				t.Fatalf("call failed: %s", res.Err)
			}
			var got any
			found := false
			for _, r := range srv.Requests() {
				if r.Method == "POST" {
					got, found = r.Body[c.key]
				}
			}
			if c.want == nil && found || c.want != nil && got != c.want {
				t.Errorf("%s = %v (sent %v), want %v", c.key, got, found, c.want)
			}
		})
	}
}
