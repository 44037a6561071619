package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestResumeOnATerminalAsksBeforeSpending: moot resume of a debate killed
// mid-run, on a terminal, first says how many calls are left and calls
// nothing until Resume is chosen; Cancel leaves with exit 3 and nothing
// called; Resume runs it to the end.
func TestResumeOnATerminalAsksBeforeSpending(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=400"}
	log := killedMidRun(t, p)
	p.env = nil
	before, _ := os.ReadFile(log)

	m := startTmux(t, p, 80, 24, "resume", "7")
	s := m.wait("the resume question", "Resume BUG-20260715-A7K3?", "more call(s)")
	if !strings.Contains(s, "Cancel: nothing is called") {
		t.Errorf("no way out named:\n%s", s)
	}
	m.send("Down", "Enter")
	if code := m.exitCode(); code != "3" {
		t.Errorf("cancel: exit %s, want 3:\n%s", code, m.screen())
	}
	if after, _ := os.ReadFile(log); string(after) != string(before) {
		t.Errorf("cancel wrote to the event log:\n%s", after[len(before):])
	}

	r := startTmux(t, p, 80, 24, "resume", "7")
	r.wait("the resume question", "Resume BUG-20260715-A7K3?")
	r.send("Enter")
	r.wait("the resumed debate, ended", "done", "Final")
}

