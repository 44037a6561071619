package harness

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/internal/fakeprovider"
)

// TestHTTPEnginesCountThePromptCache: two calls that begin with the same
// long block, one after the other, against a provider that caches
// prompts: the anthropic kind marks the block with a cache breakpoint (and
// the first call writes it, the second reads it), the OpenAI-compatible
// kind's provider caches the prefix by itself; each call records the
// cached part of its input beside its whole input.
func TestHTTPEnginesCountThePromptCache(t *testing.T) {
	shared := "# Problem (P)\n\n" + strings.Repeat("the cart loses an item when two coupons apply. ", 400) + "\n-- end --\n\n"
	sharedTok := (len(shared) + 3) / 4
	for _, tc := range []struct {
		kind                Kind
		firstWrite, anyRead bool
	}{{KindAnthropic, true, true}, {KindOpenAI, false, true}} {
		t.Run(string(tc.kind), func(t *testing.T) {
			srv := fakeprovider.New()
			t.Cleanup(srv.Close)
			srv.Cache = true
			plantKey()
			base := srv.URL
			if tc.kind == KindOpenAI {
				base += "/v1"
			}
			a, err := New(&EngineConfig{Name: "h", Kind: tc.kind, Model: "fake-model", BaseURL: base, APIKeyEnv: "MOOT_TEST_KEY"}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []Result
			for _, id := range []string{"agente-1", "agente-2"} {
				prompt := shared + "You are " + id + ", one of 2 debaters.\n"
				res := a.Call(context.Background(), Request{Role: "solver", SolverID: id, PromptParts: []string{prompt}, CachePrefix: len(shared), Timeout: 30 * time.Second})
				if !res.Answered() {
					t.Fatalf("%s: %s", id, res.Err)
				}
				if total := (len(prompt) + 3) / 4; res.TokensIn != total {
					t.Errorf("%s: %d input tokens recorded, want the whole prompt's %d", id, res.TokensIn, total)
				}
				got = append(got, res)
			}
			if tc.firstWrite && got[0].CacheWrite != sharedTok {
				t.Errorf("the first call wrote %d tokens to the cache, want the shared block's %d", got[0].CacheWrite, sharedTok)
			}
			if got[0].CacheRead != 0 {
				t.Errorf("the first call read %d tokens from an empty cache", got[0].CacheRead)
			}
			if r := got[1].CacheRead; r < sharedTok*9/10 || r > sharedTok {
				t.Errorf("the second call read %d tokens from the cache, want about the shared block's %d", r, sharedTok)
			}
			if tc.kind == KindAnthropic {
				blocks := srv.Requests()[0].Body["messages"].([]any)[0].(map[string]any)["content"].([]any)
				first := blocks[0].(map[string]any)
				if _, ok := first["cache_control"]; !ok || first["text"] != shared || len(blocks) != 2 {
					t.Errorf("the request does not mark the shared block with a cache breakpoint: %v", blocks)
				}
			}
		})
	}
}

// TestCachePricesFromTheCatalogue: catwalk's two cached fields, whose
// meaning its data mixes up, give a read price below the input price and
// a write price from the input price up; the cost of a cached call is
// priced with them.
func TestCachePricesFromTheCatalogue(t *testing.T) {
	for _, tc := range []struct {
		in, a, b, read, write float64
	}{
		{5, 6.25, 0.5, 0.5, 6.25},     // write, read (Anthropic's order)
		{0.75, 0.075, 3.75, 0.075, 0}, // a read, then an output price in the wrong field
		{2, 0, 0.2, 0.2, 0},
		{30, 0, 0, 0, 0},
	} {
		r, w := cachePrices(tc.in, tc.a, tc.b)
		if r != tc.read || w != tc.write {
			t.Errorf("cachePrices(%g, %g, %g) = %g, %g, want %g, %g", tc.in, tc.a, tc.b, r, w, tc.read, tc.write)
		}
	}
	p := Price{InputPerMTok: 3, OutputPerMTok: 15, CacheReadPerMTok: 0.3, CacheWritePerMTok: 3.75}
	if got, want := p.CostCached(1_000_000, 800_000, 100_000, 0), 0.3+0.24+0.375; abs(got-want) > 1e-9 {
		t.Errorf("a call with 800k read and 100k written costs $%g, want $%g", got, want)
	}
	if got := (Price{InputPerMTok: 3}).CostCached(1_000_000, 800_000, 0, 0); got != 3 {
		t.Errorf("a read with no known cache price costs $%g, want the input price, $3", got)
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// TestCLIParsersReadTheCachedInput: each vendor CLI's usage report gives
// the part of the input its provider's prompt cache served (and wrote),
// counted inside the whole input as the CLI reports it.
func TestCLIParsersReadTheCachedInput(t *testing.T) {
	for _, tc := range []struct {
		kind            Kind
		line            string
		in, read, write int
	}{
		{KindCodex, `{"type":"turn.completed","usage":{"input_tokens":9000,"cached_input_tokens":8000,"output_tokens":10}}`, 9000, 8000, 0},
		{KindClaude, `{"type":"result","subtype":"success","result":"x","usage":{"input_tokens":100,"cache_read_input_tokens":8000,"cache_creation_input_tokens":900,"output_tokens":10}}`, 9000, 8000, 900},
		{KindGemini, `{"type":"result","status":"success","stats":{"input_tokens":9000,"cached":8000,"output_tokens":10}}`, 9000, 8000, 0},
		{KindOpencode, `{"type":"step_finish","part":{"reason":"stop","tokens":{"input":100,"output":10,"cache":{"read":8000,"write":900}}}}`, 9000, 8000, 900},
	} {
		p := specs[tc.kind].parser()
		p.Feed([]byte(tc.line + "\n"))
		r := p.Finish(0, "")
		if r.TokensIn != tc.in || r.CacheRead != tc.read || r.CacheWrite != tc.write {
			t.Errorf("%s: input %d, read %d, written %d; want %d, %d, %d", tc.kind, r.TokensIn, r.CacheRead, r.CacheWrite, tc.in, tc.read, tc.write)
		}
	}
}
