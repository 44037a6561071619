package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/internal/testutil"
)

// TestHeadlessCallLinesAlignAndSayCostUnknown: in a council's headless
// output the synthesizer's line has its status under the members' (the
// name column fits "synthesizer"), and a call nothing prices says "cost
// unknown", as the end line does, not a bare "unknown".
func TestHeadlessCallLinesAlignAndSayCostUnknown(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	code, _, errOut := moot(t, proj, "run", "8", "--mode", "repair", "--protocol", "council", "--lens", "security", "--lens", "performance", "-r", "0", "--yes", "--headless")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	col := map[string]int{}
	for _, l := range strings.Split(errOut, "\n") {
		for _, who := range []string{"agente-1", "synthesizer"} {
			if strings.HasPrefix(l, "  "+who+" ") {
				col[who] = strings.Index(l, " ok ")
				if !strings.HasSuffix(l, "cost unknown") {
					t.Errorf("a call nothing prices does not say cost unknown: %q", l)
				}
			}
		}
	}
	if col["agente-1"] <= 0 || col["agente-1"] != col["synthesizer"] {
		t.Errorf("the status column is not aligned (%v):\n%s", col, errOut)
	}
	if !strings.Contains(errOut, "tokens, cost unknown — ") {
		t.Errorf("the end line does not say cost unknown:\n%s", errOut)
	}
}

// TestCallDurationsKeepOneDecimalUnderTenSeconds: the headless column
// writes 7 seconds as 7.0s beside 7.4s.
func TestCallDurationsKeepOneDecimalUnderTenSeconds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{7 * time.Second, "7.0s"}, {7400 * time.Millisecond, "7.4s"}, {35 * time.Millisecond, "35ms"}, {12 * time.Second, "12s"}} {
		if got := callDuration(c.d); got != c.want {
			t.Errorf("%v: %q, want %q", c.d, got, c.want)
		}
	}
}
