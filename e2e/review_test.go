package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reversa/moot/internal/testutil"
)

// tribunal is a real git repository made in the test (a change of
// calc.go from one commit to the next) and an engines file outside it
// whose engines are the fake juror, each knowing its own name
// (FAKE_ENGINE) so FAKE_JURY can script it.
type tribunal struct {
	t       *testing.T
	repo    string
	cfg     string
	jurylog string
	jury    string
	home    string
}

// calcBase and calcChange are calc.go before and after the change.
const (
	calcBase   = "package calc\n\nfunc Total(p, q int) int { return p * q }\n"
	calcChange = "package calc\n\n// Total is the price of q items.\nfunc Total(p, q int) int { return p * q }\n"
)

// juryEngines are engines of three families: two external, one local.
const juryEngines = `engines:
  ext-anth:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: ext-anth}
    family: anthropic
  ext-oai:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: ext-oai}
    family: openai
  loc:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    env: {FAKE_ENGINE: loc}
    external: false
    family: alibaba
`

func newTribunal(t *testing.T, engines string) *tribunal {
	t.Helper()
	base := t.TempDir()
	tr := &tribunal{t: t, repo: filepath.Join(base, "repo"), cfg: filepath.Join(base, "cfg", "moot.yaml"),
		jurylog: filepath.Join(base, "jury.log"), home: base}
	if err := os.MkdirAll(tr.repo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(tr.cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	tr.git("init", "-q")
	tr.git("config", "user.name", "Ada Builder")
	tr.git("config", "user.email", "ada.builder@example.com")
	tr.write("calc.go", calcBase)
	tr.git("add", "calc.go")
	tr.git("commit", "-qm", "base")
	tr.write("calc.go", calcChange)
	tr.git("commit", "-qam", "document Total")
	tr.config(engines)
	return tr
}

func (tr *tribunal) git(args ...string) {
	tr.t.Helper()
	c := exec.Command("git", args...)
	c.Dir = tr.repo
	c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := c.CombinedOutput(); err != nil {
		tr.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func (tr *tribunal) write(rel, body string) {
	tr.t.Helper()
	if err := os.WriteFile(filepath.Join(tr.repo, rel), []byte(body), 0o644); err != nil {
		tr.t.Fatal(err)
	}
}

// config writes the engines file (the user's own: outside the project).
func (tr *tribunal) config(s string) {
	tr.t.Helper()
	if err := os.WriteFile(tr.cfg, []byte(strings.ReplaceAll(s, `"FAKE"`, `"`+fakeBin+`"`)), 0o600); err != nil {
		tr.t.Fatal(err)
	}
}

// review runs moot review in the repository with the config and --yes;
// without --builder (or --resume) it says --builder mistral, a family no
// juror of juryEngines is of (a review always knows who built the change).
func (tr *tribunal) review(args ...string) result {
	tr.t.Helper()
	if !slices.Contains(args, "--builder") && !slices.Contains(args, "--resume") {
		args = append(args, "--builder", "mistral")
	}
	return tr.run(append(append([]string{"review"}, args...), "--config", tr.cfg, "--yes")...)
}

// run runs moot in the repository.
func (tr *tribunal) run(args ...string) result {
	tr.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, mootBin, args...)
	c.Dir = tr.repo
	c.Env = append(os.Environ(), "FAKE_JURY="+tr.jury, "FAKE_JURYLOG="+tr.jurylog, "NO_COLOR=1",
		"XDG_CONFIG_HOME="+filepath.Join(tr.home, "xdg"), "XDG_CACHE_HOME="+filepath.Join(tr.home, "cache"))
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	if ctx.Err() != nil {
		tr.t.Fatalf("moot %v hung\n%s", args, errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		tr.t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

// calls are the juror calls made, "ENGINE LENS ROUND" each.
func (tr *tribunal) calls() []string {
	b, _ := os.ReadFile(tr.jurylog)
	return strings.Fields(strings.ReplaceAll(string(b), " ", "/"))
}

// reviews are the review folders written under the git root.
func (tr *tribunal) reviews() []string {
	ms, _ := filepath.Glob(filepath.Join(tr.repo, ".moot", "reviews", "*"))
	return ms
}

// only is the one review folder.
func (tr *tribunal) only() string {
	tr.t.Helper()
	rs := tr.reviews()
	if len(rs) != 1 {
		tr.t.Fatalf("want one review folder, got %v", rs)
	}
	return rs[0]
}

// seatFile is a lens's verdict file of a round, as moot wrote it.
type seatFile struct {
	Lens       string `json:"lens"`
	Outcome    string `json:"outcome"`
	Reason     string `json:"reason"`
	Engine     string `json:"engine"`
	Family     string `json:"family"`
	Verifier   string `json:"verifier"`
	Unverified bool   `json:"unverified"`
	Dry        bool   `json:"dry"`
	Findings   []struct {
		Severity, Claim, Evidence string
	} `json:"findings"`
	Attempts []struct {
		Engine  string          `json:"engine"`
		Status  string          `json:"status"`
		Reason  string          `json:"reason"`
		RawTail string          `json:"raw_tail"`
		Raw     string          `json:"raw"`
		Verdict json.RawMessage `json:"verdict"`
	} `json:"attempts"`
}

func (tr *tribunal) seat(dir string, round int, lens string) seatFile {
	tr.t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "round-"+itoa(round), "verdicts", lens+".json"))
	if err != nil {
		tr.t.Fatalf("verdict file of %s round %d: %v", lens, round, err)
	}
	var s seatFile
	if err := json.Unmarshal(b, &s); err != nil {
		tr.t.Fatal(err)
	}
	return s
}

func readText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var change = []string{"--change", "HEAD~1..HEAD", "--contract", "document Total | Total has a doc comment"}

// An envelope that names the builder (a commit author) or carries a
// Co-authored-by trailer is refused with exit 2 before any juror is
// called, and nothing is written.
func TestReviewIdentityLeakExits2BeforeAnyCall(t *testing.T) {
	t.Parallel()
	for _, leak := range []string{"// reviewed with Ada Builder\n", "// Co-authored-by: someone <x@y.z>\n"} {
		tr := newTribunal(t, juryEngines)
		tr.write("calc.go", calcChange+leak)
		tr.git("commit", "-qam", "leak")
		r := tr.review(change...)
		if r.code != 2 || !strings.Contains(r.stderr, "calc.go") {
			t.Fatalf("leak %q: exit %d, want 2 naming calc.go\n%s", leak, r.code, r.stderr)
		}
		if c := tr.calls(); len(c) != 0 {
			t.Errorf("leak %q: jurors were called: %v", leak, c)
		}
		if rs := tr.reviews(); len(rs) != 0 {
			t.Errorf("leak %q: a review folder was written: %v", leak, rs)
		}
	}
}

// What names no author is no leak: an engine's name too short to tell
// from code ("loc") and a family a vendor's name that code mentions (the
// builder's family "openai" in a comment); a ladder engine's model id in
// the change is a leak (distinctive engine names: TestReviewScansEngineNames).
func TestReviewIdentityScanNamesAuthorsAndModelsOnly(t *testing.T) {
	t.Parallel()
	engines := strings.Replace(juryEngines, "    family: anthropic\n", "    family: anthropic\n    model: claude-sonnet-4\n", 1)
	tr := newTribunal(t, engines)
	tr.write("calc.go", calcChange+"// loc counts lines; the openai client is not used here\n")
	tr.git("commit", "-qam", "words")
	if r := tr.review(append(change, "--builder", "openai", "--lens", "defect")...); r.code == 2 {
		t.Fatalf("an engine's name or a family in the code was taken for a leak:\n%s", r.stderr)
	}
	tr2 := newTribunal(t, engines)
	tr2.write("calc.go", calcChange+"// tuned with claude-sonnet-4\n")
	tr2.git("commit", "-qam", "model")
	if r := tr2.review(append(change, "--builder", "openai", "--lens", "defect")...); r.code != 2 || !strings.Contains(r.stderr, "calc.go") {
		t.Fatalf("a ladder engine's model id in the change: exit %d, want 2 naming calc.go\n%s", r.code, r.stderr)
	}
}

// --builder excludes every rung of its family loudly, before dispatch,
// and the route table of the live ladder shows each seat fell to another
// family; every lens passes, so the gate opens (exit 0), and every file
// of the folder is owner-only.
func TestReviewBuilderExcludedOnTheLiveLadderAndUnanimityExits0(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-oai, ext-anth, loc]\n")
	r := tr.review(append(change, "--builder", "gpt-5", "--lens", "defect", "--lens", "security")...)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 (unanimous pass)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "builder family openai: excluded from every ladder: ext-oai") {
		t.Errorf("the exclusion was not printed before dispatch:\n%s", r.stderr)
	}
	for _, c := range tr.calls() {
		if strings.HasPrefix(c, "ext-oai/") {
			t.Errorf("a rung of the builder's family was called: %s", c)
		}
	}
	dir := tr.only()
	for _, lens := range []string{"defect", "security"} {
		s := tr.seat(dir, 1, lens)
		if s.Outcome != "pass" || s.Engine != "ext-anth" || s.Family != "anthropic" {
			t.Errorf("%s: seat %+v, want a pass by ext-anth (anthropic)", lens, s)
		}
		if s.Attempts[0].Engine != "ext-oai" || s.Attempts[0].Status != "builder-family" {
			t.Errorf("%s: first rung %+v, want ext-oai builder-family", lens, s.Attempts[0])
		}
	}
	routes := readText(t, filepath.Join(dir, "round-1", "routes.md"))
	for _, want := range []string{"Builder family: openai", "| ext-oai | openai | true | builder-family |", "seat: ext-anth, family anthropic"} {
		if !strings.Contains(routes, want) {
			t.Errorf("routes.md lacks %q:\n%s", want, routes)
		}
	}
	if sum := readText(t, filepath.Join(dir, "summary.md")); !strings.Contains(sum, "unanimous pass") {
		t.Errorf("summary:\n%s", sum)
	}
	checkOwnerOnly(t, dir)
}

// checkOwnerOnly fails on any file of dir not 0600 or folder not 0700.
func checkOwnerOnly(t *testing.T, dir string) {
	t.Helper()
	n := 0
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		want := os.FileMode(0o600)
		if fi.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s is %o, want %o", p, fi.Mode().Perm(), want)
		}
		n++
		return nil
	})
	if n < 6 {
		t.Errorf("only %d entries in %s", n, dir)
	}
}

