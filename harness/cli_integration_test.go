package harness

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reversa/moot/internal/fakeanswer"
	"github.com/reversa/moot/internal/fakeprovider"
	"github.com/reversa/moot/internal/testutil"
)

// The tests in this file run the real vendor CLIs, installed by
// scripts/install-clis into testutil.CLICache(), against the fake provider.
// A CLI that is not installed is skipped with the reason in the test output.

// plantedKey is a secret that must never appear in anything moot writes.
const plantedKey = "sk-planted-0123456789abcdefSECRET"

var (
	cliEnvOnce sync.Once
	markers    atomic.Int64
)

// needCLI puts the installed CLIs on PATH and the planted key in the
// environment (once, process-wide, so that the subtests can run in
// parallel), or skips saying why.
func needCLI(t *testing.T, kind Kind) {
	t.Helper()
	bin := testutil.NeedCLIs(t, specs[kind].bin)
	cliEnvOnce.Do(func() {
		os.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	})
	plantKey()
}

var plantOnce sync.Once

// plantKey puts the planted key in MOOT_TEST_KEY, process-wide (parallel
// subtests cannot use t.Setenv).
func plantKey() {
	plantOnce.Do(func() { os.Setenv("MOOT_TEST_KEY", plantedKey) })
}

// cliEntry is an engine entry for a CLI pointed at the fake provider.
func cliEntry(kind Kind, srv *fakeprovider.Server, marker string) *EngineConfig {
	base := srv.URL
	switch kind {
	case KindCodex, KindOpencode, KindQwen, KindOpenAI:
		base += "/v1"
	}
	return &EngineConfig{Name: string(kind), Kind: kind, Model: "fake-model", BaseURL: base,
		APIKeyEnv: "MOOT_TEST_KEY", External: true, ProjectAccess: "none",
		Env: map[string]string{"MOOT_TEST_MARKER": marker}}
}

var cliKinds = []Kind{KindCodex, KindClaude, KindGemini, KindOpencode, KindQwen}

// cliCall makes one call and returns the result, raw streams, deltas and
// the call's private folder as it was at the end.
type cliRun struct {
	res      Result
	out, err bytes.Buffer
	deltas   strings.Builder
	took     time.Duration
	files    []string // files left in the private folder's work/ and tmp/
	marker   string
}

func cliCall(t *testing.T, kind Kind, srv *fakeprovider.Server, prompt string, timeout time.Duration) *cliRun {
	t.Helper()
	return cliCallSpec(t, kind, nil, srv, prompt, timeout)
}

// cliCallSpec is cliCall with the CLI's spec replaced by spec (nil keeps
// the kind's own).
func cliCallSpec(t *testing.T, kind Kind, spec *cliSpec, srv *fakeprovider.Server, prompt string, timeout time.Duration) *cliRun {
	t.Helper()
	run := &cliRun{marker: "moot-test-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-" + strconv.FormatInt(markers.Add(1), 10)}
	e := cliEntry(kind, srv, run.marker)
	opts := Options{Grace: time.Second}
	opts.inspect = func(root string) {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), srv.ToolFile) {
				run.files = append(run.files, p)
			}
			return nil
		})
	}
	var a Engine = &vendorCLI{cfg: e, opts: opts.withDefaults(), spec: spec}
	if spec == nil {
		var err error
		if a, err = New(e, opts); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	run.res, run.took = callInSlot(a, Request{
		Role: "solver", SolverID: "agente-1", Prompt: prompt, P: "# P\n", Timeout: timeout,
		Stdout: &run.out, Stderr: &run.err,
		OnOutput: func(s string) { mu.Lock(); run.deltas.WriteString(s); mu.Unlock() },
	})
	return run
}

// callInSlot makes a real CLI's call once one of cliSlots is free, and
// says how long the call itself took.
func callInSlot(a Engine, req Request) (Result, time.Duration) {
	cliSlots <- struct{}{}
	defer func() { <-cliSlots }()
	start := time.Now()
	res := a.Call(context.Background(), req)
	return res, time.Since(start)
}

