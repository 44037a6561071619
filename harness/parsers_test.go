package harness

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/fakeanswer"
)

// The files in testdata/cli are the real outputs of each CLI (recorded
// against the fake provider by the integration tests' setup), so the
// parsers are checked against what the tools really print, without the
// tools installed.

// parseRecorded feeds a recorded stdout to a kind's parser in chunks of
// the given size and finishes it with the recorded exit code and stderr.
func parseRecorded(t *testing.T, kind Kind, name string, chunk int) Result {
	t.Helper()
	base := filepath.Join("testdata", "cli", string(kind)+"-"+name)
	out, err := os.ReadFile(base + ".stdout")
	if err != nil {
		t.Fatal(err)
	}
	errb, _ := os.ReadFile(base + ".stderr")
	code, _ := os.ReadFile(base + ".exit")
	exit, err := strconv.Atoi(strings.TrimSpace(string(code)))
	if err != nil {
		t.Fatalf("%s.exit: %v", base, err)
	}
	return feedAll(specs[kind].parser(), out, chunk, exit, lastLine(string(errb)))
}

func feedAll(p outputParser, out []byte, chunk, exit int, tail string) Result {
	for len(out) > 0 {
		n := min(chunk, len(out))
		p.Feed(out[:n])
		out = out[n:]
	}
	return p.Finish(exit, tail)
}

func lastLine(s string) string {
	tb := &tailBuffer{max: 2048}
	_, _ = tb.Write([]byte(s))
	return tb.lastLine()
}

func TestParsersOnRecordedOutput(t *testing.T) {
	want := strings.TrimSpace(fakeanswer.Reply(cliPrompt, "solver"))
	for _, kind := range cliKinds {
		t.Run(string(kind)+"/ok", func(t *testing.T) {
			for _, chunk := range []int{1, 7, 1 << 20} {
				r := parseRecorded(t, kind, "ok", chunk)
				if statusOf(r) != "ok" || strings.TrimSpace(r.Body) != want {
					t.Fatalf("chunk %d: status %s (%s), body %q", chunk, statusOf(r), r.Err, r.Body)
				}
				if r.TokensIn < 1234 || r.TokensOut != 321 {
					t.Errorf("chunk %d: tokens %d/%d, want the server's 1234/321", chunk, r.TokensIn, r.TokensOut)
				}
			}
		})
		for _, c := range []struct {
			name    string
			failure Failure
		}{{"401", FailEngine}, {"429", FailTransport}} {
			t.Run(string(kind)+"/"+c.name, func(t *testing.T) {
				r := parseRecorded(t, kind, c.name, 64)
				if statusOf(r) != "error" || r.Failure != c.failure {
					t.Errorf("status %s / %s (%s), want error / %s", statusOf(r), r.Failure, r.Err, c.failure)
				}
				if r.Body != "" {
					t.Errorf("a refused call has no answer, got %q", r.Body)
				}
				if !strings.Contains(r.Err, string(kind)) {
					t.Errorf("the error %q does not name the tool", r.Err)
				}
			})
		}
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		status int
		msg    string
		want   Failure
	}{
		{401, "", FailEngine},
		{403, "", FailEngine},
		{400, "", FailEngine},
		{429, "quota", FailTransport},
		{503, "", FailTransport},
		{0, "unexpected status 401 Unauthorized: invalid x-api-key", FailEngine},
		{0, "[API Error: 429 rate limit exceeded]", FailTransport},
		{0, "connect ECONNREFUSED 127.0.0.1:9", FailTransport},
		{0, "getaddrinfo ENOTFOUND api.example.com", FailTransport},
		{0, "stream disconnected before completion", FailTransport},
		{0, "Not logged in · Please run /login", FailEngine},
		{0, "something odd", FailEngine},
	} {
		st := c.status
		if st == 0 {
			st = statusIn(c.msg)
		}
		if got := classify(st, c.msg); got != c.want {
			t.Errorf("classify(%d, %q) = %s, want %s", c.status, c.msg, got, c.want)
		}
	}
}

// FuzzCLIParsers feeds arbitrary output to every CLI parser: none may
// panic, and how the output is split into chunks must not change the
// result.
func FuzzCLIParsers(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "cli", "*.stdout"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b, uint8(5), 0)
	}
	f.Add([]byte("{\"type\":\"result\",\"is_error\":true,\"result\":\"x\"}\n{"), uint8(1), 1)
	f.Fuzz(func(t *testing.T, out []byte, chunk uint8, exit int) {
		for _, kind := range cliKinds {
			whole := feedAll(specs[kind].parser(), out, len(out)+1, exit, "tail")
			split := feedAll(specs[kind].parser(), out, int(chunk)+1, exit, "tail")
			whole.ExitCode, split.ExitCode = nil, nil
			if !reflect.DeepEqual(whole, split) {
				t.Fatalf("%s: chunking changed the result:\n%+v\n%+v", kind, whole, split)
			}
			if statusOf(whole) == "ok" && strings.TrimSpace(whole.Body) == "" {
				t.Fatalf("%s: ok with an empty answer", kind)
			}
		}
	})
}
