package lazyre_test

import (
	"testing"

	"github.com/reversa/moot/internal/lazyre"
)

// TestNewOnlyRecordsTheExpression: declaring a lazy expression costs one
// small allocation and no compilation (an invalid one is reported at its
// first use, not at start), so a package holding dozens adds nothing
// measurable to a start.
func TestNewOnlyRecordsTheExpression(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = lazyre.New(`^(a+)+$`) }); n > 1 {
		t.Errorf("lazyre.New allocates %v times, want at most 1", n)
	}
	bad := lazyre.New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression did not panic at its first use")
		}
	}()
	bad.MatchString("x")
}

func TestALazyExpressionMatchesAsCompiled(t *testing.T) {
	re := lazyre.New(`^moot-([a-z]+)-\d+$`)
	for range 2 {
		if got := re.FindStringSubmatch("moot-call-42"); len(got) != 2 || got[1] != "call" {
			t.Errorf("FindStringSubmatch = %q", got)
		}
	}
}
