package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReviewNeverRunsTheRepositorysGitPrograms: a repository handed over
// as a folder carries its .git/config, and that file can name programs
// (log.showSignature with a gpg.program, a filter, fsmonitor). A plain
// review of a change whose commit is signed runs none of them.
func TestReviewNeverRunsTheRepositorysGitPrograms(t *testing.T) {
	tr := newTribunal(t, juryEngines)
	ran := filepath.Join(tr.home, "ran.log")
	prog := filepath.Join(tr.home, "prog.sh")
	if err := os.WriteFile(prog, []byte(fmt.Sprintf("#!/bin/sh\necho \"$0 $*\" >> %s\ncat\n", ran)), 0o700); err != nil {
		t.Fatal(err)
	}
	// the change's last commit carries a signature header
	parent := strings.TrimSpace(tr.out("rev-parse", "HEAD~1"))
	tree := strings.TrimSpace(tr.out("rev-parse", "HEAD^{tree}"))
	raw := filepath.Join(tr.home, "commit")
	os.WriteFile(raw, []byte(fmt.Sprintf("tree %s\nparent %s\nauthor Ada Builder <ada.builder@example.com> 1700000000 +0000\ncommitter Ada Builder <ada.builder@example.com> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\ndocument Total\n", tree, parent)), 0o600)
	signed := strings.TrimSpace(tr.out("hash-object", "-t", "commit", "-w", raw))
	tr.git("update-ref", "HEAD", signed)
	for k, v := range map[string]string{"log.showSignature": "true", "gpg.program": prog, "core.fsmonitor": prog,
		"filter.evil.clean": prog, "filter.evil.smudge": prog, "diff.evil.textconv": prog, "core.pager": prog} {
		tr.git("config", k, v)
	}
	tr.write(".git/info/attributes", "*.go filter=evil diff=evil\n")
	r := tr.review(append(change, "--lens", "defect")...)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(ran); err == nil {
		t.Fatalf("a review ran programs the repository's git configuration names:\n%s", b)
	}
}

// out runs git in the tribunal's repository and returns its stdout.
func (tr *tribunal) out(args ...string) string {
	tr.t.Helper()
	c := exec.Command("git", args...)
	c.Dir = tr.repo
	c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	b, err := c.Output()
	if err != nil {
		tr.t.Fatalf("git %v: %v", args, err)
	}
	return string(b)
}
