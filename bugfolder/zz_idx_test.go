package bugfolder_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reversa/moot/bugfolder"
)

func BenchmarkIndex10000(b *testing.B) {
	dir := filepath.Join(os.TempDir(), "moot-bench-10000")
	reg, err := bugfolder.FindRoot(dir)
	if err != nil {
		b.Skip(err)
	}
	dirs, _ := bugfolder.BugDirs(reg)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range dirs {
			if _, err := bugfolder.IndexBug(reg, d); err != nil {
				b.Fatal(err)
			}
		}
	}
}
