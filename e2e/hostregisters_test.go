package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/testutil"
)

// hostRegister copies a public register of testdata/registers with the
// fake as its local engine, its bugs reopened (DONE.md removed, as an
// engineer reopening one does).
func hostRegister(t *testing.T, name string) *project {
	t.Helper()
	dir := testutil.CopyTree(t, filepath.Join("registers", name))
	p := &project{t: t, dir: dir, log: filepath.Join(dir, "fake.log")}
	cfg := "engines:\n  zeta-engine:\n    kind: command\n    command: [\"" + fakeBin + "\", \"--role\", \"{role}\"]\n    external: false\n    timeout: 20s\n    env_passthrough: [\"FAKE_*\"]\n    price: {input_per_mtok: 1.0, output_per_mtok: 4.0}\ndefaults:\n  solver: zeta-engine\n  judge: zeta-engine\n"
	if err := os.WriteFile(filepath.Join(dir, "_reversa_bugs", "moot.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	dones, _ := filepath.Glob(filepath.Join(dir, "_reversa_bugs", "*", "bugs", "*", "DONE.md"))
	for _, d := range dones {
		os.Remove(d)
	}
	p.moot("trust").mustExit(t, 0)
	return p
}

// TestNewRunArchivesAHostDebateUnderItsOwnDate: a new run over a host's
// debate archives it under the date its files give (a date alone is its
// midnight), or as debate-undated when they give none — never under the
// time of the run — and the plan says so first.
func TestNewRunArchivesAHostDebateUnderItsOwnDate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ register, bug, mode, want string }{
		{"odcs", "BUG-20261004-ODCS", "spec", "debate-20261004T000000Z"},
		{"whispper", "BUG-20261001-MAC1", "repair", "debate-undated"},
	} {
		p := hostRegister(t, tc.register)
		pl := p.moot("plan", tc.bug, "--mode", tc.mode).mustExit(t, 0)
		if !strings.Contains(pl.stdout, tc.want) {
			t.Errorf("%s: the plan does not name %s:\n%s", tc.bug, tc.want, pl.stdout)
		}
		p.moot("run", tc.bug, "--mode", tc.mode, "-r", "0", "-n", "2", "--yes", "--headless").mustExit(t, 0)
		dirs, _ := filepath.Glob(filepath.Join(p.dir, "_reversa_bugs", "*", "bugs", tc.bug+"-*", "debate-*"))
		if len(dirs) != 1 || filepath.Base(dirs[0]) != tc.want {
			t.Errorf("%s archived as %v, want %s", tc.bug, dirs, tc.want)
			continue
		}
		if _, err := os.Stat(filepath.Join(dirs[0], "resposta-final.md")); err != nil {
			t.Errorf("%s: the host's final answer did not move with its debate: %v", tc.bug, err)
		}
		s := p.moot("show", tc.bug, "--debate", strings.TrimPrefix(tc.want, "debate-")).mustExit(t, 0)
		if !strings.Contains(s.stdout, "| winner |") || strings.Contains(s.stdout, "names no winner") {
			t.Errorf("%s: the archived host debate's winner is not read:\n%s", tc.bug, s.stdout)
		}
	}
}
