package engine_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// answering is an engine that answers every call with res, and records
// the timeout each call was given.
type answering struct {
	mu       sync.Mutex
	res      harness.Result
	timeouts []time.Duration
}

func (a *answering) Call(_ context.Context, req harness.Request) harness.Result {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.timeouts = append(a.timeouts, req.Timeout)
	return a.res
}

// TestDispatcherCallsAsTheRunnerDoes: a call's timeout is --timeout, else
// the engine's, else DefaultTimeout; a cap that pays one call stops the
// next before it starts (--on-budget stop and cancel, or no one to ask),
// and every call after the stop is refused unasked; a server's negative
// token count is no discount (the call is estimated instead); an
// invalid answer's status is the check's.
func TestDispatcherCallsAsTheRunnerDoes(t *testing.T) {
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  a: {kind: command, command: [x], external: false, timeout: 42s, price: {input_per_mtok: 1, output_per_mtok: 2}}\n  b: {kind: command, command: [x], external: false}\n"))
	if err != nil {
		t.Fatal(err)
	}
	spec := func(eng string) engine.CallSpec {
		return engine.CallSpec{Round: 1, ID: "defect", Role: "juror", Engine: eng, Prompt: string(make([]byte, 4000)), ExpectedOut: 1000}
	}
	t.Run("timeouts", func(t *testing.T) {
		for _, c := range []struct {
			flag time.Duration
			eng  string
			want time.Duration
		}{{0, "a", 42 * time.Second}, {0, "b", engine.DefaultTimeout}, {5 * time.Second, "a", 5 * time.Second}} {
			fake := &answering{res: harness.Result{Body: "ok", TokensIn: 10, TokensOut: 5}}
			d := engine.NewDispatcher(engine.DispatchOptions{Config: cfg, Engines: map[string]harness.Engine{c.eng: fake}, Timeout: c.flag, Parallel: 1})
			if _, err := d.Call(context.Background(), spec(c.eng), nil); err != nil {
				t.Fatal(err)
			}
			if fake.timeouts[0] != c.want {
				t.Errorf("engine %s, --timeout %s: the call had %s, want %s", c.eng, c.flag, fake.timeouts[0], c.want)
			}
		}
	})
	t.Run("budget", func(t *testing.T) {
		for _, c := range []struct {
			policy string
			want   error
		}{{"stop", engine.ErrBudgetStop}, {"cancel", engine.ErrBudgetCancel}, {"ask", engine.ErrBudgetStop}} {
			fake := &answering{res: harness.Result{Body: "ok", TokensIn: 1000, TokensOut: 1000}}
			var evs []engine.Event
			s := spec("a")
			s.Emit = func(ev engine.Event) { evs = append(evs, ev) }
			d := engine.NewDispatcher(engine.DispatchOptions{Config: cfg, Engines: map[string]harness.Engine{"a": fake}, Parallel: 1,
				Budget: engine.Budget{MaxTokens: 2500}, Asker: &engine.Policies{OnBudget: c.policy}})
			if _, err := d.Call(context.Background(), s, nil); err != nil {
				t.Fatalf("%s: the first call fits the cap: %v", c.policy, err)
			}
			for i := 0; i < 2; i++ {
				if _, err := d.Call(context.Background(), s, nil); !errors.Is(err, c.want) {
					t.Errorf("%s: call %d past the cap: %v, want %v", c.policy, i+2, err, c.want)
				}
			}
			if len(fake.timeouts) != 1 {
				t.Errorf("%s: %d calls reached the engine, want 1", c.policy, len(fake.timeouts))
			}
			if tok, _ := d.Spent(); tok != 2000 {
				t.Errorf("%s: spent %d tokens, want 2000", c.policy, tok)
			}
			decisions := 0
			for _, ev := range evs {
				if ev.Type == engine.EvDecision && ev.Point == bugfolder.PointBudget {
					decisions++
				}
			}
			if want := map[string]int{"stop": 1, "cancel": 1, "ask": 0}[c.policy]; decisions != want {
				t.Errorf("%s: %d budget decisions logged, want %d", c.policy, decisions, want)
			}
		}
	})
	t.Run("negative tokens", func(t *testing.T) {
		fake := &answering{res: harness.Result{Body: "ok", TokensIn: -5000, TokensOut: -5000}}
		d := engine.NewDispatcher(engine.DispatchOptions{Config: cfg, Engines: map[string]harness.Engine{"b": fake}, Parallel: 1})
		res, err := d.Call(context.Background(), spec("b"), nil)
		if err != nil || res.TokensIn <= 0 || res.TokensOut < 0 {
			t.Errorf("tokens in %d out %d (%v): a negative count is estimated, never subtracted", res.TokensIn, res.TokensOut, err)
		}
	})
	t.Run("check", func(t *testing.T) {
		fake := &answering{res: harness.Result{Body: "for another lens"}}
		var fin engine.Event
		s := spec("b")
		s.Emit = func(ev engine.Event) {
			if ev.Type == engine.EvCallFinished {
				fin = ev
			}
		}
		d := engine.NewDispatcher(engine.DispatchOptions{Config: cfg, Engines: map[string]harness.Engine{"b": fake}, Parallel: 1})
		check := func(string) (bugfolder.Status, string) { return bugfolder.StatusInvalidOutput, "wrong lens" }
		if _, err := d.Call(context.Background(), s, check); err != nil {
			t.Fatal(err)
		}
		if fin.Status != bugfolder.StatusInvalidOutput || fin.Error != "wrong lens" || !fin.CostUnknown {
			t.Errorf("call_finished %+v", fin)
		}
	})
}

