package engine

import (
	"strings"
	"sync"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
)

// SharedEnd ends the block every prompt of a run begins with: P under its
// protocol's title (and whatever else every call of the run reads the
// same), byte for byte the same in every call, so a provider's prompt
// cache serves it after the first call (docs/engines.md#prompt-caching).
// What follows it is the call's own: its role's instructions, its lens or
// persona, the snapshot in its reading order.
const SharedEnd = "\n----- end of the shared part: what follows is this call's own -----\n\n"

// WriteShared writes the shared block a prompt begins with: the protocol's
// title for P (its own line, in the run's language), P as WriteP writes
// it, and SharedEnd. Nothing that differs between the calls of a run (an
// id, a round, a lens, a nonce, an order) may go into it.
func WriteShared(w *strings.Builder, title, p string, after int) {
	w.WriteString(title)
	WriteP(w, p, after)
	w.WriteString(SharedEnd)
}

// SharedPrefix is the length in bytes of a prompt's shared block, ending
// with SharedEnd (0 when the prompt has none), given in the pieces the
// runner renders it in (P at the odd indexes, never searched: when P
// itself holds the marker, the block ends at P's end the same in every
// call) or as one piece.
func SharedPrefix(parts []string) int {
	n := 0
	for i, s := range parts {
		if i%2 == 0 {
			if j := strings.Index(s, SharedEnd); j >= 0 {
				return n + j + len(SharedEnd)
			}
		}
		n += len(s)
	}
	return 0
}

// cacheUse is one call's use of its provider's prompt cache: the input
// tokens read from it and written to it, and what the call would have
// cost with none of its input cached.
type cacheUse struct {
	read, write int
	uncached    float64
}

// warmGate lets the first call of a run on an engine whose provider caches
// prompts go ahead alone, and holds the engine's other calls until that
// call's answer begins (or it ends): a provider's cache entry is readable
// once the response that wrote it has begun, so the calls launched
// together in round 0 read P from the cache instead of each paying for it
// in full. Each engine is warmed once a run; a gate opens for good.
type warmGate struct {
	mu    sync.Mutex
	gates map[string]chan struct{}
}

// enter is a call's turn at engine's gate: wait is closed once the engine
// is warm (nil for the warming call itself), and open, which the warming
// call runs at its first answer byte and at its end, opens the gate.
func (g *warmGate) enter(engine string) (wait <-chan struct{}, open func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if ch, ok := g.gates[engine]; ok {
		return ch, func() {}
	}
	if g.gates == nil {
		g.gates = map[string]chan struct{}{}
	}
	ch := make(chan struct{})
	g.gates[engine] = ch
	var once sync.Once
	return nil, func() { once.Do(func() { close(ch) }) }
}

// warms reports whether a call of engine's kind with this prompt warms a
// prompt cache worth waiting for: its provider caches prefixes and its
// shared block is at least the shortest prefix one caches.
func warms(kind harness.Kind, prompt []string) bool {
	return harness.PrefixCached(kind) && bugfolder.EstimateTokens(SharedPrefix(prompt)) >= harness.MinCachedTokens
}

// warms reports whether a call of engine with this prompt warms its
// provider's prompt cache (warms, for the engine's kind).
func (r *runner) warms(engine string, prompt []string) bool {
	if r.opts.Config == nil {
		return false
	}
	ec, err := r.opts.Config.Engine(engine)
	return err == nil && warms(ec.Kind, prompt)
}
