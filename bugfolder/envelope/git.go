package envelope

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/reversa/moot/internal/gitcmd"
)

// git runs git in repo and returns its stdout (gitcmd bounds the call).
func git(repo string, args ...string) ([]byte, error) {
	return gitcmd.Output(context.Background(), repo, args...)
}

// splitRange splits "A..B" into its ends (B "" means HEAD, as for git).
func splitRange(change string) (a, b string, err error) {
	a, b, ok := strings.Cut(change, "..")
	if !ok || a == "" || strings.HasPrefix(b, ".") {
		return "", "", rangeRefusal(change, `give a git range "A..B" (the commit before the change, two dots, its last commit; B may be left out for HEAD)`)
	}
	if b == "" {
		b = "HEAD"
	}
	return a, b, nil
}

// resolve returns the commit rev names in repo.
func resolve(repo, change, rev string) (string, error) {
	out, err := git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	sha := strings.TrimSpace(string(out))
	if err != nil || sha == "" {
		return "", rangeRefusal(change, "git cannot resolve %q to a commit in %s: check the name (git log --oneline) and that %s is the project's git root", rev, repo, repo)
	}
	return sha, nil
}

// resolveRange resolves "A..B" to two commit ids and says whether B is the
// commit checked out.
func resolveRange(repo, change string) (a, b string, atHead bool, err error) {
	ra, rb, err := splitRange(change)
	if err != nil {
		return "", "", false, err
	}
	if a, err = resolve(repo, change, ra); err != nil {
		return "", "", false, err
	}
	if b, err = resolve(repo, change, rb); err != nil {
		return "", "", false, err
	}
	head, herr := git(repo, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	return a, b, herr == nil && strings.TrimSpace(string(head)) == b, nil
}

// fromRange lists the files touched in A..B (sorted), those deleted at B,
// and the reader of the current files: the disk when B is HEAD, else B's
// tree.
func fromRange(repo, change string, committed bool) ([]string, map[string]bool, reader, error) {
	a, b, atHead, err := resolveRange(repo, change)
	if err != nil {
		return nil, nil, nil, err
	}
	atHead = atHead && !committed
	out, err := git(repo, "diff", "--name-status", "--no-renames", "-z", a, b, "--")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--change %q: list the files it touched: %w", change, err)
	}
	var touched []string
	deleted := map[string]bool{}
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		status, p := fields[i], fields[i+1]
		touched = append(touched, p)
		if strings.HasPrefix(status, "D") && !atHead {
			deleted[p] = true
		}
	}
	if atHead {
		// git names the files from the top of the repository, whatever
		// folder of it Repo is
		top, err := git(repo, "rev-parse", "--show-toplevel")
		if err != nil {
			return nil, nil, nil, fmt.Errorf("--change %q: %w", change, err)
		}
		d, err := newDiskReader(strings.TrimSpace(string(top)))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("--change %q: %w", change, err)
		}
		return touched, deleted, d, nil
	}
	t, err := newTreeReader(repo, b)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--change %q: %w", change, err)
	}
	return touched, deleted, t, nil
}

// treeReader reads the files of one commit's tree.
type treeReader struct {
	repo, commit string
	mode         map[string]string // path → git mode of each file in the tree
	size         map[string]int64  // path → size of each blob
}

// newTreeReader lists commit's tree once.
func newTreeReader(repo, commit string) (*treeReader, error) {
	out, err := git(repo, "ls-tree", "-r", "-z", "-l", "--full-tree", commit)
	if err != nil {
		return nil, err
	}
	t := &treeReader{repo: repo, commit: commit, mode: map[string]string{}, size: map[string]int64{}}
	for _, entry := range strings.Split(string(out), "\x00") {
		// "<mode> <type> <object> <size>\t<path>"; size "-" for a submodule
		meta, p, ok := strings.Cut(entry, "\t")
		if !ok {
			continue
		}
		if f := strings.Fields(meta); len(f) == 4 {
			t.mode[p] = f[0]
			t.size[p], _ = strconv.ParseInt(f[3], 10, 64)
		}
	}
	return t, nil
}

func (t *treeReader) read(rel string) (string, bool, string, error) {
	switch t.mode[rel] {
	case "":
		return "", false, "", nil
	case "120000":
		return "", true, "symbolic link", nil
	case "160000":
		return "", true, "submodule", nil
	}
	if size := t.size[rel]; size > MaxBytes {
		return "", false, "", tooBig(rel, size)
	}
	b, err := git(t.repo, "cat-file", "blob", t.commit+":"+rel)
	if err != nil {
		return "", false, "", fmt.Errorf("read %s at %s: %w", rel, t.commit, err)
	}
	return bodyOf(b)
}

func (t *treeReader) close() {}

func (t *treeReader) has(rel string) bool {
	m := t.mode[rel]
	return m == "100644" || m == "100755"
}

// RangeEnds resolves --change "A..B" to what the test checks need: the
// baseline commit A, and the candidate B — "" when B is the commit
// checked out, for Build then reads the files on disk and the tests must
// run on the same bytes (testgate.Options.Candidate "" is the working
// tree).
func RangeEnds(repo, change string) (base, candidate string, err error) {
	a, b, atHead, err := resolveRange(repo, change)
	if err != nil {
		return "", "", err
	}
	if atHead {
		b = ""
	}
	return a, b, nil
}

// Resolve resolves a commit name (HEAD~1, a branch) to its id, so a
// resumed review compares against the same base however HEAD moved.
func Resolve(repo, change, rev string) (string, error) { return resolve(repo, change, rev) }

// SplitRange splits --change "A..B" into its ends (B "" is HEAD).
func SplitRange(change string) (a, b string, err error) { return splitRange(change) }