// Each verdict rule of docs/protocols/review.md, on the live ladder.
func TestReviewVerdictRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		jury   string
		lenses []string
		extra  []string
		code   int
		check  func(t *testing.T, tr *tribunal, dir string, r result)
	}{
		{"a pass listing a blocker is a refuse", "*/defect=blockerpass", []string{"defect"}, nil, 4,
			func(t *testing.T, tr *tribunal, dir string, r result) {
				s := tr.seat(dir, 1, "defect")
				if s.Outcome != "refuse" || !strings.Contains(s.Reason, "blocker") {
					t.Errorf("seat %+v", s)
				}
				if !strings.Contains(r.stdout, "[defect] blocker: Total overflows") {
					t.Errorf("the finding was not printed:\n%s", r.stdout)
				}
			}},
		{"wrong lens: rejected rung, raw tail kept, next rung sits", "ext-anth/defect=wronglens", []string{"defect"}, nil, 0,
			func(t *testing.T, tr *tribunal, dir string, r result) {
				s := tr.seat(dir, 1, "defect")
				a := s.Attempts[0]
				if a.Status != "wrong-lens" || !strings.Contains(a.RawTail, `"lens":"security"`) || !strings.Contains(a.Reason, "security") {
					t.Errorf("first rung %+v", a)
				}
				if s.Outcome != "pass" || s.Engine != "ext-oai" {
					t.Errorf("seat %+v, want ext-oai's pass", s)
				}
				if !strings.Contains(readText(t, filepath.Join(dir, "round-1", "routes.md")), `"lens":"security"`) {
					t.Error("routes.md does not keep the rejected rung's raw tail")
				}
			}},
		{"a capitalised lens is a wrong lens: the next rung sits", "ext-anth/defect=lenscase", []string{"defect"}, nil, 0,
			func(t *testing.T, tr *tribunal, dir string, r result) {
				s := tr.seat(dir, 1, "defect")
				if a := s.Attempts[0]; a.Status != "wrong-lens" || !strings.Contains(a.Reason, `"Defect"`) {
					t.Errorf("first rung %+v, want wrong-lens naming \"Defect\"", a)
				}
				if s.Outcome != "pass" || s.Engine != "ext-oai" {
					t.Errorf("seat %+v, want ext-oai's pass", s)
				}
			}},
		{"a verdict without findings is garbage: refuse", "ext-anth/defect=nofindings", []string{"defect"}, nil, 4,
			func(t *testing.T, tr *tribunal, dir string, r result) {
				if s := tr.seat(dir, 1, "defect"); s.Outcome != "refuse" || !strings.Contains(s.Reason, "findings") {
					t.Errorf("seat %+v, want a refuse naming findings", s)
				}
			}},
		{"garbage counts as refuse, no retry", "ext-anth/defect=garbage", []string{"defect"}, nil, 4,
			func(t *testing.T, tr *tribunal, dir string, r result) {
				s := tr.seat(dir, 1, "defect")
				if s.Outcome != "refuse" || !strings.Contains(s.Reason, "unreadable") {
					t.Errorf("seat %+v", s)
				}
				if c := tr.calls(); len(c) != 1 {
					t.Errorf("calls %v: one shot per juror", c)
				}
			}},
		{"never answered is a hold, the next rung sits", "ext-anth/defect=hang", []string{"defect"}, []string{"--timeout", "2s"}, 0,
			func(t *testing.T, tr *tribunal, dir string, r result) {
				s := tr.seat(dir, 1, "defect")
				if s.Attempts[0].Status != "hold" || s.Engine != "ext-oai" || s.Outcome != "pass" {
					t.Errorf("seat %+v", s)
				}
			}},
		{"dry passes never outweigh a detailed refuse", "*/defect=drypass,*/security=drypass,*/tests=refuse", []string{"defect", "security", "tests"}, nil, 4,
			func(t *testing.T, tr *tribunal, dir string, r result) {
				sum := readText(t, filepath.Join(dir, "summary.md"))
				if !strings.Contains(sum, "a detailed refuse stands: 2 dry pass(es) never outweigh it") {
					t.Errorf("summary:\n%s", sum)
				}
			}},
		{"a gate of only dry passes holds", "*/*=drypass", []string{"defect", "security"}, nil, 4,
			func(t *testing.T, tr *tribunal, dir string, r result) {
				if !strings.Contains(r.stdout, "HOLD") || !strings.Contains(r.stdout, "every pass is dry") {
					t.Errorf("stdout:\n%s", r.stdout)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := newTribunal(t, juryEngines)
			tr.jury = c.jury
			args := append([]string{}, change...)
			for _, l := range c.lenses {
				args = append(args, "--lens", l)
			}
			r := tr.review(append(args, c.extra...)...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", r.code, c.code, r.stdout, r.stderr)
			}
			c.check(t, tr, tr.only(), r)
		})
	}
}

