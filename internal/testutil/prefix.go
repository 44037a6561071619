package testutil

import (
	"strings"
	"testing"
)

// RequireSharedPrefix fails t unless every prompt of a run begins with the
// same block, byte for byte: the text up to and including the first end
// marker of the first prompt, which must hold p (a prompt cache serves
// that block after the first call).
func RequireSharedPrefix(t testing.TB, prompts []string, p, end string) {
	t.Helper()
	if len(prompts) < 2 {
		t.Fatalf("a run of %d prompts shows no shared prefix", len(prompts))
	}
	i := strings.Index(prompts[0], end)
	if i < 0 {
		t.Fatalf("the first prompt has no end of the shared block %q:\n%s", end, prompts[0])
	}
	block := prompts[0][:i+len(end)]
	if !strings.Contains(block, strings.TrimRight(p, "\n")) {
		t.Fatalf("the shared block does not hold P:\n%s", block)
	}
	for k, pr := range prompts[1:] {
		if !strings.HasPrefix(pr, block) {
			n := 0
			for n < len(pr) && n < len(block) && pr[n] == block[n] {
				n++
			}
			t.Errorf("prompt %d leaves the shared block at byte %d: %q…", k+1, n, pr[n:min(len(pr), n+80)])
		}
	}
}
