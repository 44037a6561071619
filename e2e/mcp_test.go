package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// agent is an MCP client (the SDK's own) connected over stdio to `moot
// mcp` running as its own process, as a coding agent starts it.
type agent struct {
	t    *testing.T
	cs   *mcp.ClientSession
	mu   sync.Mutex
	said []string // progress notifications' messages, in order
}

// connect starts `moot mcp` from cmd and connects an MCP client to it.
func connect(t *testing.T, cmd *exec.Cmd) *agent {
	t.Helper()
	a := &agent{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "moot-e2e", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			a.mu.Lock()
			a.said = append(a.said, r.Params.Message)
			a.mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to moot mcp: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	a.cs = cs
	return a
}

// projectAgent connects to `moot mcp` run in the project.
func projectAgent(p *project) *agent {
	return connect(p.t, p.cmd(context.Background(), "mcp"))
}

// call calls a tool (with a progress token) and returns its text and
// whether it was a tool error; a protocol error fails the test.
func (a *agent) call(name string, args map[string]any) (text string, structured map[string]any, isErr bool) {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	params.SetProgressToken(name)
	res, err := a.cs.CallTool(ctx, params)
	if err != nil {
		a.t.Fatalf("tool %s: protocol error %v", name, err)
	}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &structured)
	}
	return text, structured, res.IsError
}

// stamps lists every file under dir with its size and modification time.
func stamps(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, p+" "+info.ModTime().String()+" "+strconv.FormatInt(info.Size(), 10))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// progress is what the progress notifications said so far.
func (a *agent) progress() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.said)
}

// Every tool is offered with a plain description and an input schema.
func TestMCPOffersEveryToolWithASchemaAndADescription(t *testing.T) {
	t.Parallel()
	a := projectAgent(newProject(t))
	res, err := a.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		schema, _ := json.Marshal(tl.InputSchema)
		if len(tl.Description) < 40 || !strings.Contains(string(schema), `"type":"object"`) {
			t.Errorf("tool %s: description %q, schema %s", tl.Name, tl.Description, schema)
		}
	}
	slices.Sort(names)
	if strings.Join(names, " ") != "list plan result review run status" {
		t.Errorf("tools %v", names)
	}
	for _, want := range []string{`"accept_plan"`, `"on_quorum_loss"`, `"mode"`} {
		for _, tl := range res.Tools {
			if tl.Name == "run" {
				if schema, _ := json.Marshal(tl.InputSchema); !strings.Contains(string(schema), want) {
					t.Errorf("run's schema has no %s: %s", want, schema)
				}
			}
		}
	}
}

// list gives the register as moot list --json does, and plan the cost plan
// moot plan --json gives; neither writes anything.
func TestMCPListAndPlanWriteNothing(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	a := projectAgent(p)
	text, out, isErr := a.call("list", map[string]any{})
	if isErr || !strings.Contains(text, "BUG-20260715-A7K3") {
		t.Fatalf("list: %v %s", isErr, text)
	}
	if entries, _ := out["entries"].([]any); len(entries) < 6 {
		t.Errorf("list entries: %v", out)
	}
	text, out, isErr = a.call("plan", map[string]any{"bug": "7", "mode": "diagnosis", "n": 3, "r": 1})
	plan, _ := out["plan"].(map[string]any)
	if isErr || plan["formula"] != "3×(1+1) + 0×1 + 1 = 7 calls" || !strings.Contains(text, "accept_plan: true") {
		t.Errorf("plan: error %v, plan %v\n%s", isErr, plan, text)
	}
	if _, err := os.Stat(p.debate()); !os.IsNotExist(err) {
		t.Errorf("list or plan wrote the debate folder: %v", err)
	}
}

