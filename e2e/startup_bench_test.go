package e2e

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/reversa/moot/internal/testutil"
)

// BenchmarkStartup: the process time (user + system, from the child's
// rusage) of the real binary running `moot version`, `moot help` and
// `moot list` on the small sample register. One op runs each once.
// Target: ≤ 15 ms each (ms-cpu-version, ms-cpu-help, ms-cpu-list).
func BenchmarkStartup(b *testing.B) {
	dir := testutil.CopyTree(b, "sample")
	home := b.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home)
	cmds := []struct {
		unit string
		args []string
	}{
		{"ms-cpu-version", []string{"version"}},
		{"ms-cpu-help", []string{"help"}},
		{"ms-cpu-list", []string{"list"}},
	}
	cpu := make([]time.Duration, len(cmds))
	run := func(i int) time.Duration {
		c := exec.Command(mootBin, cmds[i].args...)
		c.Dir, c.Env = dir, env
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("moot %v: %v\n%s", cmds[i].args, err, out)
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
}
