package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Deleted, as a file's content in GitCommit, removes the file.
const Deleted = "\x00deleted\x00"

// Person is a git identity: "Name <email>".
type Person struct{ Name, Email string }

// Git runs git in dir with no global or system configuration (the
// machine's hooks, signing and templates stay out) and returns its
// trimmed stdout; it fails the test on an error.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return GitAs(t, dir, Person{"Test Runner", "runner@example.invalid"}, Person{"Test Runner", "runner@example.invalid"}, args...)
}

// GitAs is Git with an author and a committer.
func GitAs(t testing.TB, dir string, author, committer Person, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME="+author.Name, "GIT_AUTHOR_EMAIL="+author.Email,
		"GIT_COMMITTER_NAME="+committer.Name, "GIT_COMMITTER_EMAIL="+committer.Email)
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr)
	}
	return strings.TrimSpace(string(out))
}

// GitInit makes a new repository in a fresh temporary folder (branch
// main, a local identity) and returns its path.
func GitInit(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	Git(t, dir, "init", "-q", "-b", "main")
	Git(t, dir, "config", "user.name", "Test Runner")
	Git(t, dir, "config", "user.email", "runner@example.invalid")
	Git(t, dir, "config", "commit.gpgsign", "false")
	return dir
}

// WriteFiles writes files (slash paths relative to dir → content;
// Deleted removes one), creating folders.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if body == Deleted {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// GitCommit writes files, stages everything and commits as author
// (committer the same) with msg; it returns the new commit's id.
func GitCommit(t testing.TB, dir string, author Person, msg string, files map[string]string) string {
	t.Helper()
	WriteFiles(t, dir, files)
	GitAs(t, dir, author, author, "add", "-A")
	GitAs(t, dir, author, author, "commit", "-q", "--allow-empty", "-m", msg)
	return Git(t, dir, "rev-parse", "HEAD")
}
