package testgate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder/envelope"
	tu "github.com/reversa/moot/internal/testutil"
)

// suite runs the project's Python tests (unittest finds test_*.py).
const suite = "python3 -B -m unittest -q"

var dev = tu.Person{Name: "Dev", Email: "dev@example.invalid"}

const (
	buggy  = "def add(a, b):\n    return a - b\n\ndef mul(a, b):\n    return a * b\n"
	fixed  = "def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return a * b\n"
	wrong  = "def add(a, b):\n    return a * b\n\ndef mul(a, b):\n    return a * b\n"
	mulT   = "import unittest, calc\n\nclass T(unittest.TestCase):\n    def test_mul(self):\n        self.assertEqual(calc.mul(2, 3), 6)\n"
	addT   = "import unittest, calc\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(2, 3), 5)\n"
	weakT  = "import unittest, calc\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(0, 0), 0)\n"
	brokeT = "import unittest\n\nclass T(unittest.TestCase):\n    def test_old(self):\n        self.fail('broken before the change')\n"
)

// history is a repository following red first: base (the bug, a passing
// suite), red (the failing test committed), then candidates on top.
type history struct {
	repo, base, red string
}

func newHistory(t *testing.T) history {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the test suites here are Python's unittest")
	}
	repo := tu.GitInit(t)
	tu.WriteFiles(t, repo, map[string]string{".gitignore": "__pycache__/\n"})
	h := history{repo: repo}
	h.base = tu.GitCommit(t, repo, dev, "base", map[string]string{"calc.py": buggy, "test_mul.py": mulT})
	h.red = tu.GitCommit(t, repo, dev, "red: add's test", map[string]string{"test_add.py": addT})
	return h
}

// commit adds a candidate commit on a branch from the red commit.
func (h history) commit(t *testing.T, files map[string]string) string {
	t.Helper()
	tu.Git(t, h.repo, "checkout", "-q", "--detach", h.red)
	return tu.GitCommit(t, h.repo, dev, "candidate", files)
}

// run runs the gate and checks the user's checkout is as it was and no
// worktree is left.
func run(t *testing.T, o Options) []envelope.TestCheck {
	t.Helper()
	status := tu.Git(t, o.Repo, "status", "--porcelain", "--untracked-files=all")
	head := tu.Git(t, o.Repo, "rev-parse", "HEAD")
	if o.Cmd == "" {
		o.Cmd = suite
	}
	if o.Timeout == 0 {
		o.Timeout = time.Minute
	}
	checks, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	assertUntouched(t, o.Repo, status, head)
	return checks
}

// assertUntouched: the user's checkout has the same status and HEAD, and
// git knows no worktree but it.
func assertUntouched(t *testing.T, repo, status, head string) {
	t.Helper()
	if s := tu.Git(t, repo, "status", "--porcelain", "--untracked-files=all"); s != status {
		t.Errorf("the user's checkout changed:\n%s\nwas:\n%s", s, status)
	}
	if h := tu.Git(t, repo, "rev-parse", "HEAD"); h != head {
		t.Errorf("HEAD moved from %s to %s", head, h)
	}
	if wt := tu.Git(t, repo, "worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
		t.Errorf("worktrees left:\n%s", wt)
	}
}

// byName indexes checks by name and asserts their order.
func byName(t *testing.T, checks []envelope.TestCheck, names ...string) map[string]envelope.TestCheck {
	t.Helper()
	var got []string
	m := map[string]envelope.TestCheck{}
	for _, c := range checks {
		got = append(got, c.Name)
		m[c.Name] = c
	}
	if !slices.Equal(got, names) {
		t.Fatalf("checks %v, want %v", got, names)
	}
	return m
}