// An engines file says which commands run, so a tool's input never names
// one: the engineer gives it when starting the server (moot mcp --config).
// An agent that passes an engines file of its own is refused, and the
// command that file names never runs.
func TestMCPToolsNeverTakeAnEnginesFileFromTheAgent(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	marker := filepath.Join(t.TempDir(), "ran")
	evil := filepath.Join(t.TempDir(), "engines.yaml")
	if err := os.WriteFile(evil, []byte("engines:\n  evil:\n    kind: command\n    command: [\"sh\", \"-c\", \"touch "+marker+"\"]\n    external: false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := projectAgent(p)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tools, err := a.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if strings.Contains(fmt.Sprint(tool.InputSchema), "config") {
			t.Errorf("tool %s takes an engines file from the agent: %v", tool.Name, tool.InputSchema)
		}
	}
	for _, name := range []string{"plan", "run", "review"} {
		args := map[string]any{"bug": "7", "mode": "diagnosis", "solvers": []string{"evil"}, "judge": "evil", "config": evil, "accept_plan": true}
		if name == "plan" {
			delete(args, "accept_plan")
		}
		res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err == nil && !res.IsError {
			t.Errorf("%s with the agent's own engines file was not refused", name)
		}
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("the agent's engines file ran its command: %v", err)
	}
	if _, err := os.Stat(p.debate()); !os.IsNotExist(err) {
		t.Errorf("a refused call wrote the debate folder: %v", err)
	}
}

// Bad input is a tool error with the command line's own message, and
// nothing is written: an unknown bug, a closed one, a restricted bug with
// an external engine, and a run whose plan the call did not accept.
func TestMCPRefusesBadInputWithTheCommandLinesMessage(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	closed := filepath.Join(p.dir, "_reversa_bugs", "checkout", "bugs", "BUG-20260610-K4M1-cupom-expirado-aceito")
	if err := os.WriteFile(filepath.Join(closed, "DONE.md"), []byte("# Done\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := projectAgent(p)
	before := stamps(t, filepath.Join(p.dir, "_reversa_bugs"))
	cases := []struct {
		name string
		args map[string]any
		cli  []string
		want string
	}{
		{"unknown bug", map[string]any{"bug": "99", "mode": "diagnosis", "accept_plan": true},
			[]string{"run", "99", "--mode", "diagnosis", "--yes", "--headless"}, `no bug "99"`},
		{"closed bug", map[string]any{"bug": "BUG-20260610-K4M1", "mode": "diagnosis", "accept_plan": true},
			[]string{"run", "BUG-20260610-K4M1", "--mode", "diagnosis", "--yes", "--headless"}, "DONE.md"},
		{"restricted bug with an external engine", map[string]any{"bug": "8", "mode": "diagnosis", "solvers": []string{"ext"}, "accept_plan": true},
			[]string{"run", "8", "--mode", "diagnosis", "--solver", "ext", "--yes", "--headless"}, "restricted"},
		{"plan not accepted", map[string]any{"bug": "7", "mode": "diagnosis"},
			[]string{"run", "7", "--mode", "diagnosis", "--headless"}, "not started: the cost plan needs accepting"},
	}
	plans := []struct {
		name string
		args map[string]any
		cli  []string
		want string
	}{
		{"plan of an unknown bug", map[string]any{"bug": "99", "mode": "diagnosis"}, []string{"plan", "99", "--mode", "diagnosis"}, `no bug "99"`},
		{"plan of a restricted bug with an external engine", map[string]any{"bug": "8", "mode": "diagnosis", "solvers": []string{"ext"}},
			[]string{"plan", "8", "--mode", "diagnosis", "--solver", "ext"}, "restricted"},
	}
	for _, c := range plans {
		text, _, isErr := a.call("plan", c.args)
		cli := p.moot(c.cli...)
		msg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cli.stderr[strings.LastIndex(strings.TrimSpace(cli.stderr), "moot: "):]), "moot: "))
		if !isErr || !strings.Contains(text, c.want) || !strings.Contains(text, msg) || cli.code != 2 {
			t.Errorf("%s: tool error %v, text:\n%s\nwant the command line's message (exit %d):\n%s", c.name, isErr, text, cli.code, msg)
		}
	}
	for _, c := range cases {
		text, _, isErr := a.call("run", c.args)
		cli := p.moot(c.cli...)
		msg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cli.stderr[strings.LastIndex(strings.TrimSpace(cli.stderr), "moot: "):]), "moot: "))
		if !isErr || !strings.Contains(text, c.want) || !strings.Contains(text, msg) {
			t.Errorf("%s: tool error %v, text:\n%s\nwant it to carry the command line's message (exit %d):\n%s", c.name, isErr, text, cli.code, msg)
		}
	}
	if after := stamps(t, filepath.Join(p.dir, "_reversa_bugs")); !slices.Equal(before, after) {
		t.Errorf("a refused run wrote into the register:\nbefore %v\nafter  %v", before, after)
	}
	for _, tool := range []string{"status", "result"} {
		if text, _, isErr := a.call(tool, map[string]any{"target": "99"}); !isErr || !strings.Contains(text, `no bug "99"`) {
			t.Errorf("%s of an unknown bug: error %v, %s", tool, isErr, text)
		}
	}
}