// A local engine's pass with no external verifier of another family is
// UNVERIFIED, a hold; with one below it on the ladder, the verifier
// judges the same prompt and the pass stands.
func TestReviewLocalPassNeedsAVerifier(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    defect: [loc]\n    security: [loc, ext-anth]\n")
	r := tr.review(append(change, "--lens", "defect", "--lens", "security")...)
	if r.code != 4 {
		t.Fatalf("exit %d, want 4\n%s%s", r.code, r.stdout, r.stderr)
	}
	dir := tr.only()
	if s := tr.seat(dir, 1, "defect"); s.Outcome != "hold" || !s.Unverified || !strings.Contains(s.Reason, "UNVERIFIED") {
		t.Errorf("defect %+v, want an UNVERIFIED hold", s)
	}
	if s := tr.seat(dir, 1, "security"); s.Outcome != "pass" || s.Engine != "loc" || s.Verifier != "ext-anth" {
		t.Errorf("security %+v, want loc's pass verified by ext-anth", s)
	}
}

// A rung whose context window cannot hold the prompt is skipped before
// the call (capacity); a lens whose only rung is the builder's holds.
func TestReviewCapacitySkipAndALensWithNoRungHolds(t *testing.T) {
	t.Parallel()
	tiny := "  tiny:\n    kind: command\n    command: [\"FAKE\"]\n    env_passthrough: [\"FAKE_*\"]\n    env: {FAKE_ENGINE: tiny}\n    family: google\n    context_tokens: 300\n"
	tr := newTribunal(t, juryEngines+tiny+"review:\n  ladders:\n    defect: [tiny, ext-anth]\n    security: [ext-oai]\n")
	r := tr.review(append(change, "--lens", "defect", "--lens", "security", "--builder", "openai")...)
	if r.code != 4 {
		t.Fatalf("exit %d, want 4\n%s%s", r.code, r.stdout, r.stderr)
	}
	dir := tr.only()
	d := tr.seat(dir, 1, "defect")
	if d.Attempts[0].Status != "capacity" || d.Engine != "ext-anth" || d.Outcome != "pass" {
		t.Errorf("defect %+v, want tiny skipped for capacity and ext-anth seated", d)
	}
	for _, c := range tr.calls() {
		if strings.HasPrefix(c, "tiny/") {
			t.Errorf("the capacity-skipped rung was called: %s", c)
		}
	}
	if s := tr.seat(dir, 1, "security"); s.Outcome != "hold" || !strings.Contains(s.Reason, "no rung left") {
		t.Errorf("security %+v, want a hold with no rung left", s)
	}
}

