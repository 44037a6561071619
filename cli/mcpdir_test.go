package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// moot mcp --dir on a folder that is not there is bad usage at once: it
// used to serve, and every tool then failed with "fork/exec …/moot: no
// such file or directory", blaming the binary for the missing folder.
func TestMCPRefusesADirThatIsNotAFolder(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-project")
	code, _, stderr := moot(t, dir, "mcp", "--dir", missing)
	if code != ExitUsage || !strings.Contains(stderr, "--dir "+missing+": not a folder") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
