package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	. "github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/fakeprovider"
	"github.com/reversa/moot/internal/testutil"
	"github.com/reversa/moot/protocol/debate"
)

// cacheKinds are the engine kinds whose prompt cache the fake provider
// emulates, each with a list price of its vendor's (per million tokens:
// input, output, cache read, cache write) and the path its base URL takes.
var cacheKinds = []struct {
	kind  harness.Kind
	price string
	v1    bool
	cli   bool
}{
	{harness.KindAnthropic, "{input_per_mtok: 3, output_per_mtok: 15, cache_read_per_mtok: 0.3, cache_write_per_mtok: 3.75}", false, false},
	{harness.KindOpenAI, "{input_per_mtok: 2.5, output_per_mtok: 15, cache_read_per_mtok: 0.25}", true, false},
	{harness.KindGemini, "{input_per_mtok: 2, output_per_mtok: 12, cache_read_per_mtok: 0.2}", false, true},
}

// cacheFigures are what a debate against a caching provider billed.
type cacheFigures struct {
	// fullP is the shared block (P) billed at the full input price (or
	// written to the cache), per engine, in units of |P|.
	fullP float64
	// costRatio is the input cost ÷ the same input with nothing cached.
	costRatio float64
	// pTokens is |P| as the provider counts it; calls the calls made.
	pTokens, calls int
	plan           *Plan
	events         []Event
}

