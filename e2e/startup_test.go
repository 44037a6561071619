package e2e

import (
	"bytes"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// initBudget bounds the work moot's own packages do in their
// initialisers, which every run of the binary pays before main (`moot
// version` included): allocations, which are deterministic, stand for
// the work. A lazily compiled expression (internal/lazyre) is one small
// allocation; a table built at start, a regexp.MustCompile or a parsed
// template is hundreds.
const (
	initAllocsTotal   = 700
	initAllocsPackage = 320
)

// TestMootsOwnInitialisersStayCheap: `moot version` under
// GODEBUG=inittrace=1; the initialisers of moot's own packages allocate
// no more than the budget in all and per package (the dependencies'
// initialisers, chroma's above all, are not moot's to defer).
func TestMootsOwnInitialisersStayCheap(t *testing.T) {
	t.Parallel()
	c := exec.Command(mootBin, "version")
	c.Env = append(c.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("moot version: %v\n%s", err, stderr.String())
	}
	total, seen := 0, 0
	for _, line := range strings.Split(stderr.String(), "\n") {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(line)
		if len(f) < 11 || f[0] != "init" || f[10] != "allocs" || !strings.HasPrefix(f[1], "github.com/reversa/moot") {
			continue
		}
		allocs, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("unreadable inittrace line %q", line)
		}
		seen++
		total += allocs
		if allocs > initAllocsPackage {
			t.Errorf("%s's initialiser allocates %d times at every start (budget %d): build its tables at first use", f[1], allocs, initAllocsPackage)
		}
	}
	if seen == 0 {
		t.Fatalf("no initialiser of moot's packages in the trace:\n%.2000s", stderr.String())
	}
	if total > initAllocsTotal {
		t.Errorf("moot's own initialisers allocate %d times at every start (budget %d)", total, initAllocsTotal)
	}
}
