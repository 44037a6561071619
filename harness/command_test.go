package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reversa/moot/internal/testutil"
)

var fakeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "moot-harness-")
	if err != nil {
		panic(err)
	}
	fakeBin = filepath.Join(dir, "fakeengine")
	cmd := exec.Command("go", "build", "-o", fakeBin, "./internal/fakeengine")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build fakeengine: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fakeCall runs the fake engine through the command adapter with one
// behaviour and returns the result, the raw streams and the pids it started.
func fakeCall(t *testing.T, behaviour string, timeout time.Duration, argv ...string) (Result, *bytes.Buffer, *bytes.Buffer, []int, time.Duration) {
	t.Helper()
	dir := t.TempDir()
	log, pids := filepath.Join(dir, "log"), filepath.Join(dir, "pids")
	if len(argv) == 0 {
		argv = []string{fakeBin}
	}
	e := &EngineConfig{Name: "fake", Kind: KindCommand, Command: argv, Env: map[string]string{
		"FAKE_PLAN": "*=" + behaviour, "FAKE_LOG": log, "FAKE_PIDS": pids,
	}}
	a, err := New(e, Options{Grace: 500 * time.Millisecond, OutputCap: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	start := time.Now()
	res := a.Call(context.Background(), Request{Role: "solver", SolverID: "agente-1", Prompt: "Você é agente-1\nModo: diagnosis: x\n", Timeout: timeout, Stdout: &out, Stderr: &errb})
	took := time.Since(start)
	var started []int
	b, _ := os.ReadFile(log)
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 6 && f[0] == "start" {
			pid, _ := strconv.Atoi(f[5])
			started = append(started, pid)
		}
	}
	b, _ = os.ReadFile(pids)
	for _, l := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(l)
		started = append(started, pid)
	}
	return res, &out, &errb, started, took
}