// TestDispatcherHoldsAnAnswerToItsMaxUnderACap: under a budget cap, a
// juror's answer whose size moot counts itself (no tokens reported) is
// cut at its engine's max answer and priced as cut, with a warning, as a
// debater's is; without a cap it is kept whole.
func TestDispatcherHoldsAnAnswerToItsMaxUnderACap(t *testing.T) {
	cfg, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  a: {kind: command, command: [x], external: false, max_output_tokens: 10, price: {input_per_mtok: 1, output_per_mtok: 2}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("verdict ", 100) // ≈200 tokens
	for _, c := range []struct {
		name    string
		cap     engine.Budget
		wantOut int
		cut     bool
	}{{"a cap", engine.Budget{MaxTokens: 100000}, 10, true}, {"no cap", engine.Budget{}, bugfolder.EstimateTokens(len(long)), false}} {
		t.Run(c.name, func(t *testing.T) {
			fake := &answering{res: harness.Result{Body: long}}
			d := engine.NewDispatcher(engine.DispatchOptions{Config: cfg, Engines: map[string]harness.Engine{"a": fake}, Parallel: 1, Budget: c.cap})
			var mu sync.Mutex
			var warned []string
			res, err := d.Call(context.Background(), engine.CallSpec{Round: 1, ID: "defect", Role: "juror", Engine: "a", Prompt: "p", ExpectedOut: 10,
				Emit: func(ev engine.Event) {
					mu.Lock()
					defer mu.Unlock()
					if ev.Type == engine.EvWarning {
						warned = append(warned, ev.Text)
					}
				}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.TokensOut != c.wantOut || (len(res.Body) < len(long)) != c.cut || (len(warned) == 1) != c.cut {
				t.Errorf("tokens out %d (want %d), body %d of %d bytes, warnings %q", res.TokensOut, c.wantOut, len(res.Body), len(long), warned)
			}
			if want := 2.0 * float64(c.wantOut) / 1e6; res.CostUSD == nil || *res.CostUSD < want {
				t.Errorf("cost %v: priced on %d tokens out at least", res.CostUSD, c.wantOut)
			}
		})
	}
}
