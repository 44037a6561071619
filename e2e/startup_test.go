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
// the work, and bytes, each new page of which is a page fault. A lazily
// compiled expression (internal/lazyre) is one small allocation; a table
// built at start, a regexp.MustCompile, a parsed template or a
// golang.org/x/text transform chain (its buffers) is hundreds, or tens of
// kilobytes.
const (
	initAllocsTotal   = 400
	initAllocsPackage = 200
	initBytesTotal    = 48 << 10
	initBytesPackage  = 16 << 10
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
	total, totalBytes, seen := 0, 0, 0
	for _, line := range strings.Split(stderr.String(), "\n") {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(line)
		if len(f) < 11 || f[0] != "init" || f[10] != "allocs" || !strings.HasPrefix(f[1], "github.com/reversa/moot") {
			continue
		}
		allocs, err := strconv.Atoi(f[9])
		size, errSize := strconv.Atoi(f[7])
		if err != nil || errSize != nil {
			t.Fatalf("unreadable inittrace line %q", line)
		}
		seen++
		total += allocs
		totalBytes += size
		if allocs > initAllocsPackage {
			t.Errorf("%s's initialiser allocates %d times at every start (budget %d): build its tables at first use", f[1], allocs, initAllocsPackage)
		}
		if size > initBytesPackage {
			t.Errorf("%s's initialiser allocates %d bytes at every start (budget %d): build its tables at first use", f[1], size, initBytesPackage)
		}
	}
	if seen == 0 {
		t.Fatalf("no initialiser of moot's packages in the trace:\n%.2000s", stderr.String())
	}
	if total > initAllocsTotal {
		t.Errorf("moot's own initialisers allocate %d times at every start (budget %d)", total, initAllocsTotal)
	}
	if totalBytes > initBytesTotal {
		t.Errorf("moot's own initialisers allocate %d bytes at every start (budget %d)", totalBytes, initBytesTotal)
	}
}

// startupHeavyModules are modules moot once linked for a small part of
// them, each adding code and package initialisers to every start of the
// binary (docs/benchmarks.md, Startup): the Anthropic SDK (moot speaks
// the Messages API through harness/anthropic.go) and, through it, a second
// YAML library, OpenTelemetry and a second JSON schema library; and
// go-openai (the openai kind speaks Chat Completions through
// harness/openai.go).
var startupHeavyModules = []string{
	"github.com/anthropics/anthropic-sdk-go",
	"github.com/sashabaranov/go-openai",
	"go.yaml.in/yaml/v4",
	"go.opentelemetry.io/otel",
	"github.com/invopop/jsonschema",
}

// TestTheBinaryLinksNoModuleItDropped: `go version -m` on the built
// binary lists the modules linked into it; none of those moot dropped to
// start faster is back (a new import of one would bring it back silently).
func TestTheBinaryLinksNoModuleItDropped(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "version", "-m", mootBin).CombinedOutput()
	if err != nil {
		t.Fatalf("go version -m: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "dep" {
			continue
		}
		for _, m := range startupHeavyModules {
			if f[1] == m || strings.HasPrefix(f[1], m+"/") {
				t.Errorf("the binary links %s again: it adds code and initialisers to every start; see docs/benchmarks.md before bringing it back", f[1])
			}
		}
	}
}
