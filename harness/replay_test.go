package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/internal/testutil"
)

const cassetteText = `version: 1
calls:
  - {role: solver, solver_id: agente-1, round: 0, duration: 40ms, status: ok, tokens_in: 10, tokens_out: 5, body: "## Hipóteses\n\numa resposta longa o bastante para vir em pedaços"}
  - {role: solver, solver_id: agente-2, round: 0, duration: 10s, status: timeout}
  - {role: solver, solver_id: agente-3, round: 0, attempt: 1, duration: 1ms, status: transport-failure, error: "connection refused"}
  - {role: solver, solver_id: agente-3, round: 0, duration: 1ms, status: ok, body: "segunda tentativa"}
  - {role: judge, round: 0, duration: 1ms, status: error, error: "judge crashed"}
`

func TestParseCassetteErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"version: 2\ncalls: []\n", "version: 2 is not a cassette version"},
		{"version: 1\ncalls:\n  - {solver_id: a, status: ok}\n", "calls[0].role: missing"},
		{"version: 1\ncalls:\n  - {role: solver, solver_id: a, status: fine}\n", "calls[0].status"},
		{"version: 1\ncalls:\n  - {role: solver, solver_id: a, status: ok, round: -1}\n", "cannot be negative"},
		{"version: 1\nextra: x\n", "not a valid cassette"},
	} {
		_, err := ParseCassette("c.yaml", []byte(c.text))
		if !isInputError(err) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "c.yaml") {
			t.Errorf("%q: %v, want %q naming the file", c.text, err, c.want)
		}
	}
}

func TestReplayPlaysTheRecording(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "c.yaml"), []byte(cassetteText), 0o600)
	a, err := New(&EngineConfig{Name: "r", Kind: KindReplay, Cassette: "c.yaml"}, Options{ConfigDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	call := func(id string, role string, attempt int, timeout time.Duration) (Result, []string) {
		var pieces []string
		r := a.Call(context.Background(), Request{Role: role, SolverID: id, Round: 0, Attempt: attempt, Timeout: timeout,
			OnOutput: func(s string) { pieces = append(pieces, s) }})
		return r, pieces
	}
	r, pieces := call("agente-1", "solver", 1, time.Minute)
	if statusOf(r) != "ok" || r.TokensIn != 10 || strings.Join(pieces, "") != r.Body || len(pieces) < 2 {
		t.Errorf("ok call: %+v, %d pieces", r, len(pieces))
	}
	// a recording slower than the call's limit ends at the limit
	if r, _ := call("agente-2", "solver", 1, 50*time.Millisecond); statusOf(r) != "timeout" || !strings.Contains(r.Err, "50ms") {
		t.Errorf("timeout: %+v", r)
	}
	// an attempt of its own first, then the entry for any attempt
	if r, _ := call("agente-3", "solver", 1, time.Minute); r.Failure != FailTransport {
		t.Errorf("attempt 1: %+v", r)
	}
	if r, _ := call("agente-3", "solver", 2, time.Minute); statusOf(r) != "ok" || r.Body != "segunda tentativa" {
		t.Errorf("attempt 2: %+v", r)
	}
	if r, _ := call("", "judge", 1, time.Minute); statusOf(r) != "error" || r.Err != "judge crashed" {
		t.Errorf("judge: %+v", r)
	}
	if r, _ := call("agente-9", "solver", 1, time.Minute); statusOf(r) != "error" || !strings.Contains(r.Err, "no solver call for agente-9") {
		t.Errorf("missing: %+v", r)
	}
}

// TestDemoCassetteParses: the demo's recording is valid.
func TestDemoCassetteParses(t *testing.T) {
	for _, name := range []string{"cassette.yaml", "argue-cassette.yaml"} {
		b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "testdata", "demo", name))
		if err != nil {
			t.Fatal(err)
		}
		if c, err := ParseCassette(name, b); err != nil || len(c.Calls) == 0 {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// FuzzParseCassette: cassettes are outside input (a file named in the
// engines file); never panic, accept only valid calls, and the streamed
// pieces of any body add up to it.
func FuzzParseCassette(f *testing.F) {
	f.Add([]byte(cassetteText), uint8(5))
	f.Add([]byte("version: 1\ncalls:\n  - {role: judge, status: ok, body: \"ação\"}\n"), uint8(1))
	f.Fuzz(func(t *testing.T, raw []byte, n uint8) {
		c, err := ParseCassette("f.yaml", raw)
		if err != nil {
			if !isInputError(err) {
				t.Fatalf("not an input error: %v", err)
			}
			return
		}
		for _, call := range c.Calls {
			if !cassetteStatuses[call.Status] || call.Duration < 0 || call.Round < 0 {
				t.Fatalf("accepted %+v", call)
			}
			if got := strings.Join(splitPieces(call.Body, int(n)+1), ""); got != call.Body {
				t.Fatalf("pieces %q do not add up to %q", got, call.Body)
			}
		}
	})
}
