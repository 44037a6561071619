package shellword

import (
	"os/exec"
	"testing"
)

// TestQuoteRoundTripsThroughAShell: a quoted word reaches a program as
// the one argument it was, whatever it holds.
func TestQuoteRoundTripsThroughAShell(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, s := range []string{"plain", "", "it's a 'quote'", "a b\tc", "$HOME `x` \\ \"q\"", "/cb?x=1&y=<script>"} {
		out, err := exec.Command("sh", "-c", "printf %s "+Quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("Quote(%q) = %s: the shell gave %q (%v)", s, Quote(s), out, err)
		}
	}
}