// TestResumeCountsTheWholeDebateAsItsHeaderDoes: a resume's question says
// the calls still to make and the whole debate's count with the calls
// already made, and how many of those a kill cut (made again); once resumed, the live header counts against that same
// whole (its denominator), and headless says the same figures.
func TestResumeCountsTheWholeDebateAsItsHeaderDoes(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=1500"}
	killedMidRun(t, p)
	whole := regexp.MustCompile(`(\d+) more call\(s\), (\d+) in all with the (\d+) already made`)
	h := p.moot("resume", "7", "--headless").mustExit(t, 4)
	g := whole.FindStringSubmatch(h.stdout)
	if g == nil {
		t.Fatalf("headless does not say the whole debate's count:\n%s", h.stdout)
	}
	left, all, made := atoi(t, g[1]), atoi(t, g[2]), atoi(t, g[3])
	if made+left != all || made < 1 {
		t.Errorf("%d made + %d left ≠ %d in all", made, left, all)
	}
	// the calls the kill cut count as made and are made again: said, so
	// "no answer already written is asked again" is not read as "none"
	if c := regexp.MustCompile(`already made \((\d+) of them stopped before answering, made again\)`).FindStringSubmatch(h.stdout); c == nil || atoi(t, c[1]) < 1 || atoi(t, c[1]) > made {
		t.Errorf("headless does not say how many of the %d made were stopped and run again:\n%s", made, h.stdout)
	}
	p.env = []string{"FAKE_DELAY_MS=800"}
	m := startTmux(t, p, 140, 45, "resume", "7")
	m.wait("the resume question", "Resume BUG-20260715-A7K3?", g[0]) // the same figures as headless
	m.send("Enter")
	s := m.wait("the resumed debate, running", "running")
	head, _, _ := strings.Cut(s, "\n")
	if !strings.Contains(head, fmt.Sprintf("calls %d/%d", made, all)) {
		t.Errorf("the header after the resume does not count %d of the %d in all:\n%s", made, all, head)
	}
	s = m.wait("the resumed debate, ended", "done", "Final")
	if head, _, _ := strings.Cut(s, "\n"); !strings.Contains(head, fmt.Sprintf("/%d", all)) {
		t.Errorf("the finished header is not counted against the %d in all:\n%s", all, head)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// killedMidRun starts a debate of bug 7 (N=2, R=1) headless, with the
// flags more adds, and kills moot once its first call has started; it
// returns the event log's path.
func killedMidRun(t *testing.T, p *project, more ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := p.cmd(ctx, append([]string{"run", "7", "--mode", "diagnosis", "-n", "2", "-r", "1", "--yes", "--headless"}, more...)...)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(p.debate(), "eventos.jsonl")
	waitFor(t, "a call to start", 30*time.Second, func() bool {
		b, _ := os.ReadFile(log)
		return strings.Contains(string(b), `"call_started"`)
	})
	_ = c.Process.Kill()
	_ = c.Wait()
	return log
}

// TestResumeCostNamesTheEnginesFileItNeeds: asked without --yes and
// without --config, the resume of a debate started with --config FILE
// says so before anything runs, with the command that accepts it, and
// that command, run as printed, finishes the debate.
func TestResumeCostNamesTheEnginesFileItNeeds(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	other := killedOnOtherEngines(t, p)
	r := p.moot("resume", "7", "--headless").mustExit(t, 4)
	m := regexp.MustCompile(`It was started with --config (\S+), which a resume takes again: accept with (moot resume .+ --yes)\.`).FindStringSubmatch(r.stdout)
	if m == nil || m[1] != other {
		t.Fatalf("the resume's cost does not name the engines file %s:\n%s", other, r.stdout)
	}
	if r := p.moot(append(strings.Fields(m[2])[1:], "--headless")...); r.code != 0 {
		t.Errorf("%s, as printed: exit %d\n%s%s", m[2], r.code, r.stdout, r.stderr)
	}
}

// TestResumedArgueCountsTheWholeItsQuestionSays: an argue killed while
// its calls run, resumed on a terminal: the live header counts against
// the whole the resume's question said ("N in all with the M already
// made"), the calls still to make without a pane yet (its scorer's)
// included, from the first frame of the resumed run.
func TestResumedArgueCountsTheWholeItsQuestionSays(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.env = []string{"FAKE_DELAY_MS=1500"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := p.cmd(ctx, "ask", "Should we shard the orders table?", "-r", "1", "--yes", "--headless")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	var log string
	waitFor(t, "a call to start", 30*time.Second, func() bool {
		logs, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*", "eventos.jsonl"))
		for _, l := range logs {
			if b, _ := os.ReadFile(l); strings.Contains(string(b), `"call_started"`) {
				log = l
				return true
			}
		}
		return false
	})
	_ = c.Process.Kill()
	_ = c.Wait()
	id := filepath.Base(filepath.Dir(log))
	p.env = []string{"FAKE_DELAY_MS=800"}
	m := startTmux(t, p, 140, 45, "resume", id)
	s := m.wait("the resume question", "Resume "+id+"?")
	g := regexp.MustCompile(`(\d+) in all with the (\d+) already made`).FindStringSubmatch(strings.Join(strings.Fields(s), " "))
	if g == nil {
		t.Fatalf("the resume question says no whole:\n%s", s)
	}
	m.send("Enter")
	s = m.wait("the resumed argue, running", "running")
	if head, _, _ := strings.Cut(s, "\n"); !strings.Contains(head, fmt.Sprintf("%s/%s", g[2], g[1])) {
		t.Errorf("the header after the resume does not count %s of the %s in all the question said:\n%s", g[2], g[1], head)
	}
}

// TestBrowserResumeNamesTheEnginesFileBeforeAsking: r in the browser on a
// debate started with --config FILE, in a moot opened without it, says
// at once that the resume needs that file — the command to run, nothing
// called — instead of asking whether to make the calls and failing on
// the yes.
func TestBrowserResumeNamesTheEnginesFileBeforeAsking(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	killedOnOtherEngines(t, p)
	m := startTmux(t, p, 80, 24)
	m.wait("the list", "BUG-20260715-A7K3")
	m.send("/")
	m.send("A7K3")
	m.send("Enter")
	m.send("r")
	s := m.waitWords("the engines file the resume needs", "no engine named", "this one was started with")
	if strings.Contains(s, "Resume BUG-20260715-A7K3?") || strings.Contains(s, "Resume: make the calls") {
		t.Errorf("r asks to make the calls before saying the engines file it needs:\n%s", s)
	}
}

// killedOnOtherEngines starts bug 7's debate with --config FILE, an
// engines file of its own whose one engine (slow) the project's lacks,
// kills it mid-call (killedMidRun) and returns FILE.
func killedOnOtherEngines(t *testing.T, p *project) string {
	t.Helper()
	other := filepath.Join(t.TempDir(), "slow.yaml")
	if err := os.WriteFile(other, []byte("engines:\n  slow:\n    kind: command\n    command: [\""+fakeBin+"\", \"--role\", \"{role}\"]\n    env_passthrough: [\"FAKE_*\"]\n    external: false\n    timeout: 90s\ndefaults:\n  solver: slow\n  judge: slow\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.env = []string{"FAKE_DELAY_MS=60000"}
	killedMidRun(t, p, "--config", other)
	p.env = nil
	return other
}
