package harness

import (
	"strings"
	"sync"

	"charm.land/catwalk/pkg/catwalk"
	"charm.land/catwalk/pkg/embedded"
)

// kindProviders are the catwalk providers whose models a kind runs, most
// likely first; an empty list searches every provider.
var kindProviders = map[Kind][]string{
	KindCodex:     {"openai"},
	KindClaude:    {"anthropic"},
	KindAnthropic: {"anthropic"},
	KindGemini:    {"gemini", "vertexai"},
	KindQwen:      {"alibaba-singapore", "alibaba-united-states", "openrouter"},
}

var catalog struct {
	once      sync.Once
	providers []catwalk.Provider
}

func providers() []catwalk.Provider {
	catalog.once.Do(func() { catalog.providers = embedded.GetAll() })
	return catalog.providers
}

// DefaultModel is the model a vendor kind uses when the entry names none:
// its provider's default large model in the catalogue ("" when unknown).
func DefaultModel(k Kind) string {
	for _, id := range kindProviders[k] {
		for _, p := range providers() {
			if string(p.ID) == id {
				return p.DefaultLargeModelID
			}
		}
	}
	return ""
}

// catalogLookup finds an engine's model in charm.land/catwalk's embedded
// data (offline). The data has known faults, handled conservatively: a
// default output at or above the context window is capped to a quarter of
// the window, and a 0/0 price is treated as unknown, not free.
func catalogLookup(e *EngineConfig) (Limits, bool) {
	model := e.Model
	if model == "" {
		model = DefaultModel(e.Kind)
	}
	if model == "" {
		return Limits{}, false
	}
	want := strings.ToLower(model)
	short := want
	if i := strings.LastIndexByte(want, '/'); i >= 0 {
		short = want[i+1:]
	}
	order := kindProviders[e.Kind]
	if e.Kind == KindOpencode {
		if i := strings.IndexByte(want, '/'); i > 0 {
			order = []string{want[:i]}
		}
	}
	var found *catwalk.Model
	match := func(p catwalk.Provider) bool {
		for i := range p.Models {
			id := strings.ToLower(p.Models[i].ID)
			if id == want || id == short || strings.HasSuffix(id, "/"+short) {
				found = &p.Models[i]
				return true
			}
		}
		return false
	}
	for _, id := range order {
		for _, p := range providers() {
			if string(p.ID) == id && match(p) {
				return limitsOfModel(found), true
			}
		}
	}
	if len(order) == 0 || e.Kind == KindOpencode {
		for _, p := range providers() {
			if match(p) {
				return limitsOfModel(found), true
			}
		}
	}
	return Limits{}, false
}

func limitsOfModel(m *catwalk.Model) Limits {
	l := Limits{ContextTokens: int(m.ContextWindow), MaxOutputTokens: int(m.DefaultMaxTokens), Source: "catwalk"}
	if l.ContextTokens > 0 && l.MaxOutputTokens >= l.ContextTokens {
		l.MaxOutputTokens = l.ContextTokens / 4
	}
	if m.CostPer1MIn > 0 || m.CostPer1MOut > 0 {
		l.Price = &Price{InputPerMTok: m.CostPer1MIn, OutputPerMTok: m.CostPer1MOut}
		l.Price.CacheReadPerMTok, l.Price.CacheWritePerMTok = cachePrices(m.CostPer1MIn, m.CostPer1MInCached, m.CostPer1MOutCached)
	}
	return l
}

// cachePrices reads a model's prompt-cache prices from catwalk's two
// cached fields, whose meaning its data does not keep (cost_per_1m_in_cached
// is mostly the cache write, cost_per_1m_out_cached the read, some models
// have them the other way round, and some give the output price in
// one): a read is the lower one of them below the input price (else
// unknown, priced as input), a write the one from the input price to
// twice it (else unknown, priced as input).
func cachePrices(input, a, b float64) (read, write float64) {
	for _, v := range []float64{a, b} {
		if v > 0 && v < input && (read == 0 || v < read) {
			read = v
		}
		if v >= input && v <= 2*input {
			write = v
		}
	}
	return read, write
}

// MinCachedTokens is the shortest prefix the providers cache (Anthropic's
// and OpenAI's minimum is 1,024 tokens; Gemini's implicit cache starts
// there too): below it the plan expects no cache.
const MinCachedTokens = 1024

// PrefixCached reports whether an engine of kind k reaches a provider that
// serves a repeated prompt prefix from a cache: the anthropic kind marks
// it (Request.CachePrefix), the OpenAI-compatible servers and the vendor
// CLIs' providers cache an identical prefix by themselves. A command or a
// replay caches nothing moot can count.
func PrefixCached(k Kind) bool {
	switch k {
	case KindCommand, KindReplay:
		return false
	}
	return true
}
