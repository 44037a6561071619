package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reversa/moot/internal/refmoot"
	"github.com/reversa/moot/internal/testutil"
)

// benchProject is a copy of the sample register whose one engine, a,
// runs the fake with FAKE_DELAY_MS; it is trusted.
type benchProject struct {
	b   *testing.B
	dir string
	env []string
}

func newBenchProject(b *testing.B, delayMS int) *benchProject {
	b.Helper()
	p := &benchProject{b: b, dir: testutil.CopyTree(b, "sample")}
	p.env = append(os.Environ(), "FAKE_DELAY_MS="+strconv.Itoa(delayMS),
		"XDG_CONFIG_HOME="+filepath.Join(p.dir, ".xdg"), "XDG_CACHE_HOME="+filepath.Join(p.dir, ".cache"), "NO_COLOR=1")
	cfg := "engines:\n  a:\n    kind: command\n    command: [\"" + fakeBin + "\"]\n    env_passthrough: [\"FAKE_*\"]\n    external: false\n    timeout: 120s\ndefaults:\n  solver: a\n  judge: a\n"
	if err := os.WriteFile(filepath.Join(p.dir, "_reversa_bugs", "moot.yaml"), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	if _, err := p.run(nil, "trust"); err != nil {
		b.Fatal(err)
	}
	return p
}

// run runs moot to its end and returns its resource use.
func (p *benchProject) run(extraEnv []string, args ...string) (*syscall.Rusage, error) {
	ru, _, err := p.runWatched(extraEnv, args...)
	return ru, err
}

// runWatched is run that also returns moot's own peak RSS in bytes (its
// VmHWM, read until it exits: the rusage's maxrss would be its engine
// processes' when one of them is larger).
func (p *benchProject) runWatched(extraEnv []string, args ...string) (*syscall.Rusage, int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, mootBin, args...)
	c.Dir = p.dir
	c.Env = append(slices.Clone(p.env), extraEnv...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		return nil, 0, err
	}
	done := make(chan struct{})
	peak := make(chan int64, 1)
	go func() {
		var hwm int64
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			hwm = max(hwm, vmHWM(c.Process.Pid))
			select {
			case <-done:
				peak <- hwm
				return
			case <-tick.C:
			}
		}
	}()
	err := c.Wait()
	close(done)
	hwm := <-peak
	if err != nil {
		return nil, 0, fmt.Errorf("moot %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return c.ProcessState.SysUsage().(*syscall.Rusage), hwm, nil
}

// vmHWM is a live process's peak resident set, in bytes (0 once gone).
func vmHWM(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// debateArgs is `moot run 7` headless for an n×r debate.
func debateArgs(n, r int) []string {
	return []string{"run", "7", "--mode", "diagnosis", "-n", strconv.Itoa(n), "-r", strconv.Itoa(r), "--yes", "--headless"}
}

// calibrate runs the debate once with the fake recording its calls and
// prompts, and returns the same calls as the reference's stages: one per
// (round, role), in the order they started.
func (p *benchProject) calibrate(n, r int) [][]refmoot.Call {
	p.b.Helper()
	log, prompts := filepath.Join(p.b.TempDir(), "fake.log"), p.b.TempDir()
	if _, err := p.run([]string{"FAKE_LOG=" + log, "FAKE_PROMPTS=" + prompts}, debateArgs(n, r)...); err != nil {
		p.b.Fatal(err)
	}
	f, err := os.Open(log)
	if err != nil {
		p.b.Fatal(err)
	}
	defer f.Close()
	var stages [][]refmoot.Call
	index := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text()) // start role id round attempt pid
		if len(w) < 6 || w[0] != "start" {
			continue
		}
		round, _ := strconv.Atoi(w[3])
		prompt, err := os.ReadFile(filepath.Join(prompts, w[3]+"-"+w[2]+"-"+w[4]+".txt"))
		if err != nil {
			p.b.Fatal(err)
		}
		key := w[3] + " " + w[1]
		i, ok := index[key]
		if !ok {
			i = len(stages)
			index[key] = i
			stages = append(stages, nil)
		}
		stages[i] = append(stages[i], refmoot.Call{Round: round, Role: w[1], ID: w[2], Prompt: prompt})
	}
	return stages
}