// leftover lists the processes still running with the call's marker.
func leftover(marker string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(b, []byte("MOOT_TEST_MARKER="+marker)) {
			cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			out = append(out, e.Name()+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
		}
	}
	return out
}

// checkClean asserts what every call must leave: no secret anywhere, no
// process behind.
func (r *cliRun) checkClean(t *testing.T) {
	t.Helper()
	for name, s := range map[string]string{"raw stdout": r.out.String(), "raw stderr": r.err.String(), "body": r.res.Body, "error": r.res.Err, "live output": r.deltas.String()} {
		if strings.Contains(s, plantedKey) {
			t.Errorf("the planted key appears in the %s", name)
		}
	}
	if left := leftover(r.marker); len(left) > 0 {
		t.Errorf("processes left after the call: %v", left)
	}
}

const cliPrompt = "Você é agente-1, um dos debatedores independentes.\nModo: diagnosis\n\nResponda com as seções do protocolo.\n"

// cliDeadline is one attempt's timeout for a call that must end on its
// own. A healthy call takes 10 to 35 s on the 2-core machine (the CLI's
// start-up is most of it: opencode's alone costs about 12 s of CPU), but
// at a load average of 15 opencode took 80 s to reach its first log line
// and qwen's tool-mode call passed 90 s; a call that printed nothing in
// two minutes is hung.
const cliDeadline = 2 * time.Minute

// cliSlots bounds how many real CLIs run at once. Their start-up is CPU
// work: eight at once on two cores (go test -parallel 8) made each take
// several times longer (opencode 64 to 120 s instead of 20), and healthy
// calls then passed a deadline meant for a hung one. A call waits for its
// slot before its deadline starts.
var cliSlots = make(chan struct{}, 3)

// startupHang reports whether a call that was to end on its own instead
// printed nothing at all, on stdout or stderr, and was killed at its
// deadline. That is how a vendor CLI's own start-up hang shows: opencode
// 1.18's `opencode run` sometimes never creates its session, or waits for
// a session-idle event it missed (upstream anomalyco/opencode issues
// #38723 and #27371). moot handles it as it must (the timeout, the
// process group killed: the hang case of TestCLIFailureModes proves it);
// only the test's wish for an answer is defeated.
func startupHang(r *cliRun, timeout time.Duration) bool {
	return r.res.Failure == FailTimeout && r.took >= timeout &&
		r.out.Len() == 0 && r.err.Len() == 0 && r.deltas.Len() == 0
}

// cliCallAnswered makes a call that must end on its own (an answer or the
// CLI's own error), each attempt against a fresh fake provider that mode
// sets up, with timeout per attempt. An attempt that hung at start-up
// (startupHang) is checked for what every call must leave, logged and
// made once more; any other outcome is the result. The total stays
// bounded: two attempts at most.
func cliCallAnswered(t *testing.T, kind Kind, mode fakeprovider.Mode, timeout time.Duration) (*cliRun, *fakeprovider.Server) {
	t.Helper()
	return cliCallAnsweredSpec(t, kind, nil, mode, timeout)
}

// cliCallAnsweredSpec is cliCallAnswered with the CLI's spec replaced by
// spec (nil keeps the kind's own).
func cliCallAnsweredSpec(t *testing.T, kind Kind, spec *cliSpec, mode fakeprovider.Mode, timeout time.Duration) (*cliRun, *fakeprovider.Server) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		srv := fakeprovider.New()
		t.Cleanup(srv.Close)
		srv.SetMode(mode)
		run := cliCallSpec(t, kind, spec, srv, cliPrompt, timeout)
		if attempt == 2 || !startupHang(run, timeout) {
			return run, srv
		}
		run.checkClean(t)
		t.Logf("%s printed nothing in %s and was killed at its deadline (%d model requests): the vendor CLI's start-up hang "+
			"(for opencode, upstream anomalyco/opencode issues #38723 and #27371); trying once more", kind, run.took.Round(time.Second), srv.Calls())
	}
}