// An accepted run writes the bug's debate folder as moot run does, sends
// progress notifications (rounds, calls, spend) while it runs, and status
// and result then read the same folder.
func TestMCPRunReportsProgressStatusAndResult(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	a := projectAgent(p)
	text, out, isErr := a.call("run", map[string]any{"bug": "7", "mode": "diagnosis", "n": 3, "r": 1, "accept_plan": true})
	if isErr || out["outcome"] != "done" || out["calls"] != float64(7) {
		t.Fatalf("run: error %v, %v\n%s", isErr, out, text)
	}
	if _, err := os.Stat(filepath.Join(p.debate(), "resposta-final.md")); err != nil {
		t.Errorf("no final answer in the bug's folder: %v", err)
	}
	// notifications are handled apart from results: they may land after it
	waitFor(t, "the progress notifications of the run", 30*time.Second, func() bool {
		said := strings.Join(a.progress(), "\n")
		for _, want := range []string{"round 1 started", "round 1: agente-3 ok (", "7 calls", "finished: done"} {
			if !strings.Contains(said, want) {
				return false
			}
		}
		return true
	})
	_, st, isErr := a.call("status", map[string]any{"target": "7"})
	if isErr || st["state"] != "done" || st["round"] != float64(1) || st["calls"] != float64(7) {
		t.Errorf("status: %v %v", isErr, st)
	}
	text, res, isErr := a.call("result", map[string]any{"target": "BUG-20260715-A7K3"})
	if isErr || res["status"] != "done" || res["winner"] == nil || res["decision_note"] != nil || !strings.Contains(text, "winner") {
		t.Errorf("result: %v %v\n%s", isErr, res, text)
	}
}

// A result that waits for a human decision says so and names moot decide
// and the TUI; nothing the agent can call records it.
func TestMCPResultOfATradeoffSaysOnlyAHumanDecides(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	a := projectAgent(p)
	_, out, isErr := a.call("run", map[string]any{"bug": "7", "mode": "repair", "protocol": "tradeoff", "accept_plan": true,
		"option_a": "Strip discounts before recalculating", "option_b": "Apply the discount once at order creation"})
	if isErr || out["outcome"] != "done" {
		t.Fatalf("tradeoff run: %v %v", isErr, out)
	}
	text, res, _ := a.call("result", map[string]any{"target": "7"})
	if res["decision"] != "pending" || !strings.Contains(text, "moot decide BUG-20260715-A7K3 approve|decline|revise") || !strings.Contains(text, "the agent cannot record it") {
		t.Errorf("result of a tradeoff: %v\n%s", res, text)
	}
	if _, err := os.Stat(filepath.Join(p.debate(), "decisao.md")); !os.IsNotExist(err) {
		t.Errorf("a decision was written: %v", err)
	}
}

// A run that reaches the quorum menu waits for a human: status says so
// while it waits, an engineer answers from another moot process (moot
// resume), and the agent's call then returns the finished debate.
func TestMCPRunWaitsAtAMenuForAHumanAnsweringFromAnotherMoot(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	p.Plan = "agente-2@1=hang,agente-3@1=invalid"
	a := projectAgent(p)
	type ran struct {
		text string
		out  map[string]any
		err  bool
	}
	done := make(chan ran, 1)
	go func() {
		text, out, isErr := a.call("run", map[string]any{"bug": "7", "mode": "diagnosis", "timeout": "1s", "accept_plan": true, "wait_for_human_seconds": 120})
		done <- ran{text, out, isErr}
	}()
	waitFor(t, "the run to wait for a human", 2*time.Minute, func() bool {
		select {
		case r := <-done:
			t.Fatalf("the run returned before waiting: %+v\nprogress: %q", r, a.progress())
		default:
		}
		return strings.Contains(strings.Join(a.progress(), "\n"), "waiting for a human: quorum lost in round 1")
	})
	watcher := projectAgent(p)
	_, st, _ := watcher.call("status", map[string]any{"target": "7"})
	if st["state"] != "waiting" || !strings.Contains(st["waiting_for"].(string), "quorum") {
		t.Errorf("status while the run waits: %v", st)
	}
	select {
	case r := <-done:
		t.Fatalf("the run returned before a human answered: %+v", r)
	default:
	}
	p.moot("resume", "7", "--yes", "--headless", "--on-quorum-loss", "continue").mustExit(t, 0)
	select {
	case r := <-done:
		if r.err || r.out["outcome"] != "done" {
			t.Errorf("the run after the human's answer: %+v", r)
		}
		// notifications are handled apart from results: they may land after it
		waitFor(t, "progress to show the human's answer", 30*time.Second, func() bool {
			return strings.Contains(strings.Join(a.progress(), "\n"), "decision at quorum: continue")
		})
	case <-time.After(time.Minute):
		t.Fatalf("the run did not return once the human had answered; progress:\n%s", strings.Join(a.progress(), "\n"))
	}
}