// TestCandidatePasses: the fix on top of red: every check passes, the
// false-green check included (the new test fails on red's code: a true
// red).
func TestCandidatePasses(t *testing.T) {
	h := newHistory(t)
	cand := h.commit(t, map[string]string{"calc.py": fixed})
	m := byName(t, run(t, Options{Repo: h.repo, Base: h.base, Candidate: cand, Red: h.red, TestFiles: []string{"test_add.py", "test_mul.py"}}),
		NewTestsPass, SuiteNotWorse, Untouched, FalseGreen)
	for name, c := range m {
		if !c.OK {
			t.Errorf("%s failed: %s", name, c.Detail)
		}
	}
	if d := m[FalseGreen].Detail; !strings.Contains(d, "as they must") {
		t.Errorf("true red: %s", d)
	}
	if d := m[Untouched].Detail; !strings.Contains(d, "2 test file(s)") {
		t.Errorf("untouched: %s", d)
	}
}

// TestCandidateFails: a wrong fix: the suite fails (its output names the
// failing test) and is worse than a baseline that passed.
func TestCandidateFails(t *testing.T) {
	h := newHistory(t)
	cand := h.commit(t, map[string]string{"calc.py": wrong})
	m := byName(t, run(t, Options{Repo: h.repo, Base: h.base, Candidate: cand}), NewTestsPass, SuiteNotWorse)
	if c := m[NewTestsPass]; c.OK || !strings.Contains(c.Detail, "failed (exit 1)") || !strings.Contains(c.Detail, "test_add") {
		t.Errorf("new-tests-pass: %+v", c)
	}
	if c := m[SuiteNotWorse]; c.OK || !strings.Contains(c.Detail, "worse than the baseline") {
		t.Errorf("suite-not-worse: %+v", c)
	}
}

// TestBaselineAlreadyFails: a baseline whose suite fails does not make
// the candidate's failure worse, and the detail says so.
func TestBaselineAlreadyFails(t *testing.T) {
	h := newHistory(t)
	tu.Git(t, h.repo, "checkout", "-q", "--detach", h.base)
	broken := tu.GitCommit(t, h.repo, dev, "broken base", map[string]string{"test_old.py": brokeT})
	cand := tu.GitCommit(t, h.repo, dev, "candidate", map[string]string{"calc.py": wrong})
	m := byName(t, run(t, Options{Repo: h.repo, Base: broken, Candidate: cand}), NewTestsPass, SuiteNotWorse)
	if m[NewTestsPass].OK {
		t.Error("a failing suite passed")
	}
	if c := m[SuiteNotWorse]; !c.OK || !strings.Contains(c.Detail, "already fails") || !strings.Contains(c.Detail, "not counted worse") {
		t.Errorf("suite-not-worse: %+v", c)
	}
}

// TestTestChangedSinceRed: a candidate that weakens the red test fails
// tests-untouched-since-red, naming the file.
func TestTestChangedSinceRed(t *testing.T) {
	h := newHistory(t)
	cand := h.commit(t, map[string]string{"calc.py": fixed, "test_add.py": weakT})
	m := byName(t, run(t, Options{Repo: h.repo, Candidate: cand, Red: h.red}), NewTestsPass, Untouched, FalseGreen)
	if c := m[Untouched]; c.OK || c.File != "test_add.py" || !strings.Contains(c.Detail, "test_add.py") {
		t.Errorf("untouched: %+v", c)
	}
	// a deleted test file is changed too
	cand = h.commit(t, map[string]string{"calc.py": fixed, "test_add.py": tu.Deleted})
	m = byName(t, run(t, Options{Repo: h.repo, Candidate: cand, Red: h.red}), NewTestsPass, Untouched, FalseGreen)
	if c := m[Untouched]; c.OK || c.File != "test_add.py" {
		t.Errorf("deleted test: %+v", c)
	}
}

// TestFalseGreenCaught: a "red" test that already passes on the red
// commit's code: the candidate's tests pass there, a false green.
func TestFalseGreenCaught(t *testing.T) {
	h := newHistory(t)
	tu.Git(t, h.repo, "checkout", "-q", "--detach", h.base)
	red := tu.GitCommit(t, h.repo, dev, "a red that is green", map[string]string{"test_add.py": weakT})
	cand := tu.GitCommit(t, h.repo, dev, "candidate", map[string]string{"calc.py": fixed})
	m := byName(t, run(t, Options{Repo: h.repo, Candidate: cand, Red: red, TestFiles: []string{"test_add.py"}}), NewTestsPass, Untouched, FalseGreen)
	if !m[NewTestsPass].OK || !m[Untouched].OK {
		t.Errorf("the candidate itself is fine: %+v", m)
	}
	if c := m[FalseGreen]; c.OK || !strings.Contains(c.Detail, "false green") || !strings.Contains(c.Detail, "test_add.py") || c.File != "test_add.py" {
		t.Errorf("false-green: %+v", c)
	}
}