// noneLeft fails if any of the pids (or their process groups) still runs.
func noneLeft(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		deadline := time.Now().Add(2 * time.Second)
		for testutil.ProcessRunning(pid) {
			if time.Now().After(deadline) {
				t.Errorf("process %d is still running after the call", pid)
				syscall.Kill(pid, syscall.SIGKILL)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestFaultMatrix: one row per way a command engine can misbehave.
func TestFaultMatrix(t *testing.T) {
	// a round's remainder, not a round figure: messages print it rounded (1.5s)
	const timeout = 1500*time.Millisecond - 1234567
	const bound = timeout + 500*time.Millisecond + 3*time.Second // timeout + grace + slack for a loaded machine
	tests := []struct {
		name      string
		behaviour string
		argv      []string
		status    string
		failure   Failure
		check     func(t *testing.T, r Result, out, errb *bytes.Buffer)
	}{
		{"cannot start", "ok", []string{"/nonexistent/llm"}, "error", FailStart, func(t *testing.T, r Result, _, _ *bytes.Buffer) {
			if !strings.Contains(r.Err, "cannot start") {
				t.Errorf("err %q", r.Err)
			}
		}},
		{"exit 127", "notfound", nil, "error", FailStart, func(t *testing.T, r Result, _, errb *bytes.Buffer) {
			if !strings.Contains(r.Err, "127") || *r.ExitCode != 127 || !strings.Contains(errb.String(), "command not found") {
				t.Errorf("err %q", r.Err)
			}
		}},
		{"exit 1", "fail", nil, "error", FailEngine, func(t *testing.T, r Result, _, errb *bytes.Buffer) {
			if r.Err != "exit 1: fake: model overloaded, giving up" || !strings.Contains(errb.String(), "overloaded") {
				t.Errorf("err %q", r.Err)
			}
		}},
		{"hangs with no output", "hang", nil, "timeout", FailTimeout, func(t *testing.T, r Result, out, _ *bytes.Buffer) {
			if out.Len() != 0 || !strings.Contains(r.Err, "no answer within 1.5s") {
				t.Errorf("err %q out %q", r.Err, out)
			}
		}},
		{"prints garbage", "garbage", nil, "ok", FailNone, func(t *testing.T, r Result, out, _ *bytes.Buffer) {
			if !bytes.Equal(out.Bytes(), []byte{0xff, 0xfe, 0x00, 0x01, 'x', 0x80, 0x81}) || r.Body != out.String() {
				t.Errorf("raw %q body %q", out, r.Body)
			}
		}},
		{"prints 100 MB", "flood:100", nil, "error", FailEngine, func(t *testing.T, r Result, out, _ *bytes.Buffer) {
			if !r.Truncated || out.Len() != 1<<20 || len(r.Body) > 1<<20 || !strings.Contains(r.Err, "cap") {
				t.Errorf("truncated %v raw %d body %d err %q", r.Truncated, out.Len(), len(r.Body), r.Err)
			}
		}},
		{"half an answer, then crashes", "crash", nil, "error", FailEngine, func(t *testing.T, r Result, out, _ *bytes.Buffer) {
			if !strings.Contains(r.Body, "## Hipóteses") || strings.Contains(r.Body, "## Confiança") || !strings.Contains(r.Err, "killed by signal") || out.String() != r.Body {
				t.Errorf("body %q err %q", r.Body, r.Err)
			}
		}},
		{"starts slowly", "startslow:600", nil, "ok", FailNone, func(t *testing.T, r Result, _, _ *bytes.Buffer) {
			if !strings.Contains(r.Body, "## Confiança") {
				t.Errorf("body %q", r.Body)
			}
		}},
		{"closes stdout early and keeps running", "closeout", nil, "timeout", FailTimeout, func(t *testing.T, r Result, out, _ *bytes.Buffer) {
			if out.Len() != 20 {
				t.Errorf("raw %q", out)
			}
		}},
		{"ignores SIGTERM", "ignoreterm", nil, "timeout", FailTimeout, nil},
		{"spawns a grandchild that keeps running", "grandchild", nil, "ok", FailNone, func(t *testing.T, r Result, _, _ *bytes.Buffer) {
			if !strings.Contains(r.Body, "## Confiança") {
				t.Errorf("body %q", r.Body)
			}
		}},
		{"writes only to stderr", "stderr", nil, "ok", FailNone, func(t *testing.T, r Result, out, errb *bytes.Buffer) {
			if r.Body != "" || out.Len() != 0 || !strings.Contains(errb.String(), "all my output went to stderr") {
				t.Errorf("body %q stderr %q", r.Body, errb)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, out, errb, pids, took := fakeCall(t, tt.behaviour, timeout, tt.argv...)
			if statusOf(res) != tt.status || res.Failure != tt.failure {
				t.Errorf("status %s failure %s, want %s %s (err %q)", statusOf(res), res.Failure, tt.status, tt.failure, res.Err)
			}
			if took > bound {
				t.Errorf("the call took %s, more than the timeout plus grace (%s)", took, bound)
			}
			if tt.check != nil {
				tt.check(t, res, out, errb)
			}
			if tt.behaviour == "grandchild" && len(pids) < 2 {
				t.Fatalf("the grandchild's pid was not recorded: %v", pids)
			}
			noneLeft(t, pids)
		})
	}
}

// TestOutputIsBoundedInMemory: 100 MB of output costs about the cap, not
// 100 MB, in moot's memory.
func TestOutputIsBoundedInMemory(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, _, _, pids, _ := fakeCall(t, "flood:100", 30*time.Second)
	runtime.ReadMemStats(&after)
	noneLeft(t, pids)
	if !res.Truncated {
		t.Fatal("not truncated")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("allocated %d MiB to read 100 MB with a 1 MiB cap", alloc>>20)
	}
}

func TestPlaceholdersAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "echo.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho \"args=$*\"\necho \"env=$MOOT_ROLE $MOOT_SOLVER_ID $MOOT_ROUND $MOOT_BUG_ID $MOOT_MODE $MY_FLAG $HOME_KEPT\"\necho \"cwd=$(pwd)\"\nenv\nls\ncat\n"), 0o755)
	t.Setenv("HOME_KEPT", "inherited")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-not-for-engines")
	// by default a command engine gets a minimal environment
	e := &EngineConfig{Name: "x", Kind: KindCommand, Command: []string{"./echo.sh", "{role}", "{solver_id}", "{round}", "{bug_id}", "{mode}"}, Env: map[string]string{"MY_FLAG": "on"}}
	a, _ := New(e, Options{ConfigDir: dir})
	min := a.Call(context.Background(), Request{Role: "critic", SolverID: "critic-1", Round: 2, BugID: "BUG-1", Mode: "spec", Prompt: "the prompt", Timeout: 5 * time.Second})
	if !strings.Contains(min.Body, "env=critic critic-1 2 BUG-1 spec on \n") {
		t.Errorf("a variable outside the minimal environment reached the engine:\n%s", min.Body)
	}
	// env_passthrough widens it
	e.EnvPassthrough = []string{"HOME_*"}
	a, _ = New(e, Options{ConfigDir: dir})
	res := a.Call(context.Background(), Request{Role: "critic", SolverID: "critic-1", Round: 2, BugID: "BUG-1", Mode: "spec", Prompt: "the prompt", P: "P text", Timeout: 5 * time.Second})
	if strings.Contains(res.Body+min.Body, "AWS_SECRET_ACCESS_KEY=") {
		t.Error("a cloud credential of moot's environment reached a command engine")
	}
	for _, want := range []string{"args=critic critic-1 2 BUG-1 spec", "env=critic critic-1 2 BUG-1 spec on inherited", "P.md", "the prompt"} {
		if !strings.Contains(res.Body, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Body)
		}
	}
	// the call runs in a scratch folder, removed afterwards (off the
	// call's path: moot waits for the removals before it exits)
	WaitRemovals()
	for _, l := range strings.Split(res.Body, "\n") {
		if cwd, ok := strings.CutPrefix(l, "cwd="); ok {
			if strings.HasPrefix(cwd, dir) {
				t.Error("the command ran in the project, not a scratch folder")
			}
			if _, err := os.Stat(cwd); !os.IsNotExist(err) {
				t.Error("the scratch folder was not removed")
			}
		}
	}
}

func TestInterruptKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	e := &EngineConfig{Name: "f", Kind: KindCommand, Command: []string{fakeBin}, Env: map[string]string{"FAKE_PLAN": "*=ignoreterm", "FAKE_LOG": log}}
	a, _ := New(e, Options{Grace: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result)
	go func() {
		done <- a.Call(ctx, Request{Role: "solver", SolverID: "agente-1", Timeout: time.Hour})
	}()
	var pid int
	deadline := time.Now().Add(10 * time.Second)
	for pid == 0 && time.Now().Before(deadline) {
		b, _ := os.ReadFile(log)
		if f := strings.Fields(string(b)); len(f) >= 6 {
			pid, _ = strconv.Atoi(f[5])
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	res := <-done
	if !strings.Contains(res.Err, "interrupted") {
		t.Errorf("err %q", res.Err)
	}
	noneLeft(t, []int{pid})
}

func TestStreamingDeltasKeepUTF8(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.sh")
	// "çã" split across writes at a byte boundary
	os.WriteFile(script, []byte("#!/bin/sh\nprintf 'a\\303'\nsleep 0.1\nprintf '\\247\\303\\243b'\n"), 0o755)
	a, _ := New(&EngineConfig{Name: "s", Kind: KindCommand, Command: []string{script}}, Options{})
	var deltas []string
	res := a.Call(context.Background(), Request{Timeout: 5 * time.Second, OnOutput: func(d string) { deltas = append(deltas, d) }})
	if res.Body != "açãb" {
		t.Fatalf("body %q", res.Body)
	}
	for _, d := range deltas {
		if !strings.ContainsRune(d, 'a') && !strings.ContainsRune(d, 'ç') && !strings.ContainsRune(d, 'b') || !utf8Valid(d) {
			t.Errorf("delta %q splits a character", d)
		}
	}
	if strings.Join(deltas, "") != "açãb" {
		t.Errorf("deltas %q", deltas)
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// BenchmarkFlood100MB: one engine streaming 100 MB, with the default 8 MiB
// cap. Reports what moot allocates and how much raw output it keeps.
func BenchmarkFlood100MB(b *testing.B) {
	dir := b.TempDir()
	e := &EngineConfig{Name: "fake", Kind: KindCommand, Command: []string{fakeBin}, Env: map[string]string{"FAKE_PLAN": "*=flood:100"}}
	a, err := New(e, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	var kept int64
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < b.N; i++ {
		f, _ := os.Create(filepath.Join(dir, "raw"))
		res := a.Call(context.Background(), Request{Role: "solver", SolverID: "agente-1", Timeout: time.Minute, Stdout: f})
		fi, _ := f.Stat()
		kept = fi.Size()
		f.Close()
		if !res.Truncated {
			b.Fatal("not truncated")
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "MiB-alloc/op")
	b.ReportMetric(float64(kept)/(1<<20), "MiB-raw-kept")
}