// The solo rig: with only the builder's family available, review exits 2
// unless --solo, and with it the report names the weakened gate.
func TestReviewSoloRig(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, `engines:
  oai-a:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    family: openai
  oai-b:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    model: gpt-5
`)
	args := append(change, "--builder", "openai", "--lens", "defect")
	r := tr.review(args...)
	if r.code != 2 || !strings.Contains(r.stderr, "--solo") {
		t.Fatalf("exit %d, want 2 naming --solo\n%s", r.code, r.stderr)
	}
	if len(tr.calls()) != 0 || len(tr.reviews()) != 0 {
		t.Fatalf("without --solo something was called or written")
	}
	r = tr.review(append(args, "--solo")...)
	if r.code != 0 {
		t.Fatalf("--solo: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	sum := readText(t, filepath.Join(tr.only(), "summary.md"))
	if !strings.Contains(sum, "blind same-family, not cross-family") || !strings.Contains(r.stdout, "blind same-family, not cross-family") {
		t.Errorf("the degraded gate is not named:\n%s\n%s", sum, r.stdout)
	}
	// oai-b is openai by its model: of the builder's family in every
	// message (it said "no rung of family openai" before "solo rig")
	if strings.Contains(r.stderr, "no rung of family") || !strings.Contains(r.stderr, "its rungs sit blind (oai-a, oai-b)") {
		t.Errorf("--solo's messages contradict each other or miss a rung of the builder's family:\n%s", r.stderr)
	}

	// with another family available, --solo degrades nothing
	tr2 := newTribunal(t, juryEngines)
	r = tr2.review(append(change, "--builder", "openai", "--lens", "defect", "--solo")...)
	if r.code != 0 || !strings.Contains(r.stderr, "--solo unused") || strings.Contains(r.stdout, "blind same-family") {
		t.Fatalf("--solo beside another family: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range tr2.calls() {
		if strings.HasPrefix(c, "ext-oai/") {
			t.Errorf("the builder's family sat although another could: %s", c)
		}
	}
}

// --resume rebuilds the envelope from the current files and re-convenes
// every juror; new findings stable two rounds in a row stall the review
// as a pending human decision.
func TestReviewResumeReconvenesEveryJurorAndStalls(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.jury = "*/defect@1=refuse"
	lenses := []string{"--lens", "defect", "--lens", "security"}
	r := tr.review(append(change, lenses...)...)
	if r.code != 4 || !strings.Contains(r.stdout, "[defect] major: Total ignores the discount cap") {
		t.Fatalf("round 1: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	dir := tr.only()
	id := filepath.Base(dir)
	tr.write("calc.go", calcChange+"\n// Cap is the discount cap.\nconst Cap = 10\n")
	tr.git("commit", "-qam", "cap") // HEAD~1..HEAD now ends at the fix, on disk and in git
	tr.jury = ""
	r = tr.review("--resume", id)
	if r.code != 0 {
		t.Fatalf("round 2: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var round2 []string
	for _, c := range tr.calls() {
		if strings.HasSuffix(c, "/2") {
			round2 = append(round2, c)
		}
	}
	if len(round2) != 2 {
		t.Errorf("round 2 calls %v: every juror is re-convened", round2)
	}
	if env := readText(t, filepath.Join(dir, "round-2", "envelope.md")); !strings.Contains(env, "const Cap = 10") {
		t.Errorf("round 2's envelope is not built from the current files:\n%s", env)
	}

	// a new review whose new findings do not shrink stalls after round 2
	tr2 := newTribunal(t, juryEngines)
	tr2.jury = "*/defect=refusenew"
	if r := tr2.review(append(change, lenses...)...); r.code != 4 {
		t.Fatalf("stall round 1: exit %d\n%s", r.code, r.stderr)
	}
	id2 := filepath.Base(tr2.only())
	r = tr2.review("--resume", id2)
	if r.code != 4 || !strings.Contains(r.stdout, "stalled") || !strings.Contains(r.stdout, "moot decide "+id2) {
		t.Fatalf("stall round 2: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	st := readText(t, filepath.Join(tr2.only(), "review.json"))
	if !strings.Contains(st, `"status": "stalled"`) || !strings.Contains(st, `"decision": "pending"`) {
		t.Errorf("review.json:\n%s", st)
	}
}

// moot refuses to write into a folder of a review's shape it did not
// stamp, naming the files, and deletes nothing.
func TestReviewRefusesAnUnstampedFolder(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	dir := filepath.Join(tr.repo, ".moot", "reviews", "20200101-000000")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.md"), []byte("someone else's\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := tr.review("--resume", "20200101-000000")
	if r.code != 2 || !strings.Contains(r.stderr, "summary.md") || !strings.Contains(r.stderr, "stamp") {
		t.Fatalf("exit %d, want 2 naming summary.md and the stamp\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "summary.md")); string(b) != "someone else's\n" {
		t.Errorf("summary.md was touched: %q", b)
	}
	if len(tr.calls()) != 0 {
		t.Error("jurors were called")
	}
}

// A stalled review is listed with its pending decision; moot decide takes
// its ID and writes decisao.md (owner-only) in its folder; show and
// transcript print its summary; a second decision is refused.
func TestReviewStalledIsDecidedListedAndShown(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.jury = "*/defect=refusenew"
	if r := tr.review(append(change, "--lens", "defect")...); r.code != 4 {
		t.Fatalf("round 1: exit %d\n%s", r.code, r.stderr)
	}
	dir := tr.only()
	id := filepath.Base(dir)
	if r := tr.run("decide", id, "approve"); r.code != 2 {
		t.Fatalf("decide before the stall: exit %d, want 2 (nothing pending)\n%s", r.code, r.stderr)
	}
	if r := tr.review("--resume", id); r.code != 4 {
		t.Fatalf("round 2: exit %d\n%s", r.code, r.stderr)
	}
	entry := func() map[string]any {
		r := tr.run("list", "--json")
		if r.code != 0 {
			t.Fatalf("list: exit %d\n%s", r.code, r.stderr)
		}
		var es []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &es); err != nil {
			t.Fatalf("list --json: %v\n%s", err, r.stdout)
		}
		for _, e := range es {
			if e["bug_id"] == id {
				return e
			}
		}
		t.Fatalf("review %s not listed:\n%s", id, r.stdout)
		return nil
	}
	if e := entry(); e["kind"] != "review" || e["protocol"] != "review" || e["status"] != "stalled" || e["decision"] != "pending" {
		t.Errorf("listed as %v", e)
	}
	if r := tr.run("decide", id, "approve", "--note", "ship it"); r.code != 0 {
		t.Fatalf("decide: exit %d\n%s", r.code, r.stderr)
	}
	if fi, err := os.Stat(filepath.Join(dir, "decisao.md")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("decisao.md: %v %v", fi, err)
	}
	if e := entry(); e["decision"] != "approve" {
		t.Errorf("after decide listed as %v", e)
	}
	if r := tr.run("decide", id, "decline"); r.code != 2 {
		t.Errorf("a second decision: exit %d, want 2", r.code)
	}
	for _, cmd := range []string{"show", "transcript"} {
		if r := tr.run(cmd, id); r.code != 0 || !strings.Contains(r.stdout, "# Review "+id+" — STALLED") {
			t.Errorf("%s %s: exit %d\n%s%s", cmd, id, r.code, r.stdout, r.stderr)
		}
	}
}

// On a restricted bug no external engine sits: every external rung is
// skipped (restricted) and never called, the local seat's pass has no
// verifier and holds UNVERIFIED; the review lives in the bug's review/
// folder, its summary in the register's language.
func TestReviewOnARestrictedBug(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	sample := testutil.CopyTree(t, "sample")
	if err := os.Rename(filepath.Join(sample, "_reversa_bugs"), filepath.Join(tr.repo, "_reversa_bugs")); err != nil {
		t.Fatal(err)
	}
	bug := filepath.Join("_reversa_bugs", "auth", "bugs", "BUG-20260720-R5T6-sessao-nao-expira")
	r := tr.review(append([]string{bug}, append(change, "--lens", "defect")...)...)
	if r.code != 4 {
		t.Fatalf("exit %d, want 4\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range tr.calls() {
		if !strings.HasPrefix(c, "loc/") {
			t.Errorf("an external engine read a restricted bug: %s", c)
		}
	}
	ms, _ := filepath.Glob(filepath.Join(tr.repo, bug, "review", "*"))
	if len(ms) != 1 {
		t.Fatalf("review folders under the bug: %v", ms)
	}
	s := tr.seat(ms[0], 1, "defect")
	if s.Outcome != "hold" || !s.Unverified || s.Attempts[0].Status != "restricted" {
		t.Errorf("seat %+v", s)
	}
	if _, err := os.Stat(filepath.Join(ms[0], "resumo.md")); err != nil {
		t.Errorf("a Portuguese register's summary is resumo.md: %v", err)
	}
	checkOwnerOnly(t, ms[0])
}

// Headless without --yes the plan is printed and nothing is called or
// written (exit 4); with --json the events are the log's own lines.
func TestReviewPlanNeedsYesAndJSONIsTheLog(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	r := tr.run(append([]string{"review", "--config", tr.cfg, "--json", "--lens", "defect", "--builder", "mistral"}, change...)...)
	if r.code != 4 || !strings.Contains(r.stdout, `"protocol": "review"`) || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("without --yes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if len(tr.calls()) != 0 || len(tr.reviews()) != 0 {
		t.Fatal("without --yes something was called or written")
	}
	r = tr.review(append(change, "--lens", "defect", "--json")...)
	if r.code != 0 {
		t.Fatalf("--json: exit %d\n%s", r.code, r.stderr)
	}
	types := map[string]bool{}
	var logged []string // every line but output deltas, which are never logged
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		types[ev["type"].(string)] = true
		if ev["type"] != "output" {
			logged = append(logged, line)
		}
	}
	for _, want := range []string{"plan", "round_started", "rung", "call_started", "call_finished", "verdict", "debate_finished"} {
		if !types[want] {
			t.Errorf("no %s event in --json: %v", want, types)
		}
	}
	if log := strings.TrimSpace(readText(t, filepath.Join(tr.only(), "eventos.jsonl"))); log != strings.Join(logged, "\n") {
		t.Errorf("--json and eventos.jsonl differ:\n%s\n---\n%s", r.stdout, log)
	}
	if !types["output"] {
		t.Error("no output event: a live pane would show no text")
	}
}

// --files reviews the files named, as they are on disk.
func TestReviewFilesReadsTheFilesOnDisk(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.write("calc.go", calcChange+"// not committed yet\n")
	r := tr.review("--files", "calc.go", "--contract", "document Total | Total has a doc comment", "--lens", "defect")
	if r.code != 0 {
		t.Fatalf("--files: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if env := readText(t, filepath.Join(tr.only(), "round-1", "envelope.md")); !strings.Contains(env, "// not committed yet") {
		t.Errorf("the envelope is not the file on disk:\n%s", env)
	}
}

// moot's own test checks: a test that passes on the red commit's code is
// a false green, a refuse in moot's own name (lens moot) printed with the
// jurors' findings.
func TestReviewTestChecksFalseGreen(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.write("calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {}\n")
	tr.git("add", "calc_test.go")
	tr.git("commit", "-qm", "red: the contract test")
	out, err := exec.Command("git", "-C", tr.repo, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	red := strings.TrimSpace(string(out))
	tr.write("calc.go", calcChange+"\n// Cap is the discount cap.\nconst Cap = 10\n")
	tr.git("commit", "-qam", "the fix")
	r := tr.review("--change", red+"..HEAD", "--contract", "cap the discount | Total never exceeds Cap", "--lens", "defect",
		"--test-cmd", "true", "--red", red)
	if r.code != 4 || !strings.Contains(r.stdout, "[moot] blocker: false green") {
		t.Fatalf("exit %d, want 4 with moot's false green\n%s%s", r.code, r.stdout, r.stderr)
	}
	if s := tr.seat(tr.only(), 1, "moot"); s.Outcome != "refuse" {
		t.Errorf("moot's verdict file: %+v", s)
	}
}

// A builder's rung below the seat is still written as excluded, with why:
// the route table shows the exclusion held on the live ladder, never that
// the rung was merely not needed.
func TestReviewExcludedRungBelowTheSeatKeepsWhy(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines+"review:\n  ladders:\n    default: [ext-anth, ext-oai]\n")
	if r := tr.review(append(change, "--builder", "openai", "--lens", "defect")...); r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	routes := readText(t, filepath.Join(tr.only(), "round-1", "routes.md"))
	if !strings.Contains(routes, "| ext-oai | openai | true | builder-family |") || strings.Contains(routes, "not-reached") {
		t.Errorf("the builder's rung below the seat is not written as excluded:\n%s", routes)
	}
}

// A refusal for want of another family says why the other families'
// engines may not sit: an engine whose program is missing is named with
// its failed probe, not left out of the message.
func TestReviewRefusalNamesTheEnginesThatMayNotSit(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, `engines:
  oai-a:
    kind: command
    command: ["FAKE"]
    env_passthrough: ["FAKE_*"]
    family: openai
  juror-a:
    kind: command
    command: ["./no-such-juror.sh"]
    family: anthropic
`)
	r := tr.review(append(change, "--builder", "openai", "--lens", "defect")...)
	if r.code != 2 || !strings.Contains(r.stderr, "juror-a (failed its probe") || !strings.Contains(r.stderr, "may not sit either") {
		t.Fatalf("exit %d, want 2 naming juror-a and why it may not sit\n%s", r.code, r.stderr)
	}
	if len(tr.calls()) != 0 || len(tr.reviews()) != 0 {
		t.Fatalf("something was called or written")
	}
}
