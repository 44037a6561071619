// Package e2e drives the real moot binary, with a scripted fake LLM as its
// command engine, the way an engineer or a CI job would.
package e2e

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/testutil"
)

var (
	mootBin string
	fakeBin string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "moot-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mootBin = filepath.Join(dir, "moot")
	fakeBin = filepath.Join(dir, "fakeengine")
	root, _ := filepath.Abs("..")
	builds := [][2]string{{mootBin, "."}, {fakeBin, "./internal/fakeengine"}}
	if old := os.Getenv("MOOT_E2E_BIN"); old != "" {
		// another build of moot (an older commit's) to check a test fails on it
		mootBin, builds = old, builds[1:]
	}
	for _, b := range builds {
		cmd := exec.Command("go", "build", "-o", b[0], b[1])
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // the README's build
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build %s: %v\n%s", b[1], err, out)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// project is a copy of the sample register with an engines file whose
// engines run the fake.
type project struct {
	t    *testing.T
	dir  string
	log  string
	env  []string
	Plan string
	// question, when set, is the slug of the project's one question:
	// debate() is then that question's folder (argue's crash trials).
	question string
}

const a7k3 = "_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto-aplicado-duas-vezes"

// newProject copies testdata/sample and writes moot.yaml with the fake as
// engines zeta-engine (local, model zeta-1), omega (local) and ext (external).
func newProject(t *testing.T) *project {
	t.Helper()
	dir := testutil.CopyTree(t, "sample")
	p := &project{t: t, dir: dir, log: filepath.Join(dir, "fake.log")}
	p.writeConfig(`engines:
  zeta-engine:
    kind: command
    command: ["` + fakeBin + `", "--role", "{role}"]
    env_passthrough: ["FAKE_*"]
    model: zeta-1
    external: false
    timeout: 20s
    price: {input_per_mtok: 1.0, output_per_mtok: 4.0}
  omega:
    kind: command
    command: ["` + fakeBin + `"]
    env_passthrough: ["FAKE_*"]
    external: false
    timeout: 20s
  ext:
    kind: command
    command: ["` + fakeBin + `"]
    env_passthrough: ["FAKE_*"]
defaults:
  solver: zeta-engine
  judge: zeta-engine
`)
	return p
}

// writeConfig writes the project's engines file and trusts it (moot trust),
// as its owner would.
func (p *project) writeConfig(s string) {
	p.writeUntrustedConfig(s)
	p.moot("trust")
}

// writeUntrustedConfig writes the project's engines file as a cloned
// repository would bring it: not trusted.
func (p *project) writeUntrustedConfig(s string) {
	if err := os.WriteFile(filepath.Join(p.dir, "_reversa_bugs", "moot.yaml"), []byte(s), 0o600); err != nil {
		p.t.Fatal(err)
	}
}

// bugDir is the sample bug A7K3's folder; debate its debate folder.
func (p *project) bugDir() string { return filepath.Join(p.dir, a7k3) }
func (p *project) debate() string {
	if p.question != "" {
		// an ask killed before its setup leaves a folder without problema.md,
		// and asking again takes the slug numbered -2, -3: the debate is the
		// latest folder with a setup, else the latest
		ms, _ := filepath.Glob(filepath.Join(p.dir, ".moot", "debates", "*-"+p.question+"*"))
		slices.SortFunc(ms, func(a, b string) int {
			if c := cmp.Compare(len(a), len(b)); c != 0 {
				return c // -10 after -9
			}
			return strings.Compare(a, b)
		})
		for i := len(ms) - 1; i >= 0; i-- {
			if _, err := os.Stat(filepath.Join(ms[i], "problema.md")); err == nil {
				return ms[i]
			}
		}
		if len(ms) > 0 {
			return ms[len(ms)-1]
		}
		return filepath.Join(p.dir, ".moot", "debates", "not-yet-"+p.question)
	}
	return filepath.Join(p.bugDir(), "debate")
}

// result of one moot invocation.
type result struct {
	code           int
	stdout, stderr string
}

// cmd builds a moot command in the project with the fake's plan.
func (p *project) cmd(ctx context.Context, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, mootBin, args...)
	c.Dir = p.dir
	c.Env = append(os.Environ(),
		"FAKE_LOG="+p.log, "FAKE_PLAN="+p.Plan, "FAKE_PROMPTS="+filepath.Join(p.dir, "prompts"),
		"XDG_CONFIG_HOME="+filepath.Join(p.dir, ".xdg"), "XDG_CACHE_HOME="+filepath.Join(p.dir, ".cache"), "NO_COLOR=1")
	c.Env = append(c.Env, p.env...)
	return c
}

// moot runs moot to its end (with a generous deadline) and returns what it did.
func (p *project) moot(args ...string) result {
	p.t.Helper()
	return p.mootWithin(3*time.Minute, args...)
}

// mootIn runs moot from another working folder.
func (p *project) mootIn(dir string, args ...string) result {
	p.t.Helper()
	return p.mootAt(dir, 3*time.Minute, args...)
}

// mootWithin runs moot and fails the test if it has not ended within d: a
// hostile register must never make moot hang.
func (p *project) mootWithin(d time.Duration, args ...string) result {
	p.t.Helper()
	return p.mootAt("", d, args...)
}

// mootAt runs moot in dir (the project when "") and fails the test if it has
// not ended within d.
func (p *project) mootAt(dir string, d time.Duration, args ...string) result {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	c := p.cmd(ctx, args...)
	if dir != "" {
		c.Dir = dir
	}
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	if ctx.Err() != nil {
		p.t.Fatalf("moot %v still running after %v: it hung\n%s", args, d, errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		p.t.Fatalf("moot %v: %v", args, err)
	}
	return result{code, out.String(), errb.String()}
}

// mustExit fails unless the run ended with code.
func (r result) mustExit(t *testing.T, code int) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
	return r
}

// readDebate reads the debate folder with moot's own reader.
func (p *project) readDebate() *bugfolder.Debate {
	p.t.Helper()
	d, err := bugfolder.ReadDebate(p.debate(), bugfolder.PT)
	if err != nil {
		p.t.Fatal(err)
	}
	if len(d.Problems) > 0 {
		p.t.Fatalf("unreadable files: %v", d.Problems)
	}
	return d
}

// events reads the event log.
func (p *project) events() []map[string]any {
	p.t.Helper()
	f, err := os.Open(filepath.Join(p.debate(), "eventos.jsonl"))
	if err != nil {
		p.t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			p.t.Fatalf("event log line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// starts counts how many times the fake was started for (id, round).
func (p *project) starts(id string, round int) int {
	b, _ := os.ReadFile(p.log)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) >= 4 && f[0] == "start" && f[2] == id && f[3] == fmt.Sprint(round) {
			n++
		}
	}
	return n
}

// prompt reads the prompt the fake got for (round, id, attempt).
func (p *project) prompt(round int, id string, attempt int) string {
	p.t.Helper()
	b, err := os.ReadFile(filepath.Join(p.dir, "prompts", fmt.Sprintf("%d-%s-%d.txt", round, id, attempt)))
	if err != nil {
		p.t.Fatalf("no prompt for %s round %d attempt %d: %v", id, round, attempt, err)
	}
	return string(b)
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, deadline time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(deadline)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func regexpMust(expr string) *regexp.Regexp { return regexp.MustCompile(expr) }