// cpu is a process's user plus system time.
func cpu(ru *syscall.Rusage) time.Duration {
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchEndToEnd runs the real binary headless (process start and exit
// included) and the reference orchestrator on the same engine, prompts
// and stages, one after the other in each op: the reference started as
// its own process (internal/refmoot/cmd, built once like moot: it reads
// the run's JSON, every prompt in it, then runs it), the comparison the
// target names, and the reference run inside this process (no process
// start, no run file to read), the older figure. It reports the medians
// over the ops of moot ÷ each reference and of moot's own time per call
// and per stage (moot's wall less the reference process's).
func benchEndToEnd(b *testing.B, n, r, delayMS int) {
	p := newBenchProject(b, delayMS)
	refBin := buildRefmoot(b)
	stages := p.calibrate(n, r)
	calls := 0
	for _, s := range stages {
		calls += len(s)
	}
	var mootWall, refWall, inWall, ownCPU []float64
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runFile := writeRefRun(b, refmoot.Config{Argv: []string{fakeBin}, Env: p.env, Dir: filepath.Join(b.TempDir(), "ref"), Stages: stages})
		b.StartTimer()
		syscall.Sync() // the earlier run's writeback is charged to neither
		start := time.Now()
		ru, err := p.run(nil, debateArgs(n, r)...)
		if err != nil {
			b.Fatal(err)
		}
		mootWall = append(mootWall, ms(time.Since(start)))
		syscall.Sync()
		start = time.Now()
		c := exec.Command(refBin, runFile)
		c.Env = p.env
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("the reference process: %v\n%s", err, out)
		}
		refWall = append(refWall, ms(time.Since(start)))
		syscall.Sync()
		var before, after syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &before)
		start = time.Now()
		err = refmoot.Run(context.Background(), refmoot.Config{Argv: []string{fakeBin}, Env: p.env, Dir: filepath.Join(b.TempDir(), "ref"), Stages: stages})
		if err != nil {
			b.Fatal(err)
		}
		inWall = append(inWall, ms(time.Since(start)))
		_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &after)
		// moot's rusage counts the engine processes it waited for: less
		// theirs (the same calls under the in-process reference) it is
		// moot's own CPU time
		ownCPU = append(ownCPU, ms(cpu(ru)-(cpu(&after)-cpu(&before))))
	}
	ratio := func(num, den []float64) float64 {
		q := make([]float64, len(num))
		for i := range num {
			q[i] = num[i] / den[i]
		}
		return median(q)
	}
	own := median(mootWall) - median(refWall)
	b.ReportMetric(ratio(mootWall, refWall), "moot/ref")
	b.ReportMetric(ratio(mootWall, inWall), "moot/ref-inproc")
	b.ReportMetric(median(mootWall), "ms-moot")
	b.ReportMetric(median(refWall), "ms-ref")
	b.ReportMetric(median(inWall), "ms-ref-inproc")
	b.ReportMetric(own/float64(calls), "ms-own/call")
	b.ReportMetric(own/float64(len(stages)), "ms-own/stage")
	b.ReportMetric(median(ownCPU)/float64(calls), "ms-own-cpu/call")
	b.ReportMetric(median(ownCPU)/float64(len(stages)), "ms-own-cpu/stage")
}

// median is the middle value of xs (the mean of the two middle ones).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// buildRefmoot builds the reference orchestrator's command as moot is
// built (static, CGO_ENABLED=0) and returns the binary's path.
func buildRefmoot(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "refmoot")
	c := exec.Command("go", "build", "-o", bin, "./internal/refmoot/cmd")
	c.Dir = ".."
	c.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("build the reference: %v\n%s", err, out)
	}
	return bin
}

// writeRefRun writes cfg as the reference command's run file.
func writeRefRun(b *testing.B, cfg refmoot.Config) string {
	b.Helper()
	data, err := json.Marshal(cfg)
	if err != nil {
		b.Fatal(err)
	}
	name := filepath.Join(b.TempDir(), "run.json")
	if err := os.WriteFile(name, data, 0o600); err != nil {
		b.Fatal(err)
	}
	return name
}

