package review

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

func testConfig(t *testing.T, extra string) *harness.Config {
	t.Helper()
	cfg, err := harness.ParseConfig("moot.yaml", []byte(`engines:
  loc-big:
    kind: command
    command: [x]
    external: false
    family: alibaba
    context_tokens: 200000
  ext-small:
    kind: command
    command: [x]
    family: anthropic
    context_tokens: 8000
  ext-unknown:
    kind: command
    command: [x]
    family: google
  ext-big:
    kind: command
    command: [x]
    model: gpt-5
    context_tokens: 400000
`+extra))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The default ladder: external before local, larger known window first,
// an unknown window after the known ones.
func TestDefaultLadderOrder(t *testing.T) {
	got := strings.Join(DefaultLadder(testConfig(t, "")), ",")
	if want := "ext-big,ext-small,ext-unknown,loc-big"; got != want {
		t.Errorf("ladder %s, want %s", got, want)
	}
}

// The engines file's review.ladders: a lens's own, else default:.
func TestLadderOfConfig(t *testing.T) {
	cfg := testConfig(t, "review:\n  ladders:\n    security: [ext-small, loc-big]\n    default: [ext-big]\n")
	if got := strings.Join(LadderOf(cfg, "security"), ","); got != "ext-small,loc-big" {
		t.Errorf("security: %s", got)
	}
	if got := strings.Join(LadderOf(cfg, "defect"), ","); got != "ext-big" {
		t.Errorf("defect: %s", got)
	}
	if _, err := harness.ParseConfig("moot.yaml", []byte("engines:\n  a:\n    kind: command\n    command: [x]\nreview:\n  ladders:\n    security: [nope]\n")); err == nil || !strings.Contains(err.Error(), "review.ladders.security") {
		t.Errorf("an unknown engine in a ladder: %v", err)
	}
}

func TestBuilderFamily(t *testing.T) {
	cfg := testConfig(t, "")
	for in, want := range map[string]string{"ext-small": "anthropic", "ext-big": "openai", "claude-sonnet-4": "anthropic", "OpenAI": "openai", "": ""} {
		if got := BuilderFamily(cfg, in); got != want {
			t.Errorf("BuilderFamily(%q) = %q, want %q", in, got, want)
		}
	}
}

// Plan marks, before any call, the builder's family, the external rungs
// of a restricted bug, a failed probe and a window too small (its
// figures grouped as every count moot writes).
func TestPlanSkips(t *testing.T) {
	cfg := testConfig(t, "")
	prompt := func(l bugfolder.Lens) string { return strings.Repeat("x", 40000) } // ≈10k tokens
	in := RouteInput{Config: cfg, Lenses: []bugfolder.Lens{lensOf("defect")}, Builder: "openai", Prompt: prompt,
		Unusable: func(n string) string {
			if n == "ext-unknown" {
				return "failed its probe: not found"
			}
			return ""
		}}
	got := map[string]Status{}
	for _, g := range Plan(in)[0].Rungs {
		got[g.Engine] = g.Skip
		// a window too small says its figures as every count is written (10,000, not 10000)
		if g.Skip == StatusCapacity && !regexp.MustCompile(`needs ≈\d{1,3}(,\d{3})+ tokens \(prompt ≈\d{1,3}(,\d{3})+ \+ answer [\d,]+\), more than its [\d,]+-token window`).MatchString(g.Why) {
			t.Errorf("%s: why %q does not group its digits", g.Engine, g.Why)
		}
	}
	want := map[string]Status{"ext-big": StatusBuilder, "ext-small": StatusCapacity, "ext-unknown": StatusUnusable, "loc-big": ""}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	in.Restricted, in.Builder, in.Unusable = true, "", nil
	for _, g := range Plan(in)[0].Rungs {
		if g.External && g.Skip != StatusRestricted {
			t.Errorf("restricted: external %s not skipped (%q)", g.Engine, g.Skip)
		}
		if !g.External && g.Skip != "" {
			t.Errorf("restricted: local %s skipped", g.Engine)
		}
	}
}

func TestOnlyBuilderLeft(t *testing.T) {
	cfg := testConfig(t, "review:\n  ladders:\n    default: [ext-big]\n")
	in := RouteInput{Config: cfg, Lenses: []bugfolder.Lens{lensOf("defect")}, Builder: "openai", Prompt: func(bugfolder.Lens) string { return "" }}
	if !OnlyBuilderLeft(in, Plan(in)) {
		t.Error("only the builder's family is on the ladder")
	}
	in.Solo = true
	if OnlyBuilderLeft(in, Plan(in)) {
		t.Error("--solo lets it sit")
	}
	in.Solo, in.Builder = false, "anthropic"
	if OnlyBuilderLeft(in, Plan(in)) {
		t.Error("another family is left")
	}
}

// A round whose context is cancelled still writes every verdict file, the
// route table, the summary and the record before Run returns its error;
// a failed test check joins as moot's refuse.
func TestRunWritesEverythingBeforeTheError(t *testing.T) {
	cfg := testConfig(t, "")
	dir := t.TempDir()
	f, err := NewFolder(dir, fixedTime)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	call := func(ctx context.Context, name string, req harness.Request) harness.Result {
		if req.Lens == "security" {
			cancel()
			return harness.Result{Failure: harness.FailTimeout, Err: "killed"}
		}
		return harness.Result{Body: `{"lens":"` + req.Lens + `","verdict":"pass","findings":[],"checked":["x"]}`}
	}
	env := &envelope.Envelope{Contract: envelope.Contract{Intent: "i", Criteria: "c"}, Files: []envelope.File{{Path: "calc.go", Body: "package calc\n"}},
		Tests: []envelope.TestCheck{{Name: "false-green", Detail: "passes on red"}}}
	st := &State{ID: f.ID, Lenses: []bugfolder.Lens{lensOf("defect"), lensOf("security")}}
	prompt := func(l bugfolder.Lens) string { return Prompt(l, env.Render(), "n") }
	in := RouteInput{Config: cfg, Lenses: st.Lenses, Prompt: prompt}
	var events []engine.Event
	res, err := Run(ctx, RunInput{Folder: f, State: st, Envelope: env, Emit: func(ev engine.Event) { events = append(events, ev) },
		Round: RoundInput{Routes: Plan(in), Prompt: prompt, Calls: fakeCalls(call)}})
	if err == nil {
		t.Fatal("a cancelled round returned no error")
	}
	if res.Gate.Outcome != OutcomeRefuse {
		t.Errorf("gate %+v: moot's false green refuses", res.Gate)
	}
	for _, p := range []string{"round-1/verdicts/defect.json", "round-1/verdicts/security.json", "round-1/verdicts/moot.json", "round-1/routes.md", "round-1/envelope.md", "summary.md", "review.json", "eventos.jsonl", StampFile} {
		if _, err := os.Stat(filepath.Join(f.Dir, p)); err != nil {
			t.Errorf("%s not written: %v", p, err)
		}
	}
	sum, _ := os.ReadFile(filepath.Join(f.Dir, "summary.md"))
	if !strings.Contains(string(sum), "[moot] blocker: false green") {
		t.Errorf("summary lacks moot's refusal:\n%s", sum)
	}
	if events[len(events)-1].Type != engine.EvDebateFinished {
		t.Errorf("last event %s", events[len(events)-1].Type)
	}
}

func TestThinLadders(t *testing.T) {
	cfg := testConfig(t, "review:\n  ladders:\n    defect: [ext-big, ext-small, ext-unknown, loc-big]\n    security: [ext-big, loc-big]\n")
	in := RouteInput{Config: cfg, Lenses: []bugfolder.Lens{lensOf("defect"), lensOf("security")}, Prompt: func(bugfolder.Lens) string { return "" }}
	if got := strings.Join(ThinLadders(Plan(in)), ";"); got != "security (1)" {
		t.Errorf("thin ladders %q, want security (1)", got)
	}
}

// A verdict that fails to save is never reported as a pass: every juror
// passes, but defect.json cannot be written (a folder is in its place),
// so the record and the summary say error, name it, and Run returns it;
// a round folder moot did not create is refused before any call.
func TestRunAWriteFailureIsNeverAPass(t *testing.T) {
	cfg := testConfig(t, "")
	f, err := NewFolder(t.TempDir(), fixedTime)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	call := func(ctx context.Context, name string, req harness.Request) harness.Result {
		calls++
		os.MkdirAll(filepath.Join(f.Dir, "round-1", "verdicts", "defect.json", "x"), 0o700)
		return harness.Result{Body: `{"lens":"` + req.Lens + `","verdict":"pass","findings":[],"checked":["x"]}`}
	}
	env := &envelope.Envelope{Contract: envelope.Contract{Intent: "i", Criteria: "c"}, Files: []envelope.File{{Path: "calc.go", Body: "package calc\n"}}}
	st := &State{ID: f.ID, Lenses: []bugfolder.Lens{lensOf("defect")}}
	prompt := func(l bugfolder.Lens) string { return Prompt(l, env.Render(), "n") }
	routes := Plan(RouteInput{Config: cfg, Lenses: st.Lenses, Prompt: prompt})
	res, err := Run(context.Background(), RunInput{Folder: f, State: st, Envelope: env, Round: RoundInput{Routes: routes, Prompt: prompt, Calls: fakeCalls(call)}})
	if err == nil || !strings.Contains(err.Error(), "defect.json") {
		t.Fatalf("err %v, want the failed write named", err)
	}
	if res.Gate.Outcome != OutcomePass || st.Status != StatusError || !strings.Contains(st.Error, "defect.json") {
		t.Errorf("gate %s, status %q (%s): want the jurors' pass recorded as an error", res.Gate.Outcome, st.Status, st.Error)
	}
	sum, _ := os.ReadFile(filepath.Join(f.Dir, "summary.md"))
	if !strings.Contains(string(sum), "# Review "+f.ID+" — ERROR") || !strings.Contains(string(sum), "could not be saved") || strings.Contains(string(sum), "the gate opens") {
		t.Errorf("summary:\n%s", sum)
	}
	rec, _ := ReadState(f.Dir)
	if rec == nil || rec.Status != StatusError {
		t.Errorf("review.json status: %+v", rec)
	}

	st2 := &State{ID: f.ID, Lenses: st.Lenses, Rounds: st.Rounds} // round 2's folder is already there
	os.MkdirAll(filepath.Join(f.Dir, "round-2", "verdicts"), 0o700)
	calls = 0
	if _, err := Run(context.Background(), RunInput{Folder: f, State: st2, Envelope: env, Round: RoundInput{Routes: routes, Prompt: prompt, Calls: fakeCalls(call)}}); err == nil || calls != 0 {
		t.Errorf("a round folder moot did not create: err %v, %d call(s)", err, calls)
	}
}

// A cancelled round: the rung whose call was cut is a hold (it never
// answered), the rungs never called are not reached, and the record and
// summary say cancelled, never "fix the findings".
func TestRunCancelledRungsAreNotReached(t *testing.T) {
	cfg := testConfig(t, "review:\n  ladders:\n    defect: [ext-big, ext-small, ext-unknown]\n")
	f, err := NewFolder(t.TempDir(), fixedTime)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	call := func(ctx context.Context, name string, req harness.Request) harness.Result {
		calls++
		cancel()
		return harness.Result{Failure: harness.FailTimeout, Err: "interrupted"}
	}
	env := &envelope.Envelope{Contract: envelope.Contract{Intent: "i", Criteria: "c"}, Files: []envelope.File{{Path: "calc.go", Body: "package calc\n"}}}
	st := &State{ID: f.ID, Lenses: []bugfolder.Lens{lensOf("defect")}}
	prompt := func(l bugfolder.Lens) string { return "p" }
	routes := Plan(RouteInput{Config: cfg, Lenses: st.Lenses, Prompt: prompt})
	res, _ := Run(ctx, RunInput{Folder: f, State: st, Envelope: env, Round: RoundInput{Routes: routes, Prompt: prompt, Calls: fakeCalls(call)}})
	if calls != 1 {
		t.Errorf("%d calls after the cancel", calls)
	}
	atts := res.Seats[0].Attempts
	if len(atts) != 3 || atts[0].Status != StatusHold || atts[1].Status != StatusNotReached || atts[2].Status != StatusNotReached {
		t.Errorf("attempts %+v", atts)
	}
	sum, _ := os.ReadFile(filepath.Join(f.Dir, "summary.md"))
	if st.Status != StatusCancelled || !strings.Contains(string(sum), "CANCELLED") || strings.Contains(string(sum), "Fix every finding") {
		t.Errorf("status %q, summary:\n%s", st.Status, sum)
	}
}

// Without ladders in the engines file, consecutive lenses start on
// different families (once every lens
// sat on the strongest engine, one family); a family ruled out (the
// builder's) is not rotated to; a lens with its own ladder keeps it.
func TestPlanSpreadsLensesAcrossFamilies(t *testing.T) {
	lenses := []bugfolder.Lens{lensOf("defect"), lensOf("security"), lensOf("spec"), lensOf("tests")}
	prompt := func(bugfolder.Lens) string { return "p" }
	first := func(routes []Route) string {
		var out []string
		for _, r := range routes {
			for _, g := range r.Rungs {
				if g.Skip == "" {
					out = append(out, g.Engine)
					break
				}
			}
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		name, extra, builder, want string
	}{
		{"three families rotate, strongest first", "", "", "ext-big,ext-small,ext-unknown,ext-big"},
		{"the builder's family is not rotated to", "", "openai", "ext-small,ext-unknown,ext-small,ext-unknown"},
		{"a lens's own ladder is kept", "review:\n  ladders:\n    security: [ext-unknown, ext-big]\n", "", "ext-big,ext-unknown,ext-small,ext-unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			routes := Plan(RouteInput{Config: testConfig(t, c.extra), Lenses: lenses, Builder: c.builder, Prompt: prompt})
			if got := first(routes); got != c.want {
				t.Errorf("first callable rungs %s, want %s", got, c.want)
			}
			for _, r := range routes {
				if g := r.Rungs[len(r.Rungs)-1]; g.Engine != "loc-big" && len(r.Rungs) == 4 {
					t.Errorf("%s: the local rung is no longer the tail: %+v", r.Lens.Name, r.Rungs)
				}
			}
		})
	}
}

// The route table says which called rungs ran with reasoning off (an
// openai engine's verdict_reasoning_effort) and which could not, naming
// what was sent: think: false to an Ollama server (its probe found one),
// reasoning_effort to any other.
func TestRoutesSayWhereReasoningWasOff(t *testing.T) {
	cfg := testConfig(t, "  oai-off:\n    kind: openai\n    model: gpt-5\n    base_url: http://127.0.0.1:1/v1\n    verdict_reasoning_effort: none\n")
	for _, c := range []struct {
		ollama bool
		want   string
	}{
		{false, "off on oai-off (reasoning_effort: none)"},
		{true, "off on oai-off (think: false)"},
	} {
		routes := Plan(RouteInput{Config: cfg, Lenses: []bugfolder.Lens{lensOf("defect")}, Prompt: func(bugfolder.Lens) string { return "p" },
			Ollama: func(name string) bool { return c.ollama && name == "oai-off" }})
		var seat Seat
		for _, g := range routes[0].Rungs {
			st := StatusNotReached
			if g.Engine == "oai-off" || g.Engine == "ext-big" {
				st = StatusHold
			}
			seat.Attempts = append(seat.Attempts, Attempt{Rung: g, Status: st})
		}
		seat.Lens = "defect"
		got := RenderRoutes(&State{}, 1, []Seat{seat})
		for _, want := range []string{c.want, "engine default on ext-big (no verified switch"} {
			if !strings.Contains(got, want) {
				t.Errorf("ollama %v: route table lacks %q:\n%s", c.ollama, want, got)
			}
		}
	}
}