func TestCLIHappyCall(t *testing.T) {
	t.Parallel() // the real CLIs share cliSlots across these tests
	for _, kind := range cliKinds {
		t.Run(string(kind), func(t *testing.T) {
			needCLI(t, kind)
			t.Parallel()
			run, srv := cliCallAnswered(t, kind, fakeprovider.OK, cliDeadline)
			res := run.res
			if statusOf(res) != "ok" {
				t.Fatalf("status %s (%s), want ok\nstdout: %.2000s\nstderr: %.2000s", statusOf(res), res.Err, run.out.String(), run.err.String())
			}
			want := strings.TrimSpace(fakeanswer.Reply(cliPrompt, "solver"))
			if got := strings.TrimSpace(res.Body); got != want {
				t.Errorf("body:\n%s\nwant:\n%s", got, want)
			}
			if !strings.Contains(run.deltas.String(), "## ") {
				t.Errorf("the live output did not carry the answer: %q", run.deltas.String())
			}
			if res.TokensIn < srv.TokensIn || res.TokensOut != srv.TokensOut {
				t.Errorf("tokens %d in / %d out, want ≥%d / %d as the server reported", res.TokensIn, res.TokensOut, srv.TokensIn, srv.TokensOut)
			}
			// the key of api_key_env reached the server, and the prompt whole
			sawKey, sawPrompt := false, false
			for _, r := range srv.Requests() {
				for _, h := range []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key"} {
					sawKey = sawKey || strings.Contains(r.Header.Get(h), plantedKey)
				}
				sawPrompt = sawPrompt || strings.Contains(r.Prompt, "Você é agente-1")
			}
			if !sawKey {
				t.Errorf("the server never received the key of api_key_env")
			}
			if !sawPrompt {
				t.Errorf("the server never received the prompt")
			}
			run.checkClean(t)
		})
	}
}

func TestCLIFailureModes(t *testing.T) {
	t.Parallel() // the real CLIs share cliSlots across these tests
	cases := []struct {
		mode    fakeprovider.Mode
		status  string
		failure Failure
		timeout time.Duration
	}{
		{fakeprovider.Unauthorized, "error", FailEngine, cliDeadline},
		{fakeprovider.RateLimited, "error", FailTransport, cliDeadline},
		{fakeprovider.ServerError, "error", FailTransport, cliDeadline},
		{fakeprovider.Hang, "timeout", FailTimeout, 15 * time.Second},
		{fakeprovider.Stall, "timeout", FailTimeout, 15 * time.Second},
	}
	for _, kind := range cliKinds {
		for _, c := range cases {
			t.Run(string(kind)+"/"+string(c.mode), func(t *testing.T) {
				needCLI(t, kind)
				t.Parallel()
				if kind == KindQwen && c.failure == FailTransport {
					// qwen retries a 429 or 5xx seven times with backoff (about
					// 80-110 s) and has no switch to stop it: give it the time
					// to give up, so its own error is what is classified
					c.timeout = 4 * time.Minute
				}
				var run *cliRun
				if c.failure == FailTimeout {
					// a timeout is the outcome wanted: never tried again
					srv := fakeprovider.New()
					defer srv.Close()
					srv.SetMode(c.mode)
					run = cliCall(t, kind, srv, cliPrompt, c.timeout)
				} else {
					run, _ = cliCallAnswered(t, kind, c.mode, c.timeout)
				}
				if statusOf(run.res) != c.status || run.res.Failure != c.failure {
					t.Errorf("status %s / failure %s (%s), want %s / %s\nstdout: %.1500s\nstderr: %.1500s",
						statusOf(run.res), run.res.Failure, run.res.Err, c.status, c.failure, run.out.String(), run.err.String())
				}
				if run.res.Err == "" {
					t.Error("a failed call must say why")
				}
				// the deadline holds: the call ends by its timeout plus the
				// grace between SIGTERM and SIGKILL (and a margin for a
				// loaded machine)
				if limit := c.timeout + time.Second + 10*time.Second; run.took > limit {
					t.Errorf("the call took %s, past its deadline (%s)", run.took, limit)
				}
				run.checkClean(t)
			})
		}
	}
}

