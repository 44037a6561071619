package bugfolder_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

// BenchmarkPastCostRecords10000: what a plan pays to learn from a
// 10,000-bug register (every bug folder listed, every final answer's
// front matter read).
func BenchmarkPastCostRecords10000(b *testing.B) {
	dir := filepath.Join(os.TempDir(), "moot-bench-10000")
	if _, err := os.Stat(filepath.Join(dir, "done")); err != nil {
		os.RemoveAll(dir)
		if err := testutil.GenerateRegister(dir, 10000); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "done"), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	reg, err := bugfolder.FindRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bugfolder.PastCostRecords(reg)
	}
}

// BenchmarkBugDirs10000 is the floor PastCostRecords10000 stands on:
// listing the bug folders alone.
func BenchmarkBugDirs10000(b *testing.B) {
	reg, err := bugfolder.FindRoot(filepath.Join(os.TempDir(), "moot-bench-10000"))
	if err != nil {
		b.Skip("run BenchmarkPastCostRecords10000 first")
	}
	for i := 0; i < b.N; i++ {
		bugfolder.BugDirs(reg)
	}
}