// TestWorkingTreeCandidate: Candidate "" tests the files as they are on
// disk (an uncommitted fix, a new untracked test, a deleted file) without
// touching them.
func TestWorkingTreeCandidate(t *testing.T) {
	h := newHistory(t)
	tu.WriteFiles(t, h.repo, map[string]string{
		"calc.py":       fixed,
		"test_extra.py": "import unittest, calc\n\nclass T(unittest.TestCase):\n    def test_big(self):\n        self.assertEqual(calc.add(40, 2), 42)\n",
		"test_mul.py":   tu.Deleted,
	})
	m := byName(t, run(t, Options{Repo: h.repo, Base: h.base, Red: h.red}), NewTestsPass, SuiteNotWorse, Untouched, FalseGreen)
	if !m[NewTestsPass].OK {
		t.Errorf("the fix on disk was not tested: %+v", m[NewTestsPass])
	}
	if c := m[Untouched]; c.OK || c.File != "test_mul.py" {
		t.Errorf("a test deleted on disk: %+v", c)
	}
	if c := m[FalseGreen]; !c.OK {
		t.Errorf("false-green: %+v", c)
	}
}

// TestTimeoutKillsTheGroup: a suite that outlives its timeout is killed
// with its whole process group (a background child included), and the
// check says it timed out.
func TestTimeoutKillsTheGroup(t *testing.T) {
	h := newHistory(t)
	mark := filepath.Join(t.TempDir(), "pid")
	cmd := "sleep 300 & echo $! > " + mark + "; wait"
	m := byName(t, run(t, Options{Repo: h.repo, Cmd: cmd, Timeout: 300 * time.Millisecond}), NewTestsPass)
	if c := m[NewTestsPass]; c.OK || !strings.Contains(c.Detail, "timed out") {
		t.Errorf("new-tests-pass: %+v", c)
	}
	b, err := os.ReadFile(mark)
	if err != nil {
		t.Fatalf("the command never ran: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	waitGone(t, pid)
}

// waitGone waits, with a deadline, for pid to stop running.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for tu.ProcessRunning(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d of the killed group still runs", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCancelCleansUp: a review cancelled mid-run ends the suite's
// process group and still removes its worktrees.
func TestCancelCleansUp(t *testing.T) {
	h := newHistory(t)
	started := filepath.Join(t.TempDir(), "started")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := os.Stat(started); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	status := tu.Git(t, h.repo, "status", "--porcelain", "--untracked-files=all")
	_, err := Run(ctx, Options{Repo: h.repo, Cmd: "echo $$ > " + started + "; exec sleep 300", Timeout: time.Minute})
	if err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("err %v", err)
	}
	assertUntouched(t, h.repo, status, h.red)
	b, _ := os.ReadFile(started)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	waitGone(t, pid)
}

// TestRunErrors: the checks cannot run at all: each error says why.
func TestRunErrors(t *testing.T) {
	h := newHistory(t)
	cases := []struct {
		name string
		o    Options
		want string
	}{
		{"no command", Options{Repo: h.repo, Cmd: "  "}, "--test-cmd is empty"},
		{"not git", Options{Repo: t.TempDir(), Cmd: "true"}, "not a git repository"},
		{"bad red", Options{Repo: h.repo, Cmd: "true", Red: "nope"}, `--red "nope"`},
		{"bad base", Options{Repo: h.repo, Cmd: "true", Base: "nope"}, `the baseline "nope"`},
		{"bad candidate", Options{Repo: h.repo, Cmd: "true", Candidate: "nope"}, `the candidate "nope"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Run(context.Background(), c.o); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err %v, want %q", err, c.want)
			}
		})
	}
}

// TestUntouchedNamedAndMissing: a test file the envelope names is
// checked whatever its name; a red commit with no test file fails the
// check and says red first.
func TestUntouchedNamedAndMissing(t *testing.T) {
	h := newHistory(t)
	tu.Git(t, h.repo, "checkout", "-q", "--detach", h.base)
	red := tu.GitCommit(t, h.repo, dev, "red", map[string]string{"checks/add.sh": "test 5 = 5\n"})
	cand := tu.GitCommit(t, h.repo, dev, "candidate", map[string]string{"checks/add.sh": "true\n"})
	m := byName(t, run(t, Options{Repo: h.repo, Cmd: "true", Candidate: cand, Red: red, TestFiles: []string{"checks/add.sh"}}), NewTestsPass, Untouched, FalseGreen)
	if c := m[Untouched]; c.OK || c.File != "checks/add.sh" {
		t.Errorf("a named test file changed: %+v", c)
	}
	empty := tu.GitInit(t)
	first := tu.GitCommit(t, empty, dev, "no tests", map[string]string{"calc.py": fixed})
	m = byName(t, run(t, Options{Repo: empty, Cmd: "true", Red: first}), NewTestsPass, Untouched, FalseGreen)
	if c := m[Untouched]; c.OK || !strings.Contains(c.Detail, "red first") {
		t.Errorf("no test at red: %+v", c)
	}
	if c := m[FalseGreen]; c.OK || !strings.Contains(c.Detail, "no test file") {
		t.Errorf("nothing to carry onto red: %+v", c)
	}
}

// TestFromTheEnvelope: the checks fed from an envelope the way the
// tribunal does it (its test files, the range's ends): at a commit, then
// at HEAD, where the files on disk are the candidate (the fix undone
// there, uncommitted, fails); the checks then join the envelope.
func TestFromTheEnvelope(t *testing.T) {
	h := newHistory(t)
	cand := h.commit(t, map[string]string{"calc.py": fixed})
	for _, c := range []struct {
		change, head, disk string
		pass               bool
	}{
		{h.base + ".." + cand, h.red, buggy, true}, // B is not HEAD: B is tested, not the disk
		{h.base + "..HEAD", cand, fixed, true},
		{h.base + "..HEAD", cand, buggy, false},
	} {
		tu.Git(t, h.repo, "checkout", "-q", "-f", "--detach", c.head)
		tu.WriteFiles(t, h.repo, map[string]string{"calc.py": c.disk})
		e, err := envelope.Build(envelope.Source{Repo: h.repo, Change: c.change})
		if err != nil {
			t.Fatal(err)
		}
		base, candidate, err := envelope.RangeEnds(h.repo, c.change)
		if err != nil {
			t.Fatal(err)
		}
		e.Tests = run(t, Options{Repo: h.repo, Base: base, Candidate: candidate, Red: h.red, TestFiles: e.TestFiles()})
		m := byName(t, e.Tests, NewTestsPass, SuiteNotWorse, Untouched, FalseGreen)
		if m[NewTestsPass].OK != c.pass {
			t.Errorf("%s with calc.py on disk %q: %+v", c.change, c.disk, m[NewTestsPass])
		}
		out := e.Render()
		if !strings.Contains(out, "- false-green: passed (test_add.py)") {
			t.Errorf("the checks are not in the envelope:\n%s", out)
		}
		if !c.pass && (!strings.Contains(out, `File "test_add.py", line 5`) || strings.Contains(out, os.TempDir())) {
			t.Errorf("the failure's output names the worktree, not the project's file:\n%s", out)
		}
	}
}

// TestSetsidChildKilled: a child that leaves the process group (setsid)
// and outlives a passing suite is killed all the same.
func TestSetsidChildKilled(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	h := newHistory(t)
	mark := filepath.Join(t.TempDir(), "pid")
	m := byName(t, run(t, Options{Repo: h.repo, Cmd: "setsid sh -c 'echo $$ > " + mark + "; exec sleep 300' & while [ ! -s " + mark + " ]; do sleep 0.01; done"}), NewTestsPass)
	if !m[NewTestsPass].OK {
		t.Errorf("the suite itself passed: %+v", m[NewTestsPass])
	}
	b, err := os.ReadFile(mark)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	waitGone(t, pid)
}
