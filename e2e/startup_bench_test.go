package e2e

import (
	"bytes"
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

	"github.com/reversa/moot/internal/testutil"
)

// BenchmarkStartup: the process time (user + system, from the child's
// rusage) of the real binary running `moot version`, `moot help` and
// `moot list` on the small sample register. One op runs each once.
// Target: ≤ 15 ms each (ms-cpu-version, ms-cpu-help, ms-cpu-list).
//
// Three figures say what the machine and the dependencies put under that:
// ms-cpu-floor is an empty Go program's process time on the same machine
// (what any Go binary pays to start); ms-cpu-glamour a program that only
// links the Markdown renderer; ms-cpu-deps a program that links every
// package moot links outside its own module and does nothing (moot ÷ it is
// what moot's own code costs at start, it ÷ the renderer's floor what the
// other dependencies cost); and ms-init / ms-init-chroma are the
// package initialisers' clock time in `moot version` (GODEBUG=inittrace=1)
// and the share of it that is the syntax highlighter's (chroma, imported by
// glamour: its lexers and styles parse their embedded XML in package init,
// which runs before main and cannot be deferred).
func BenchmarkStartup(b *testing.B) {
	dir := testutil.CopyTree(b, "sample")
	home := b.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home)
	empty := buildEmptyProgram(b)
	glamourFloor := buildGlamourFloor(b)
	depsFloor := buildDepsFloor(b)
	cmds := []struct {
		unit string
		argv []string
	}{
		{"ms-cpu-version", []string{mootBin, "version"}},
		{"ms-cpu-help", []string{mootBin, "help"}},
		{"ms-cpu-list", []string{mootBin, "list"}},
		{"ms-cpu-floor", []string{empty}},
		{"ms-cpu-glamour", []string{glamourFloor}},
		{"ms-cpu-deps", []string{depsFloor}},
	}
	cpu := make([]time.Duration, len(cmds))
	run := func(i int) time.Duration {
		c := exec.Command(cmds[i].argv[0], cmds[i].argv[1:]...)
		c.Dir, c.Env = dir, env
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", cmds[i].argv, err, out)
		}
		ru := c.ProcessState.SysUsage().(*syscall.Rusage)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for i := range cmds {
		run(i) // the binary in the page cache
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for i := range cmds {
			cpu[i] += run(i)
		}
	}
	for i, c := range cmds {
		b.ReportMetric(float64(cpu[i].Microseconds())/float64(b.N)/1000, c.unit)
	}
	b.StopTimer()
	all, chroma := initClock(b, env, dir)
	b.ReportMetric(all, "ms-init")
	b.ReportMetric(chroma, "ms-init-chroma")
}

// buildEmptyProgram builds a Go program whose main does nothing: the
// floor of a Go binary's process time on this machine.
func buildEmptyProgram(b *testing.B) string {
	b.Helper()
	src := b.TempDir()
	files := map[string]string{
		"go.mod":  "module empty\n\ngo 1.26\n",
		"main.go": "package main\n\nfunc main() {}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	bin := filepath.Join(b.TempDir(), "empty")
	c := exec.Command("go", "build", "-o", bin, ".")
	c.Dir = src
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("build the empty program: %v\n%s", err, out)
	}
	return bin
}

// buildGlamourFloor builds e2e/testdata/glamourfloor as moot is built
// (static, the module's versions): a program that only links the
// Markdown renderer, the floor of `moot version`.
func buildGlamourFloor(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "glamourfloor")
	c := exec.Command("go", "build", "-o", bin, "./e2e/testdata/glamourfloor")
	c.Dir = ".."
	c.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("build the renderer's floor: %v\n%s", err, out)
	}
	return bin
}

// depsFloorDir is where the dependencies' floor's main.go appears to be,
// inside the module (so it links the module's versions), through the
// build's -overlay: nothing is written into the repository.
const depsFloorDir = "e2e/testdata/depsfloor"

// buildDepsFloor builds, as moot is built, a program whose main is empty
// and which blank-imports every package moot links from outside the
// module (`go list -deps .` less github.com/reversa/moot/... and the
// packages no other module may import, which their importers link
// anyway): its start is what moot's dependencies cost, moot's own code
// and initialisers left out.
func buildDepsFloor(b *testing.B) string {
	b.Helper()
	env := append(os.Environ(), "CGO_ENABLED=0")
	c := exec.Command("go", "list", "-deps", ".")
	c.Dir, c.Env = "..", env
	out, err := c.Output()
	if err != nil {
		b.Fatalf("go list -deps: %v", err)
	}
	src := depsFloorSource(strings.Fields(string(out)))
	tmp := b.TempDir()
	main := filepath.Join(tmp, "main.go")
	if err := os.WriteFile(main, []byte(src), 0o600); err != nil {
		b.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	overlay, err := json.Marshal(map[string]map[string]string{
		"Replace": {filepath.Join(root, depsFloorDir, "main.go"): main},
	})
	if err != nil {
		b.Fatal(err)
	}
	overlayFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o600); err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "depsfloor")
	c = exec.Command("go", "build", "-overlay", overlayFile, "-o", bin, "./"+depsFloorDir)
	c.Dir, c.Env = "..", env
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("build the dependencies' floor: %v\n%s", err, out)
	}
	return bin
}

// depsFloorSource is the dependencies' floor's main.go: a blank import of
// every package in deps that is not moot's and that another module may
// import (not internal, not the standard library's vendored copies).
func depsFloorSource(deps []string) string {
	var s strings.Builder
	s.WriteString("// Code generated by BenchmarkStartup; DO NOT EDIT.\n\npackage main\n\nimport (\n")
	for _, pkg := range deps {
		if pkg == "github.com/reversa/moot" || strings.HasPrefix(pkg, "github.com/reversa/moot/") ||
			strings.HasPrefix(pkg, "vendor/") || slices.Contains(strings.Split(pkg, "/"), "internal") {
			continue
		}
		fmt.Fprintf(&s, "\t_ %q\n", pkg)
	}
	s.WriteString(")\n\nfunc main() {}\n")
	return s.String()
}

// initClock runs `moot version` with GODEBUG=inittrace=1 a few times and
// returns the mean clock time, in ms, of all package initialisers and of
// chroma's (github.com/alecthomas/chroma/...).
func initClock(b *testing.B, env []string, dir string) (all, chroma float64) {
	const runs = 5
	for range runs {
		c := exec.Command(mootBin, "version")
		c.Dir, c.Env = dir, append(slices.Clone(env), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		c.Stderr = &stderr
		if err := c.Run(); err != nil {
			b.Fatalf("moot version: %v\n%s", err, stderr.String())
		}
		for _, line := range strings.Split(stderr.String(), "\n") {
			// init PKG @T ms, C ms clock, B bytes, A allocs
			f := strings.Fields(line)
			if len(f) < 7 || f[0] != "init" || f[6] != "clock," {
				continue
			}
			ms, err := strconv.ParseFloat(f[4], 64)
			if err != nil {
				continue
			}
			all += ms
			if strings.HasPrefix(f[1], "github.com/alecthomas/chroma/") {
				chroma += ms
			}
		}
	}
	return all / runs, chroma / runs
}
