package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// CLICache is the folder scripts/install-clis installs the vendor CLIs
// into: $MOOT_CLI_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/moot/clis.
func CLICache() string {
	if d := os.Getenv("MOOT_CLI_CACHE"); d != "" {
		return d
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		h, _ := os.UserHomeDir()
		base = filepath.Join(h, ".cache")
	}
	return filepath.Join(base, "moot", "clis")
}

// NeedCLIs returns the folder that holds the named vendor CLIs when every
// one is installed in CLICache and node is on PATH. Otherwise it skips the
// test, saying why, on a developer's machine, and fails it on CI (CI=true),
// where scripts/install-clis must have installed them: a green CI never
// hides a real-CLI test that did not run. The real-CLI tests do not run
// with -short.
func NeedCLIs(t testing.TB, names ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skipf("skipping: the real-CLI tests (%v) do not run with -short", names)
	}
	missing := t.Skipf
	if os.Getenv("CI") == "true" {
		missing = t.Fatalf
	}
	bin := filepath.Join(CLICache(), "bin")
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(bin, n)); err != nil {
			missing("%s is not installed in %s (run scripts/install-clis; it needs npm and the registry)", n, bin)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node is not on PATH, and the vendor CLIs %v need it", names)
	}
	return bin
}
