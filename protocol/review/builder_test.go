package review

import (
	"slices"
	"strings"
	"testing"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
)

// ResolveBuilder asks --builder, then the change's trailers, then the
// engines file's review.builder; with none it is an error naming what to
// say; trailers naming two families, or another family than
// review.builder's, are no answer.
func TestResolveBuilder(t *testing.T) {
	cfg := testConfig(t, "")
	withDefault := testConfig(t, "review:\n  builder: google\n")
	anthropic := testConfig(t, "review:\n  builder: anthropic\n")
	cases := []struct {
		name     string
		cfg      *harness.Config
		flag     string
		trailers []string
		want     string
		src      BuilderSource
		err      string
	}{
		{"flag wins", withDefault, "ext-small", []string{"Claude <noreply@anthropic.com>"}, "ext-small", FromFlag, ""},
		{"unknown said", cfg, "Unknown", nil, UnknownBuilder, FromFlag, ""},
		{"a typo", cfg, "opneai", nil, "", FromFlag, "opneai"},
		{"a trailer's name", cfg, "", []string{"Ada Lovelace <ada@example.org>", "Claude <noreply@anthropic.com>"}, "Claude", FromTrailers, ""},
		{"a trailer of the engines file's family", anthropic, "", []string{"Claude <noreply@anthropic.com>"}, "Claude", FromTrailers, ""},
		{"a trailer against the engines file", withDefault, "", []string{"Claude <noreply@anthropic.com>"}, "", FromTrailers, "review.builder"},
		{"a trailer's email domain", cfg, "", []string{"Bot <bot@openai.com>"}, "openai", FromTrailers, ""},
		{"a trailer's model", cfg, "", []string{"gpt-5"}, "gpt-5", FromTrailers, ""},
		{"a person's name is no model", withDefault, "", []string{"Phil Gemmason <phil@example.org>"}, "google", FromConfig, ""},
		{"two families", cfg, "", []string{"Claude <noreply@anthropic.com>", "codex"}, "", FromTrailers, "several families"},
		{"the engines file", withDefault, "", nil, "google", FromConfig, ""},
		{"nothing", cfg, "", []string{"Ada Lovelace <ada@example.org>"}, "", "", "--builder unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, src, err := ResolveBuilder(BuilderInput{Config: c.cfg, Flag: c.flag, Trailers: c.trailers})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want one naming %q", err, c.err)
				}
				return
			}
			if err != nil || got != c.want || src != c.src {
				t.Errorf("got %q from %q (%v), want %q from %q", got, src, err, c.want, c.src)
			}
		})
	}
}

// The engines file's review.builder names something known, never
// "unknown".
func TestReviewBuilderFieldIsChecked(t *testing.T) {
	base := "engines:\n  a:\n    kind: command\n    command: [x]\n    family: acme\nreview:\n  builder: "
	for _, ok := range []string{"a", "acme", "openai", "claude-sonnet-4"} {
		if _, err := harness.ParseConfig("moot.yaml", []byte(base+ok+"\n")); err != nil {
			t.Errorf("builder: %s: %v", ok, err)
		}
	}
	for _, bad := range []string{"unknown", "opneai", "[a, b]"} {
		if _, err := harness.ParseConfig("moot.yaml", []byte(base+bad+"\n")); err == nil || !strings.Contains(err.Error(), "review.builder") {
			t.Errorf("builder: %s: %v, want an error naming review.builder", bad, err)
		}
	}
}

// A builder engine is excluded by name whatever its family; an engine of
// unknown family is skipped (unknown-family) unless unknown families may
// sit; a lens with no callable local rung has no survival rung.
func TestPlanExcludesTheBuilderEngineAndUnknownFamilies(t *testing.T) {
	cfg := testConfig(t, `  bot:
    kind: command
    command: [x]
  gpt-bot:
    kind: command
    command: [x]
review:
  ladders:
    defect: [bot, gpt-bot, ext-small, loc-big]
    security: [ext-small]
`)
	lenses := []bugfolder.Lens{lensOf("defect"), lensOf("security")}
	prompt := func(bugfolder.Lens) string { return "" }
	skips := func(in RouteInput) map[string]Status {
		got := map[string]Status{}
		for _, g := range Plan(in)[0].Rungs {
			got[g.Engine] = g.Skip
		}
		return got
	}
	in := RouteInput{Config: cfg, Lenses: lenses, Builder: BuilderFamily(cfg, "gpt-bot"), BuilderEngine: BuilderEngine(cfg, "gpt-bot"), Prompt: prompt}
	if got := skips(in); got["gpt-bot"] != StatusBuilder || got["bot"] != StatusUnknownFamily || got["ext-small"] != "" {
		t.Errorf("builder gpt-bot: %v", got)
	}
	in = RouteInput{Config: cfg, Lenses: lenses, Builder: BuilderFamily(cfg, "bot"), BuilderEngine: "bot", AllowUnknownFamily: true, Prompt: prompt}
	if got := skips(in); got["bot"] != StatusBuilder || got["gpt-bot"] != "" {
		t.Errorf("builder bot with unknown families allowed: %v", got)
	}
	if got := NoSurvival(Plan(in)); !slices.Equal(got, []string{"security"}) {
		t.Errorf("lenses without a survival rung: %v, want security", got)
	}
}

// The gate of a round whose builder is unknown, or where a seat of
// unknown family sat, is labelled weakened in its reason; a plain
// cross-family pass is not.
func TestWeakenLabelsTheGate(t *testing.T) {
	pass := []Seat{{Lens: "defect", Outcome: OutcomePass, Engine: "a", Family: "anthropic", Checked: []string{"x"},
		Attempts: []Attempt{{Rung: Rung{Engine: "a", Family: "anthropic"}, Status: StatusSat}}}}
	st := &State{Builder: "openai", BuilderFamily: "openai"}
	if g := Weaken(Decide(pass), st, pass); g.Weakened || g.Outcome != OutcomePass {
		t.Errorf("cross-family pass: %+v", g)
	}
	st = &State{Builder: UnknownBuilder}
	if g := Weaken(Decide(pass), st, pass); !g.Weakened || !strings.Contains(g.Reason, "unanimous pass of 1 juror(s) — gate weakened: builder unknown") {
		t.Errorf("unknown builder: %+v", g)
	}
	if g := Weaken(Decide(pass), &State{}, pass); !g.Weakened || !strings.Contains(g.Reason, "no builder recorded") {
		t.Errorf("a record with no builder: %+v", g)
	}
	unk := []Seat{{Lens: "defect", Outcome: OutcomePass, Engine: "u", Checked: []string{"x"}, Attempts: []Attempt{{Rung: Rung{Engine: "u"}, Status: StatusSat}}}}
	if g := Weaken(Decide(unk), &State{Builder: "openai", BuilderFamily: "openai", Solo: true}, unk); !g.Weakened || !strings.Contains(g.Reason, "u of unknown family sat by --solo") {
		t.Errorf("unknown-family seat: %+v", g)
	}
}