// cachedDebate runs an N×R debate, every call on one engine of kind
// against the fake provider emulating that API's prompt cache, on the
// sample bug with pBytes of evidence added to P, and reads back what the
// provider billed.
func cachedDebate(tb testing.TB, kind harness.Kind, price string, v1 bool, n, r, pBytes int) cacheFigures {
	tb.Helper()
	srv := fakeprovider.New()
	tb.Cleanup(srv.Close)
	srv.Cache = true
	// a provider's time to the first token: calls launched together all
	// arrive before the first one's answer begins (and its cache entry
	// with it)
	srv.Delay = 200 * time.Millisecond
	os.Setenv("MOOT_TEST_CACHE_KEY", "sk-test-cache")
	proj := testutil.CopyTree(tb, "sample")
	_, bug, err := bugfolder.Resolve(proj, "7")
	if err != nil {
		tb.Fatal(err)
	}
	var ev strings.Builder
	for i := 0; ev.Len() < pBytes; i++ {
		fmt.Fprintf(&ev, "2026-07-15T10:%02d:%02d checkout recalc order=4711 step=%d discount=progressive applied=true total=%d.%02d\n", i/60%60, i%60, i, 100+i%900, i%100)
	}
	if err := os.WriteFile(filepath.Join(bug.Dir, "evidence", "recalc-trace.log"), []byte(ev.String()), 0o600); err != nil {
		tb.Fatal(err)
	}
	_, bug, err = bugfolder.Resolve(proj, "7")
	if err != nil {
		tb.Fatal(err)
	}
	base := srv.URL
	if v1 {
		base += "/v1"
	}
	cfg, err := harness.ParseConfig("moot.yaml", []byte(fmt.Sprintf("engines:\n  cloud-1:\n    kind: %s\n    model: fake-model\n    base_url: %s\n    api_key_env: MOOT_TEST_CACHE_KEY\n    context_tokens: 200000\n    max_output_tokens: 4000\n    price: %s\n", kind, base, price)))
	if err != nil {
		tb.Fatal(err)
	}
	solvers := make([]string, n)
	for i := range solvers {
		solvers[i] = "cloud-1"
	}
	s := Setup{Protocol: debate.Protocol{}, Bug: bug, Lang: bugfolder.EN, Mode: bugfolder.Diagnosis, N: n, R: r, Solvers: solvers, Judge: "cloud-1", Parallel: n,
		AllowSameFamily: true}
	if s.Problem, err = bugfolder.AssembleP(bug); err != nil {
		tb.Fatal(err)
	}
	plan, err := NewPlan(s, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	var mu sync.Mutex
	var evs []Event
	opts := Options{Protocol: debate.Protocol{}, Config: cfg, Supervisor: &Policies{}, Command: "bench", Harness: harness.Options{Grace: time.Second},
		Sink: func(e Event) {
			mu.Lock()
			evs = append(evs, e)
			mu.Unlock()
		}}
	res, err := Start(context.Background(), s, opts)
	if err != nil || res.Outcome != OutcomeDone {
		tb.Fatalf("%v %+v", err, res)
	}
	f := cacheFigures{plan: plan, events: evs}
	for _, q := range srv.Requests() {
		if q.Method == "POST" {
			if n := SharedPrefix([]string{q.Prompt}); n > 0 {
				f.pTokens = max(f.pTokens, (n+3)/4)
			}
		}
	}
	if f.pTokens == 0 {
		tb.Fatal("no prompt began with a shared block")
	}
	lim := harness.LimitsOf(cfg.Engines["cloud-1"])
	var billed, cached, uncached float64
	for _, e := range evs {
		if e.Type != EvCallFinished || e.Retrying {
			continue
		}
		f.calls++
		billed += float64(f.pTokens - e.CacheRead)
		cached += lim.Price.CostCached(e.TokensIn, e.CacheRead, e.CacheWrite, 0)
		uncached += lim.Price.Cost(e.TokensIn, 0)
	}
	f.fullP = billed / float64(f.pTokens)
	f.costRatio = cached / uncached
	return f
}

// TestPromptCacheServesPAfterTheFirstCall: a debate whose calls all go to
// one engine sends P in full once — its first call writes the shared block
// to the provider's cache, the calls launched with it wait for that, and
// every later call reads it — so it bills about |P| at the full input
// price, and its input costs a fraction of the same debate uncached. The
// calls record what the cache served, and the plan estimated with it.
func TestPromptCacheServesPAfterTheFirstCall(t *testing.T) {
	t.Parallel()
	for _, k := range cacheKinds[:2] {
		t.Run(string(k.kind), func(t *testing.T) {
			f := cachedDebate(t, k.kind, k.price, k.v1, 3, 1, 40_000)
			if f.fullP > 1.2 {
				t.Errorf("P billed at the full price %.2f times over %d calls, want at most 1.2", f.fullP, f.calls)
			}
			if f.costRatio > 0.5 {
				t.Errorf("the input cost %.0f %% of the same debate uncached, want at most 50 %% over %d calls", 100*f.costRatio, f.calls)
			}
			reads := 0
			for _, e := range f.events {
				if e.Type == EvCallFinished && e.CacheRead > 0 {
					reads++
					if e.CostUncachedUSD <= e.CostUSD {
						t.Errorf("a call that read the cache records it would have cost $%g uncached, not more than its $%g", e.CostUncachedUSD, e.CostUSD)
					}
				}
			}
			if reads != f.calls-1 {
				t.Errorf("%d of %d calls read the cache, want all but the first", reads, f.calls)
			}
			if f.plan.CachedInput == 0 || f.plan.USD >= f.plan.USDUncached || !strings.Contains(CachingLine(f.plan), "prompt caching") {
				t.Errorf("the plan does not estimate with caching: cached %d, $%g vs $%g uncached, %q", f.plan.CachedInput, f.plan.USD, f.plan.USDUncached, CachingLine(f.plan))
			}
		})
	}
}

// BenchmarkPromptCache: a debate of N=3, R=2 on a P of 20k tokens, every
// call on one engine of each kind against the fake provider's emulated
// prompt cache. Targets: P billed at the full price at most 1.2 × |P| per
// engine; input cost ≤ 35 % of the same debate uncached. The gemini kind
// runs the real gemini CLI (skipped when scripts/install-clis has not
// installed it).
func BenchmarkPromptCache(b *testing.B) {
	for _, k := range cacheKinds {
		b.Run(string(k.kind), func(b *testing.B) {
			if k.cli {
				bin := testutil.NeedCLIs(b, "gemini")
				os.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			}
			var f cacheFigures
			for i := 0; i < b.N; i++ {
				f = cachedDebate(b, k.kind, k.price, k.v1, 3, 2, 80_000)
			}
			b.ReportMetric(f.fullP, "fullP/engine")
			b.ReportMetric(100*f.costRatio, "input-cost-%")
			b.ReportMetric(float64(f.pTokens), "P-tokens")
			b.ReportMetric(float64(f.calls), "calls")
		})
	}
}