// TestCLIReadOnly has the fake model ask each CLI to write a file and run a
// shell command that creates another; neither may exist afterwards.
func TestCLIReadOnly(t *testing.T) {
	t.Parallel() // the real CLIs share cliSlots across these tests
	for _, kind := range cliKinds {
		t.Run(string(kind), func(t *testing.T) {
			needCLI(t, kind)
			t.Parallel()
			run, srv := cliCallAnswered(t, kind, fakeprovider.Tool, cliDeadline)
			if len(run.files) > 0 {
				t.Fatalf("the model's write or shell request left files behind: %v", run.files)
			}
			asked := false
			for _, r := range srv.Requests() {
				asked = asked || r.Method == "POST"
			}
			if !asked {
				t.Fatal("the CLI never called the model")
			}
			run.checkClean(t)
			t.Logf("%s: %d write/shell attempts refused; status %s (%s)", kind, srv.Attacks(), statusOf(run.res), run.res.Err)
		})
	}
}

// TestCLIReadOnlyControl is the positive control of TestCLIReadOnly: with
// the read-only setting swapped for a permissive one, the same fake model
// request does leave a file, so the check above can fail.
func TestCLIReadOnlyControl(t *testing.T) {
	t.Parallel() // the real CLIs share cliSlots across these tests
	permissive := map[Kind]func(*cliSpec){
		KindCodex:  swapArg("read-only", "danger-full-access"),
		KindGemini: swapArg("plan", "yolo"),
		KindQwen:   swapArg("plan", "yolo"),
		KindOpencode: func(s *cliSpec) {
			setup := s.setup
			s.setup = func(c *callSetup) error {
				err := setup(c)
				c.setenv("OPENCODE_PERMISSION", `{"edit":"allow","bash":"allow"}`)
				return err
			}
		},
	}
	for kind, loosen := range permissive {
		t.Run(string(kind), func(t *testing.T) {
			needCLI(t, kind)
			t.Parallel()
			spec := *specs[kind]
			loosen(&spec)
			run, _ := cliCallAnsweredSpec(t, kind, &spec, fakeprovider.Tool, cliDeadline)
			if len(run.files) == 0 {
				t.Fatalf("with a permissive mode the fake model's requests left no file (status %s, %s): the read-only test could not detect a write", statusOf(run.res), run.res.Err)
			}
		})
	}
}

// swapArg loosens a CLI by replacing one of its arguments.
func swapArg(from, to string) func(*cliSpec) {
	return func(s *cliSpec) {
		args := s.args
		s.args = func(c *callSetup) []string {
			out := args(c)
			for i, x := range out {
				if x == from {
					out[i] = to
				}
			}
			return out
		}
	}
}

// TestCLIProbe probes each real CLI: with a key it passes, reporting the
// version and the non-interactive flags; with no key and no stored
// credentials (an empty HOME) it fails, saying which variable to set.
func TestCLIProbe(t *testing.T) {
	for _, kind := range cliKinds {
		t.Run(string(kind), func(t *testing.T) {
			needCLI(t, kind)
			srv := fakeprovider.New()
			defer srv.Close()
			e := cliEntry(kind, srv, "probe")
			ok := Probe(context.Background(), e, Options{})
			if !ok.OK || !ok.NonInteractive || !regexp.MustCompile(`\d+\.\d+\.\d+`).MatchString(ok.Version) || !strings.Contains(ok.Auth, "MOOT_TEST_KEY") {
				t.Errorf("with a key: %+v", ok)
			}
			t.Setenv("HOME", t.TempDir())
			t.Setenv("XDG_DATA_HOME", "")
			for _, k := range specs[kind].keyVars {
				t.Setenv(k, "")
			}
			bare := &EngineConfig{Name: string(kind), Kind: kind, External: true, ProjectAccess: "none"}
			r := Probe(context.Background(), bare, Options{})
			if r.OK || !strings.Contains(r.Why(), "set "+specs[kind].keyVars[0]) {
				t.Errorf("without credentials: %+v", r)
			}
			t.Logf("%s %s: without credentials: %s", kind, ok.Version, r.Why())
		})
	}
}
