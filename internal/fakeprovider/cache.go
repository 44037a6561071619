package fakeprovider

import (
	"encoding/json"
	"strings"
	"sync"
	"time"
)

// usage is what an answer reports about its input: in tokens in all, of
// which read came from the prompt cache and write went into it.
type usage struct {
	in, read, write int
}

// chatUsage is Chat Completions' usage object (cached tokens are part of
// prompt_tokens, as OpenAI counts them).
func chatUsage(u usage, out int) map[string]any {
	return map[string]any{"prompt_tokens": u.in, "completion_tokens": out, "total_tokens": u.in + out,
		"prompt_tokens_details": map[string]any{"cached_tokens": u.read}}
}

// The caches' rules, as the providers document them: nothing under 1,024
// tokens is cached, an automatic cache matches in steps of 128 tokens.
const (
	minCached  = 1024
	cacheStep  = 128
	bytesToken = 4
)

func tokens(s string) int { return (len(s) + bytesToken - 1) / bytesToken }

// prefixCaches emulates the providers' prompt caches, one per model: an
// entry is readable by the requests that arrive after the response that
// wrote it began (never by one sent at the same time).
type prefixCaches struct {
	mu      sync.Mutex
	entries map[string][]cacheEntry
}

type cacheEntry struct {
	text  string
	ready time.Time
}

// use counts a request's input and its use of the cache: a request that
// arrived at arrived, whose answer begins now. Anthropic caches the
// prompt up to its block marked cache_control (read when an earlier
// request wrote exactly that prefix, else written); OpenAI and Gemini
// cache automatically the longest prefix shared with an earlier request,
// in steps of 128 tokens (never written at a price).
func (c *prefixCaches) use(a api, body map[string]any, prompt string, arrived time.Time) usage {
	model, _ := body["model"].(string)
	u := usage{in: tokens(prompt)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string][]cacheEntry{}
	}
	seen := c.entries[model]
	if a == apiMessages {
		prefix := markedPrefix(body)
		if tokens(prefix) < minCached {
			return u
		}
		for _, e := range seen {
			if e.text == prefix && e.ready.Before(arrived) {
				u.read = tokens(prefix)
				return u
			}
		}
		u.write = tokens(prefix)
		c.entries[model] = append(seen, cacheEntry{text: prefix, ready: time.Now()})
		return u
	}
	text, mine := prompt, []span{{0, len(prompt)}}
	if a == apiGemini {
		text, mine = geminiCacheText(body, prompt)
	}
	best := 0
	for _, e := range seen {
		if e.ready.Before(arrived) {
			best = max(best, commonPrefix(e.text, text))
		}
	}
	if t := within(mine, best) / bytesToken / cacheStep * cacheStep; t >= minCached {
		u.read = t
	}
	c.entries[model] = append(seen, cacheEntry{text: text, ready: time.Now()})
	return u
}

// span is a range of bytes [from, to).
type span struct{ from, to int }

// within is how many bytes of spans lie before n.
func within(spans []span, n int) int {
	in := 0
	for _, s := range spans {
		in += max(0, min(s.to, n)-s.from)
	}
	return in
}

// geminiCacheText is a Gemini request as its implicit cache matches it:
// the system instruction, the tool declarations, then every content part
// in order (a client's own additions, such as the gemini CLI's session
// context naming the call's folders, included), and where the caller's
// prompt lies in it (usage counts the caller's prompt, as for the other
// APIs): its start in the system instruction when the caller put it
// there (promptOf), and its user text.
func geminiCacheText(body map[string]any, prompt string) (string, []span) {
	var b strings.Builder
	var mine []span
	sys := geminiSystem(body)
	b.WriteString(sys)
	if sys != "" && strings.HasPrefix(prompt, sys) {
		mine = append(mine, span{0, len(sys)})
		prompt = strings.TrimPrefix(prompt[len(sys):], "\n\n")
	}
	if tools, err := json.Marshal(body["tools"]); err == nil {
		b.Write(tools)
	}
	cs, _ := body["contents"].([]any)
	for _, c := range cs {
		m, _ := c.(map[string]any)
		parts, _ := m["parts"].([]any)
		for _, part := range parts {
			pm, _ := part.(map[string]any)
			t, _ := pm["text"].(string)
			if t != "" && t == prompt {
				mine = append(mine, span{b.Len(), b.Len() + len(t)})
			}
			b.WriteString(t)
		}
	}
	return b.String(), mine
}

// markedPrefix is an Anthropic request's text up to and including the
// last content block marked with cache_control ("" when none is marked).
func markedPrefix(body map[string]any) string {
	var b strings.Builder
	marked := 0
	ms, _ := body["messages"].([]any)
	for _, msg := range ms {
		m, _ := msg.(map[string]any)
		blocks, _ := m["content"].([]any)
		for _, blk := range blocks {
			bm, _ := blk.(map[string]any)
			t, _ := bm["text"].(string)
			b.WriteString(t)
			if _, ok := bm["cache_control"]; ok {
				marked = b.Len()
			}
		}
	}
	return b.String()[:marked]
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
