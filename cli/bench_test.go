package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/par"
	"github.com/reversa/moot/internal/testutil"
)

// benchRegister is a generated register of 10,000 bugs of a shape, kept in
// the temp folder across runs.
func benchRegister(b *testing.B, shape testutil.Shape) string {
	b.Helper()
	dir, err := testutil.CachedRegister(10000, shape)
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

// listOnce runs `moot list` (or --json) in dir, in process, and returns
// its stdout.
func listOnce(b *testing.B, dir, cache string, args ...string) string {
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, cwd: dir, getenv: func(k string) string {
		switch k {
		case "HOME", "XDG_CONFIG_HOME":
			return dir
		case "XDG_CACHE_HOME":
			return cache
		}
		return os.Getenv(k)
	}}
	if code := run(e, append([]string{"list"}, args...)); code != 0 {
		b.Fatalf("list: exit %d: %s", code, errb.String())
	}
	return out.String()
}

// BenchmarkList10000: `moot list` on 10,000 debates, warm (the page cache
// and moot's summary cache filled by a first run), for each shape: as moot
// records them, and hand-run with final answers lacking the summary
// fields. Target: ≤ 2 s. Reported beside two floors read with the same
// workers: ms-floor-stat lists every folder and stats every file beneath
// the bug folders (what a cache checked against the files cannot avoid),
// ms-floor-read reads every one of those files too (what a listing without
// a cache cannot avoid). The -nocache cases start each run with an empty
// cache.
func BenchmarkList10000(b *testing.B) {
	for _, tc := range []struct {
		name    string
		shape   testutil.Shape
		json    bool
		nocache bool
	}{
		{"recorded", testutil.ShapeRecorded, false, false},
		{"hand", testutil.ShapeHand, false, false},
		{"hand-json", testutil.ShapeHand, true, false},
		{"hand-nocache", testutil.ShapeHand, false, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			dir := benchRegister(b, tc.shape)
			cache := b.TempDir()
			var args []string
			if tc.json {
				args = []string{"--json"}
			}
			if out := listOnce(b, dir, cache, args...); strings.Count(out, "BUG-") < 10000 {
				b.Fatalf("listed %d bugs", strings.Count(out, "BUG-"))
			}
			var list, stat, read time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if tc.nocache {
					b.StopTimer()
					os.RemoveAll(filepath.Join(cache, "moot"))
					b.StartTimer()
				}
				start := time.Now()
				listOnce(b, dir, cache, args...)
				list += time.Since(start)
				stat += floorList(b, dir, false)
				read += floorList(b, dir, true)
			}
			n := float64(b.N)
			b.ReportMetric(float64(list.Milliseconds())/n, "ms-list")
			b.ReportMetric(float64(stat.Milliseconds())/n, "ms-floor-stat")
			b.ReportMetric(float64(read.Milliseconds())/n, "ms-floor-read")
			b.ReportMetric(float64(list)/float64(stat), "list/floor-stat")
			b.ReportMetric(float64(list)/float64(read), "list/floor-read")
		})
	}
}

// floorList is the minimal reader, with the same workers as `moot list`:
// it lists the register's bug folders and every folder beneath each, and
// stats every file there (with read, reads each one as well), parsing
// nothing.
func floorList(b *testing.B, root string, read bool) time.Duration {
	start := time.Now()
	reg, err := bugfolder.OpenRegister(filepath.Join(root, bugfolder.RootName))
	if err != nil {
		b.Fatal(err)
	}
	dirs, _ := bugfolder.BugDirs(reg)
	var n atomic.Int64
	var walk func(dir string)
	walk = func(dir string) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			if e.IsDir() {
				walk(p)
				continue
			}
			if read {
				raw, _ := os.ReadFile(p)
				n.Add(int64(len(raw)))
			} else if _, err := e.Info(); err == nil {
				n.Add(1)
			}
		}
	}
	par.Each(len(dirs), par.Workers(), func(i int) { walk(dirs[i].Dir) })
	if n.Load() == 0 {
		b.Fatal("read nothing")
	}
	return time.Since(start)
}