// BenchmarkEndToEnd8: N=8, R=3, an engine of 500 ms. Target: moot ÷
// reference ≤ 1.03, both started as processes.
func BenchmarkEndToEnd8(b *testing.B) { benchEndToEnd(b, 8, 3, 500) }

// BenchmarkEndToEnd16: the largest panel moot runs (N=16, R=3, 500 ms).
// Target: moot ÷ reference ≤ 1.05.
func BenchmarkEndToEnd16(b *testing.B) { benchEndToEnd(b, 16, 3, 500) }

// benchMemory runs a debate of n solvers (R=1, an engine answering at
// once) on the sample bug with sizeMB of generated evidence, and reports
// moot's own peak RSS (VmHWM) and the bytes it wrote (dirtied pages: files
// written, temp files included). The target is ≤ 2×|P| + 64 MB of memory
// and ≤ 2×|P| + the answers written, for any N. What P costs in writes is
// measured as a difference: each op also runs the same debate on the bare
// sample (a P of a few KB), and the difference of the two runs' writes
// (each less its answers) ÷ the evidence added is how many times P reached
// the disk: the event log, the small files and their page rounding are in
// both runs and cancel out.
func benchMemory(b *testing.B, n, sizeMB int) {
	p := newBenchProject(b, 0)
	bare := newBenchProject(b, 0)
	ev := filepath.Join(p.dir, a7k3, "evidence")
	line := strings.Repeat("evidence line of a large log, nothing secret in it ", 2) + "\n"
	for i := range 2 {
		var buf bytes.Buffer
		for buf.Len() < sizeMB<<20/2 {
			buf.WriteString(line)
		}
		if err := os.WriteFile(filepath.Join(ev, fmt.Sprintf("big-%d.log", i)), buf.Bytes(), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	pBytes := float64(sizeMB << 20)
	var rss, written, bareWritten, answers, bareAnswers float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, q := range []*benchProject{p, bare} {
			_ = os.RemoveAll(filepath.Join(q.dir, a7k3, "debate"))
		}
		syscall.Sync() // the earlier run's writeback is charged to neither
		ru, hwm, err := p.runWatched(nil, debateArgs(n, 1)...)
		if err != nil {
			b.Fatal(err)
		}
		rss += float64(hwm)
		written += float64(ru.Oublock) * 512
		answers += answerBytes(b, filepath.Join(p.dir, a7k3, "debate"))
		syscall.Sync()
		ru, _, err = bare.runWatched(nil, debateArgs(n, 1)...)
		if err != nil {
			b.Fatal(err)
		}
		bareWritten += float64(ru.Oublock) * 512
		bareAnswers += answerBytes(b, filepath.Join(bare.dir, a7k3, "debate"))
	}
	k := float64(b.N)
	b.ReportMetric(rss/k/(1<<20), "MiB-peak-rss")
	b.ReportMetric(pBytes/(1<<20), "MiB-P")
	b.ReportMetric((rss/k-2*pBytes)/(1<<20), "MiB-rss-over-2P")
	b.ReportMetric(written/k/(1<<20), "MiB-written")
	b.ReportMetric((written/k-answers/k)/pBytes, "written-less-answers/P")
	b.ReportMetric(((written-answers)-(bareWritten-bareAnswers))/k/pBytes, "P-written")
}

// answerBytes sums the sizes of a debate's answers (the round files, the
// judge's, their raw output): what a debate writes besides P.
func answerBytes(b *testing.B, dir string) float64 {
	var sum int64
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if name == "problema.md" || strings.HasSuffix(name, ".prompt") {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			sum += fi.Size()
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return float64(sum)
}

// BenchmarkMemoryN2 and BenchmarkMemoryN16: 24 MB of evidence.
func BenchmarkMemoryN2(b *testing.B)  { benchMemory(b, 2, 24) }
func BenchmarkMemoryN16(b *testing.B) { benchMemory(b, 16, 24) }
