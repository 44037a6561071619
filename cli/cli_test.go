package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reversa/moot/internal/fakeprovider"
	"github.com/reversa/moot/internal/testutil"
)

// moot runs one command line in process, in dir, and returns its exit
// code, stdout and stderr.
func moot(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, cwd: dir, getenv: func(k string) string {
		if k == "HOME" || k == "XDG_CONFIG_HOME" {
			return dir // never pick up the developer's own engines file
		}
		return os.Getenv(k)
	}}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // empty: no engines file of the developer; the trust store lands outside the project
	t.Setenv("XDG_CACHE_HOME", t.TempDir())  // probe results never land in the developer's cache
	if len(args) > 0 && args[0] != "trust" && args[0] != "help" {
		// the project is its owner's: its engines file is trusted (the
		// e2e tests show what an untrusted one may not do)
		quiet := &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, cwd: dir, getenv: e.getenv}
		run(quiet, []string{"trust"})
	}
	code := run(e, args)
	return code, out.String(), errb.String()
}

const a7k3 = "_reversa_bugs/checkout/bugs/BUG-20260715-A7K3-desconto-aplicado-duas-vezes"

func TestVersionAndHelp(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := moot(t, dir, "version")
	if code != 0 || !strings.HasPrefix(out, "moot ") {
		t.Errorf("version: %d %q", code, out)
	}
	code, out, _ = moot(t, dir, "help", "plan")
	code2, out2, _ := moot(t, dir, "plan", "--help")
	if code != 0 || code2 != 0 || out != out2 || !strings.Contains(out, "--solver") || !strings.Contains(out, "writes nothing") {
		t.Errorf("help plan and plan --help must be the same:\n%s", out)
	}
	if code, _, errOut := moot(t, dir, "nonsense"); code != ExitUsage || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: %d %s", code, errOut)
	}
	if code, _, errOut := moot(t, dir, "list", "--bogus"); code != ExitUsage || !strings.Contains(errOut, "unknown flag") {
		t.Errorf("unknown flag: %d %s", code, errOut)
	}
}