// review runs the blind tribunal on a change and returns every finding
// with its lens, severity and file; without accept_plan it runs nothing,
// and a review moot refuses (no builder known) is its message.
func TestMCPReviewReturnsTheTribunalsFindings(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.jury = "*/defect=refuse"
	cmd := exec.Command(mootBin, "mcp", "--config", tr.cfg) // the engineer names the engines file, never the agent
	cmd.Dir = tr.repo
	cmd.Env = append(os.Environ(), "FAKE_JURY="+tr.jury, "FAKE_JURYLOG="+tr.jurylog, "NO_COLOR=1",
		"XDG_CONFIG_HOME="+filepath.Join(tr.home, "xdg"), "XDG_CACHE_HOME="+filepath.Join(tr.home, "cache"))
	a := connect(t, cmd)
	args := map[string]any{"change": "HEAD~1..HEAD", "contract": "document Total | Total has a doc comment", "builder": "mistral",
		"lenses": []string{"defect", "security"}}
	if text, _, isErr := a.call("review", args); !isErr || !strings.Contains(text, "accept_plan: true") || len(tr.reviews()) != 0 {
		t.Errorf("review without accept_plan: error %v, reviews %v\n%s", isErr, tr.reviews(), text)
	}
	args["accept_plan"] = true
	text, out, isErr := a.call("review", args)
	findings, _ := out["findings"].([]any)
	if isErr || out["status"] != "refuse" || len(findings) != 1 {
		t.Fatalf("review: error %v, %v\n%s", isErr, out, text)
	}
	if f := findings[0].(map[string]any); f["lens"] != "defect" || f["severity"] != "major" || f["file"] != "calc.go" {
		t.Errorf("finding %v", f)
	}
	delete(args, "builder")
	if text, _, isErr := a.call("review", args); !isErr || !strings.Contains(text, "builder") {
		t.Errorf("review with no builder known: error %v\n%s", isErr, text)
	}
}

// status with wait_seconds follows a debate another moot runs (here a
// headless moot run, as an engineer starts one), with progress
// notifications while it runs, and returns when it ends.
func TestMCPStatusFollowsARunningDebateWithProgress(t *testing.T) {
	t.Parallel()
	p := newProject(t)
	// the engines answer only once the agent follows the run: a debate
	// that ended before the agent connected (a loaded machine) has no
	// running progress to report
	_, release := heldRun(t, p)
	waitFor(t, "the debate's event log", time.Minute, func() bool {
		_, err := os.Stat(filepath.Join(p.debate(), "eventos.jsonl"))
		return err == nil
	})
	a := projectAgent(p)
	released := make(chan struct{})
	go func() { // the answers go once the agent reports the run running (or after a minute: the test then fails below)
		defer close(released)
		for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if strings.Contains(strings.Join(a.progress(), "\n"), ": running ·") {
				break
			}
		}
		release()
	}()
	_, st, isErr := a.call("status", map[string]any{"target": "7", "wait_seconds": 120})
	<-released
	if isErr || st["state"] != "done" || st["calls"] != float64(7) {
		t.Errorf("status after following the run: %v %v", isErr, st)
	}
	waitFor(t, "progress notifications while it ran", 30*time.Second, func() bool {
		said := strings.Join(a.progress(), "\n")
		return strings.Contains(said, ": running ·") && strings.Contains(said, ": done ·")
	})
}