func TestListJSON(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	before := testutil.Fingerprint(t, proj)
	code, out, errOut := moot(t, filepath.Join(proj, "src"), "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var entries []map[string]any
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	byID := map[string]map[string]any{}
	for _, e := range entries {
		for _, f := range []string{"bug_id", "context", "title", "path", "status", "mode", "n", "r", "winner", "cost_usd", "started_at", "debates"} {
			if _, ok := e[f]; !ok {
				t.Errorf("%v lacks %s", e["bug_id"], f)
			}
		}
		byID[e["bug_id"].(string)] = e
	}
	want := map[string]string{
		"BUG-20260715-A7K3": "no-debate", "BUG-20260702-Q2R8": "done", "BUG-20260705-M8N2": "judge-failed",
		"BUG-20260610-K4M1": "done", "BUG-20260801-X9Z2": "interrupted", "BUG-20260720-R5T6": "no-debate",
	}
	for id, st := range want {
		if byID[id]["status"] != st {
			t.Errorf("%s status %v, want %s", id, byID[id]["status"], st)
		}
	}
	q := byID["BUG-20260702-Q2R8"]
	if q["mode"] != "diagnosis" || q["n"] != 3.0 || q["r"] != 2.0 || q["winner"] != "Proposta B" || q["cost_usd"].(float64) <= 0 || q["debates"] != 1.0 {
		t.Errorf("Q2R8: %v", q)
	}
	if byID["BUG-20260610-K4M1"]["debates"] != 2.0 || byID["BUG-20260715-A7K3"]["debates"] != 0.0 {
		t.Error("debate counts")
	}
	if testutil.Fingerprint(t, proj) != before {
		t.Error("list wrote something")
	}
	// the table form shows the same statuses
	_, table, _ := moot(t, proj, "list")
	for _, st := range []string{"judge-failed", "interrupted", "no-debate", "done (closed)"} {
		if !strings.Contains(table, st) {
			t.Errorf("table lacks %q:\n%s", st, table)
		}
	}
}

func TestListReportsBrokenBugsAndListsTheRest(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	bad := filepath.Join(proj, a7k3, "bug.md")
	os.WriteFile(bad, []byte("---\ntitle: [broken\n---\n"), 0o644)
	code, out, errOut := moot(t, proj, "list", "--json")
	if code != ExitUsage || !strings.Contains(errOut, bad) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var entries []map[string]any
	json.Unmarshal([]byte(out), &entries)
	unreadable := 0
	for _, e := range entries {
		if e["status"] == "unreadable" {
			unreadable++
		}
	}
	if len(entries) != 6 || unreadable != 1 {
		t.Errorf("%d bugs listed (%d unreadable), want the 5 readable ones and the broken one as unreadable", len(entries), unreadable)
	}
}

func TestListOutsideARegister(t *testing.T) {
	code, _, errOut := moot(t, t.TempDir(), "list")
	if code != ExitUsage || !strings.Contains(errOut, "_reversa_bugs") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestShow(t *testing.T) {
	proj := filepath.Join(testutil.RepoRoot(t), "testdata", "sample")
	code, out, errOut := moot(t, proj, "show", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"status | done", "**timeout**", "proposal B (agente-1)", "2 of 3 solvers took part", "Debate degradado"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
	_, out, _ = moot(t, proj, "show", "5", "--round", "2")
	if !strings.Contains(out, "## agente-3 — timeout") || !strings.Contains(out, "error: killed after") || !strings.Contains(out, "## agente-1 — ok") {
		t.Errorf("round 2 must show the timed-out solver:\n%s", out)
	}
	_, out, _ = moot(t, proj, "show", "5", "--final")
	if !strings.Contains(out, "labels: A = agente-2, B = agente-1") || !strings.Contains(out, "## Síntese") {
		t.Errorf("final:\n%s", out)
	}
	_, out, _ = moot(t, proj, "show", "5", "--problem")
	if !strings.Contains(out, "## Rubrica") || !strings.Contains(out, "mode **diagnosis**") {
		t.Errorf("problem:\n%s", out)
	}
	_, out, _ = moot(t, proj, "show", "5", "--convergence")
	if !strings.Contains(out, "| 2 | 2/3 |") {
		t.Errorf("convergence:\n%s", out)
	}
	// English form, interrupted half-way
	_, out, _ = moot(t, proj, "show", "9")
	if !strings.Contains(out, "cannot continue it call by call") || !strings.Contains(out, "round 1 lacks agent-2, agent-3, critic-1") || !strings.Contains(out, "`moot run BUG-20260801-X9Z2 --mode MODE` archives it") || !strings.Contains(out, "language en") {
		t.Errorf("interrupted english:\n%s", out)
	}
	_, out, _ = moot(t, proj, "show", "9", "--round", "1")
	if !strings.Contains(out, "## agent-2 — no file") {
		t.Errorf("a call without a file must be shown as such:\n%s", out)
	}
	// judge failed
	_, out, _ = moot(t, proj, "show", "6")
	if !strings.Contains(out, "status | judge-failed") || !strings.Contains(out, "tentativa-1.md") || !strings.Contains(out, "--winner A") {
		t.Errorf("judge failed:\n%s", out)
	}
	// an earlier debate
	_, out, _ = moot(t, proj, "show", "3", "--debate", "20260611T090000Z")
	if !strings.Contains(out, "debate-20260611T090000Z") {
		t.Errorf("--debate:\n%s", out)
	}
	for _, args := range [][]string{{"show", "6", "--final"}, {"show", "7", "--round", "4", "--final"}, {"show", "5", "--round", "9"}, {"show", "nope"}} {
		if code, _, _ := moot(t, proj, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, out, _ := moot(t, proj, "show", "7"); code != 0 || !strings.Contains(out, "no debate yet") {
		t.Errorf("no debate: %d %s", code, out)
	}
}

func TestPlanCountsAndWritesNothing(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	before := testutil.Fingerprint(t, proj)
	for _, tc := range []struct{ n, r, c int }{{2, 0, 0}, {3, 2, 0}, {3, 2, 1}, {5, 1, 2}, {8, 3, 0}, {4, 1, 3}, {2, 6, 1}} {
		args := []string{"plan", "7", "--json", "-n", fmt.Sprint(tc.n), "-r", fmt.Sprint(tc.r)}
		for i := 0; i < tc.c; i++ {
			args = append(args, "--critic", "scripted")
		}
		code, out, errOut := moot(t, proj, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
		var p struct {
			N, R, Critics int
			Calls         struct{ Solvers, Critics, Judge, Total int }
			Tokens        struct {
				Input, Output int
				Estimated     bool
			}
			USD     *float64 `json:"usd"`
			Mode    *string
			Formula string
		}
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		want := tc.n*(tc.r+1) + tc.c*tc.r + 1
		if p.Calls.Total != want || p.Calls.Solvers != tc.n*(tc.r+1) || p.Calls.Critics != tc.c*tc.r || p.Calls.Judge != 1 {
			t.Errorf("N=%d R=%d C=%d: calls %+v, want total %d", tc.n, tc.r, tc.c, p.Calls, want)
		}
		if p.N != tc.n || p.R != tc.r || p.Critics != tc.c || !p.Tokens.Estimated || p.Tokens.Input <= 0 || p.USD == nil || p.Mode != nil {
			t.Errorf("plan: %+v", p)
		}
		if wantF := fmt.Sprintf("%d×(%d+1) + %d×%d + 1 = %d calls", tc.n, tc.r, tc.c, tc.r, want); p.Formula != wantF {
			t.Errorf("formula %q, want %q", p.Formula, wantF)
		}
	}
	if testutil.Fingerprint(t, proj) != before {
		t.Error("plan wrote something")
	}
	// the text form shows the formula and marks estimates
	code, out, _ := moot(t, proj, "plan", "7", "--mode", "repair")
	if code != 0 || !strings.Contains(out, "3×(2+1) + 0×2 + 1 = 10 calls") || !strings.Contains(out, "estimate") {
		t.Errorf("text plan:\n%s", out)
	}
}

func TestPlanMoney(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	cfg := filepath.Join(proj, "_reversa_bugs", "moot.yaml")
	srv := fakeprovider.New()
	defer srv.Close()
	os.WriteFile(cfg, []byte("engines:\n  paid:\n    kind: openai\n    model: fake-model\n    base_url: "+srv.URL+"/v1\n    price: {input_per_mtok: 1.0, output_per_mtok: 2.0}\n    context_tokens: 128000\ndefaults: {solver: paid, judge: paid}\n"), 0o600)
	code, out, errOut := moot(t, proj, "plan", "7", "--json", "--mode", "diagnosis")
	if code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	var p struct {
		USD    float64 `json:"usd"`
		Tokens struct{ Input, Output int }
		Full   bool `json:"usd_complete"`
	}
	json.Unmarshal([]byte(out), &p)
	want := float64(p.Tokens.Input)*1.0/1e6 + float64(p.Tokens.Output)*2.0/1e6
	if !p.Full || p.USD <= 0 || fmt.Sprintf("%.6f", p.USD) != fmt.Sprintf("%.6f", want) {
		t.Errorf("usd %v, want %v (complete %v)", p.USD, want, p.Full)
	}
	// an engine that fails its probe is refused, saying why and what to do
	srv.Close()
	code, _, errOut = moot(t, proj, "plan", "7", "--mode", "diagnosis")
	if code != ExitUsage || !strings.Contains(errOut, "engine paid failed its probe") || !strings.Contains(errOut, "connection refused") {
		t.Errorf("unreachable engine: %d %s", code, errOut)
	}
	// a part of P larger than the smallest context window is refused
	os.WriteFile(cfg, []byte("engines:\n  tiny:\n    kind: openai\n    context_tokens: 100\n"), 0o600)
	code, out, errOut = moot(t, proj, "plan", "7")
	if code != ExitUsage || !strings.Contains(errOut, "bug.md is ≈") || !strings.Contains(errOut, "100-token context window of engine tiny") {
		t.Errorf("too large: %d %s %s", code, out, errOut)
	}
}

func TestPlanRefusals(t *testing.T) {
	proj := testutil.CopyTree(t, "sample")
	cfg := filepath.Join(proj, "_reversa_bugs", "moot.yaml")
	srv := fakeprovider.New()
	defer srv.Close()
	os.WriteFile(cfg, []byte("engines:\n  local:\n    kind: openai\n    model: fake-model\n    base_url: "+srv.URL+"/v1\n  codex:\n    kind: codex\ndefaults: {solver: local, judge: local}\n"), 0o600)
	before := testutil.Fingerprint(t, proj)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"restricted with an external solver", []string{"plan", "8", "--solver", "codex"}, "restricted"},
		{"restricted with an external judge", []string{"plan", "8", "--judge", "codex"}, "restricted"},
		{"closed bug", []string{"plan", "3"}, "DONE.md"},
		{"unknown engine", []string{"plan", "7", "--solver", "gpt9"}, "no engine named \"gpt9\""},
		{"wrong number of --solver", []string{"plan", "7", "-n", "3", "--solver", "local", "--solver", "local"}, "--solver given 2 times for 3 solvers"},
		{"N below 2", []string{"plan", "7", "-n", "1"}, "at least 2 solvers"},
		{"negative R", []string{"plan", "7", "-r", "-1"}, "cannot be negative"},
		{"unknown mode", []string{"plan", "7", "--mode", "guess"}, "unknown mode \"guess\""},
		{"bad parallel", []string{"plan", "7", "--parallel", "-2"}, "--parallel"},
		{"bad timeout", []string{"plan", "7", "--timeout", "0s"}, "--timeout"},
		{"missing bug", []string{"plan", "BUG-20990101-ZZZZ"}, "no bug"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := moot(t, proj, tt.args...)
			if code != ExitUsage || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q, want 2 and %q", code, errOut, tt.want)
			}
		})
	}
	if code, _, errOut := moot(t, proj, "plan", "8", "--solver", "local"); code != 0 {
		t.Errorf("restricted with local engines is fine: %d %s", code, errOut)
	}
	if testutil.Fingerprint(t, proj) != before {
		t.Error("a refused plan wrote something")
	}
}

func TestBrokenInputExitsTwoAndNamesTheFile(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(proj string) string // returns the file the message must name
		args   []string
	}{
		{"malformed front matter", func(p string) string {
			f := filepath.Join(p, a7k3, "bug.md")
			os.WriteFile(f, []byte("---\nid: [\n---\n"), 0o644)
			return f
		}, []string{"plan", a7k3}},
		{"missing bug.md", func(p string) string {
			f := filepath.Join(p, a7k3, "bug.md")
			os.Remove(f)
			return f
		}, []string{"show", a7k3}},
		{"symlink escaping the folder", func(p string) string {
			f := filepath.Join(p, a7k3, "evidence", "fora.txt")
			os.Symlink("/etc/hostname", f)
			return f
		}, []string{"plan", "7"}},
		{"unreadable file", func(p string) string {
			f := filepath.Join(p, a7k3, "evidence", "fechamento.log")
			os.Remove(f)
			os.Mkdir(f+".d", 0o755)
			os.Symlink("fechamento.log.d/nada", f)
			return f
		}, []string{"plan", "7"}},
		{"unknown mode in problema.md", func(p string) string {
			f := filepath.Join(p, "_reversa_bugs/checkout/bugs/BUG-20260702-Q2R8-frete-arredondado/debate/problema.md")
			raw, _ := os.ReadFile(f)
			os.WriteFile(f, []byte(strings.Replace(string(raw), "mode: diagnosis", "mode: vibes", 1)), 0o644)
			return f
		}, []string{"show", "5"}},
		{"malformed engines file", func(p string) string {
			f := filepath.Join(p, "_reversa_bugs", "moot.yaml")
			os.WriteFile(f, []byte("engines:\n  x:\n    kind: openai\n    timeout: soon\n"), 0o644)
			return f + ":4"
		}, []string{"plan", "7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj := testutil.CopyTree(t, "sample")
			file := tt.mutate(proj)
			before := testutil.Fingerprint(t, proj)
			code, _, errOut := moot(t, proj, tt.args...)
			if code != ExitUsage {
				t.Errorf("exit %d, want 2 (stderr %q)", code, errOut)
			}
			if !strings.Contains(errOut, file) {
				t.Errorf("stderr %q does not name %s", errOut, file)
			}
			if testutil.Fingerprint(t, proj) != before {
				t.Error("bad input changed the tree")
			}
		})
	}
}
