package review

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/digits"
)

// Status is what became of one rung of a lens's ladder in a round: a typed
// reason, written in the route table, the verdict file and the events.
type Status string

// The statuses of a rung. The first four are decided before any call.
const (
	// StatusBuilder: the rung is of the declared builder's family.
	StatusBuilder Status = "builder-family"
	// StatusCapacity: its context window cannot hold the prompt and the answer.
	StatusCapacity Status = "capacity"
	// StatusRestricted: an external engine never reads a restricted bug.
	StatusRestricted Status = "restricted"
	// StatusUnusable: the engine failed its probe.
	StatusUnusable Status = "unusable"
	// StatusUnknownFamily: the engine's family is unknown, so its seat (or
	// its verification) would prove no cross-family review (sits only
	// with --solo).
	StatusUnknownFamily Status = "unknown-family"
	// StatusSat: the rung answered a verdict for its lens (the seat).
	StatusSat Status = "sat"
	// StatusWrongLens: it answered a verdict for another lens (rejected; raw tail kept).
	StatusWrongLens Status = "wrong-lens"
	// StatusHold: it never answered (transport, timeout, killed).
	StatusHold Status = "hold"
	// StatusVerifier: it verified a local seat's pass (same prompt, another family).
	StatusVerifier Status = "verifier"
	// StatusNotReached: a rung below the seat, never needed.
	StatusNotReached Status = "not-reached"
)

// Reasoning is what the route table says of a rung with no reasoning
// switch: it runs at the engine's default.
const Reasoning = "engine default"

// AnswerTokens is the room a rung must keep for the verdict.
const AnswerTokens = 2048

// Rung is one engine on a lens's ladder.
type Rung struct {
	Engine   string `json:"engine"`
	Family   string `json:"family"`
	External bool   `json:"external"`
	// ContextTokens is the known context window (0: unknown, not checked).
	ContextTokens int `json:"context_tokens,omitempty"`
	// Reasoning is how the rung's call turns reasoning off
	// (EngineConfig.ReasoningSwitch: "reasoning_effort: none", "think:
	// false"), or Reasoning when it cannot.
	Reasoning string `json:"reasoning,omitempty"`
	// Skip is set when the rung may not be called this round (builder
	// family, capacity, restricted, unusable); Why says more.
	Skip Status `json:"skip,omitempty"`
	Why  string `json:"why,omitempty"`
}

// DefaultLadder is every engine of the file in the order a review tries
// them when the file sets no ladder: external engines before local ones
// (the local ones need a verifier of another family anyway), then the
// larger known context window first (an unknown window after every known
// one), then the file's order. Replay engines (recordings) never sit.
func DefaultLadder(cfg *engine.Config) []string {
	var names []string
	for _, n := range cfg.Order {
		if cfg.Engines[n].Kind != engine.KindReplay {
			names = append(names, n)
		}
	}
	rank := func(n string) (int, int) {
		e := cfg.Engines[n]
		ext := 1
		if e.External {
			ext = 0
		}
		return ext, -engine.LimitsOf(e).ContextTokens
	}
	slices.SortStableFunc(names, func(a, b string) int {
		ea, ca := rank(a)
		eb, cb := rank(b)
		if ea != eb {
			return ea - eb
		}
		if (ca == 0) != (cb == 0) { // unknown after known
			if ca == 0 {
				return 1
			}
			return -1
		}
		return ca - cb
	})
	return names
}

// LadderOf is a lens's ladder: the engines file's review.ladders (the
// lens's own, else default:), else DefaultLadder.
func LadderOf(cfg *engine.Config, lens string) []string {
	if l := cfg.Review.Ladder(lens); len(l) > 0 {
		return l
	}
	return DefaultLadder(cfg)
}

// builderKind is what a --builder names.
type builderKind int

const (
	noBuilder      builderKind = iota // no --builder
	engineBuilder                     // an engine of the engines file
	modelBuilder                      // a model's name of a known family
	familyBuilder                     // a family's name
	unknownBuilder                    // none of these: a typo, say
)

// readBuilder is the one reading of --builder that BuilderFamily,
// CheckBuilder and EngineLabels share: the trimmed name, what it names
// and the family it shows ("" when none is known).
func readBuilder(cfg *engine.Config, builder string) (name string, kind builderKind, family string) {
	name = strings.TrimSpace(builder)
	switch mf := engine.ModelFamily(name); {
	case name == "":
		return name, noBuilder, ""
	case cfg.Engines[name] != nil:
		if family = cfg.Engines[name].Family(); family == "" {
			family = mf
		}
		return name, engineBuilder, family
	case mf != "" && !strings.EqualFold(mf, name):
		return name, modelBuilder, mf
	case mf != "":
		return name, familyBuilder, mf
	case slices.Contains(knownFamilies(cfg), strings.ToLower(name)):
		return name, familyBuilder, strings.ToLower(name)
	case servingEngine(cfg, name) != "":
		// the model: of an engine of the file that moot's catalogue does
		// not place (a private model): that engine, and its family
		return readBuilder(cfg, servingEngine(cfg, name))
	}
	return name, unknownBuilder, ""
}

// servesBuildersModel reports an engine serving the model of the
// builder's engine (another entry of the same model is the builder too).
func servesBuildersModel(in RouteInput, ec *engine.EngineConfig) bool {
	if in.BuilderEngine == "" || in.Config == nil || ec.Model == "" {
		return false
	}
	b := in.Config.Engines[in.BuilderEngine]
	return b != nil && strings.EqualFold(b.Model, ec.Model)
}

// servingEngine is the first engine of cfg (in its order) whose model:
// is model, "" when none.
func servingEngine(cfg *engine.Config, model string) string {
	for _, n := range cfg.Order {
		if ec := cfg.Engines[n]; ec != nil && ec.Model != "" && strings.EqualFold(ec.Model, model) {
			return n
		}
	}
	return ""
}

// BuilderIsEngineOfUnknownFamily reports a builder that names an engine
// of the file (by its name or its model) whose family moot cannot tell:
// it is excluded by name, and reports say so.
func BuilderIsEngineOfUnknownFamily(cfg *engine.Config, builder string) bool {
	_, kind, family := readBuilder(cfg, builder)
	return kind == engineBuilder && family == ""
}

// knownFamilies are the families moot knows and those of cfg's engines,
// sorted.
func knownFamilies(cfg *engine.Config) []string {
	known := engine.KnownFamilies()
	for _, e := range cfg.Engines {
		if f := e.Family(); f != "" && !slices.Contains(known, f) {
			known = append(known, f)
		}
	}
	slices.Sort(known)
	return known
}

// BuilderEngine is the engine --builder names ("" when it names none):
// Plan excludes it by name, whatever its family.
func BuilderEngine(cfg *engine.Config, builder string) string {
	if name, kind, _ := readBuilder(cfg, builder); kind == engineBuilder {
		return name
	}
	return ""
}

// BuilderFamily reads --builder: an engine's name (its family; an engine
// of unknown family is a family of its own, its name), a model's name
// (the family it shows), else a family's name itself.
func BuilderFamily(cfg *engine.Config, builder string) string {
	name, _, family := readBuilder(cfg, builder)
	if family == "" {
		return strings.ToLower(name)
	}
	return family
}

// CheckBuilder refuses a --builder that names no engine of cfg, no model
// of a known family and no family (a typo like "opneai" would exclude
// nothing, silently); the error lists the families moot knows and the
// engines of the file.
func CheckBuilder(cfg *engine.Config, builder string) error {
	if name, kind, _ := readBuilder(cfg, builder); kind == unknownBuilder {
		return fmt.Errorf("--builder %q is no engine of the engines file, no model of one, no model name of a known family and no known family: check the spelling (known families: %s; engines of %s: %s)",
			name, strings.Join(knownFamilies(cfg), ", "), configLabel(cfg), strings.Join(cfg.Order, ", "))
	}
	return nil
}

// EngineLabels are the engine names and model ids a juror must not read:
// the builder (an engine: its name and model; a model's name; a bare
// family is no label) and every engine of the panel (its name and model).
// An engine's name that is a plain word (plainEngineName) is left out:
// code says "local" and "openai" without naming anyone.
func EngineLabels(cfg *engine.Config, builder string, panel []string) []string {
	var out []string
	engine := func(n string) {
		if !plainEngineName(n) {
			out = append(out, n)
		}
		if ec := cfg.Engines[n]; ec != nil && ec.Model != "" {
			out = append(out, ec.Model)
		}
	}
	switch name, kind, _ := readBuilder(cfg, builder); kind {
	case engineBuilder:
		engine(name)
	case modelBuilder:
		out = append(out, name)
	}
	for _, n := range panel {
		engine(n)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// commonEngineWords are the words people name engines by their role or
// place: ordinary words of code and prose, so no sign of who built it.
var commonEngineWords = map[string]bool{
	"local": true, "remote": true, "default": true, "main": true, "primary": true, "secondary": true,
	"backup": true, "fallback": true, "fast": true, "slow": true, "cheap": true, "small": true,
	"medium": true, "large": true, "mini": true, "test": true, "mock": true, "fake": true,
	"model": true, "engine": true, "judge": true, "juror": true, "review": true, "reviewer": true,
	"builder": true, "strong": true, "weak": true, "best": true, "free": true, "cloud": true,
	"home": true, "work": true, "mine": true, "server": true, "api": true, "chat": true,
}

// plainEngineName says whether an engine's name is no sign of who built
// the change, and so not scanned for: a plain word of the trade
// (commonEngineWords, a review lens's name: lens texts are scanned too),
// a kind ("claude", "command"), a family
// ("openai") or a model family's word ("gpt5", "llama3": vendors' words
// code mentions). The scan itself leaves out a label of fewer than four
// letters and digits ("loc").
func plainEngineName(n string) bool {
	l := strings.ToLower(strings.TrimSpace(n))
	return commonEngineWords[l] || slices.Contains(DefaultLenses, l) || slices.Contains(engine.Kinds, engine.Kind(l)) ||
		slices.Contains(engine.KnownFamilies(), l) || engine.ModelFamily(l) != ""
}

// Callable counts the rungs of every route that may be called (not
// skipped before dispatch).
func Callable(routes []Route) int {
	n := 0
	for _, r := range routes {
		for _, g := range r.Rungs {
			if g.Skip == "" {
				n++
			}
		}
	}
	return n
}

// SingleFamily is the family every seat of a round is of when there is
// one (no builder declared, so nothing proves the panel cross-family):
// "" when the seats are of several families or of none known, or when
// fewer than two lenses sat.
func SingleFamily(st *State, seats []Seat) string {
	if st.BuilderFamily != "" || st.Solo {
		return ""
	}
	fam, n := "", 0
	for _, s := range seats {
		if s.Lens == MootLens || s.Engine == "" {
			continue
		}
		n++
		switch {
		case s.Family == "":
			return ""
		case fam == "":
			fam = s.Family
		case !strings.EqualFold(fam, s.Family):
			return ""
		}
		if s.Verifier != "" {
			return "" // a verifier is of another family
		}
	}
	if n < 2 {
		return "" // one seat is of one family whatever the rig
	}
	return fam
}

// PanelNote says why a round's gate is weakened, "" when it is not
// (WeakenedNote): every report — the route table, the summary, the exit
// line — prints it beside the gate, so a weakened pass never reads as a
// plain unanimous one.
func PanelNote(st *State, seats []Seat) string { return WeakenedNote(st, seats) }

// sameFamilyNote says why a panel with every seat of one family
// (SingleFamily) is weakened, "" when it is not: "blind same-family, not
// cross-family" when no other family could sit; when one could (a rung of
// another known family was never reached), the engines file's ladders
// chose it, and the note says so and how to undo it.
func sameFamilyNote(st *State, seats []Seat) string {
	fam := SingleFamily(st, seats)
	if fam == "" {
		return ""
	}
	var others []string
	for _, s := range seats {
		for _, a := range s.Attempts {
			if a.Status == StatusNotReached && a.Family != "" && !engine.SameFamily(a.Family, fam) && !slices.Contains(others, a.Family) {
				others = append(others, a.Family)
			}
		}
	}
	if len(others) == 0 {
		return fmt.Sprintf("every seat is of family %s: %s", fam, SoloNote)
	}
	return fmt.Sprintf("every seat is of family %s by the engines file's review.ladders, although %s could sit lower on them: not cross-family by choice (put another family first on some ladders)", fam, strings.Join(others, ", "))
}

// Route is the plan of one round: every lens's ladder with what may not
// be called and why, decided before any call.
type Route struct {
	Lens  bugfolder.Lens
	Rungs []Rung
	// PromptTokens is the estimate a rung's window must hold (with the answer).
	PromptTokens int
}

// RouteInput is what routing needs.
type RouteInput struct {
	Config *engine.Config
	Lenses []bugfolder.Lens
	// Builder is the builder's family ("" when none was declared; an
	// engine of unknown family is a family of its own: its name).
	Builder string
	// BuilderEngine is the builder when it is an engine of the engines
	// file: that engine is excluded by name whatever its family.
	BuilderEngine string
	// Solo lets the builder's family sit (the explicit degradation), never
	// the builder's own engine.
	Solo bool
	// AllowUnknownFamily lets an engine of unknown family sit or verify
	// (--solo): without it such a rung is skipped, for its seat would be
	// no proof of cross-family review.
	AllowUnknownFamily bool
	// Restricted is set on a restricted bug: no external engine sits.
	Restricted bool
	// Unusable gives an engine's probe failure ("" when it may be called).
	Unusable func(name string) string
	// Ollama says whether an engine's server is Ollama (its probe found
	// one): its verdict call sends think: false, not reasoning_effort.
	Ollama func(name string) bool
	// Prompt writes a lens's prompt (for its size).
	Prompt func(l bugfolder.Lens) string
}

// Plan routes every lens: each rung of its ladder, with the rungs that
// may not be called marked and their typed reason. A rung of the
// builder's family is excluded unless in is Solo.
//
// A lens the engines file gives no ladder (neither its own nor default:)
// climbs DefaultLadder with its start rotated by the lens's place: the
// i-th such lens tries first the rungs of the i-th family that may be
// called (families in the default ladder's order, strongest first
// within), so consecutive lenses sit on different families whenever
// several can sit; the rest of the ladder follows in its order.
func Plan(in RouteInput) []Route {
	out := make([]Route, 0, len(in.Lenses))
	spread := 0
	for _, l := range in.Lenses {
		r := planLens(in, l)
		if len(in.Config.Review.Ladder(l.Name)) == 0 {
			r.Rungs = rotated(r.Rungs, spread)
			spread++
		}
		out = append(out, r)
	}
	return out
}

// rotated moves to the front of the external rungs those of the k-th
// family (mod their number) among the external rungs that may be called;
// an engine of unknown family is a family of its own. Local rungs stay
// the tail.
func rotated(rungs []Rung, k int) []Rung {
	key := func(g Rung) string {
		if g.Family == "" {
			return "engine:" + g.Engine
		}
		return strings.ToLower(g.Family)
	}
	var fams []string
	for _, g := range rungs {
		if g.External && g.Skip == "" && !slices.Contains(fams, key(g)) {
			fams = append(fams, key(g))
		}
	}
	if len(fams) < 2 {
		return rungs
	}
	first := fams[k%len(fams)]
	out := make([]Rung, 0, len(rungs))
	for _, g := range rungs {
		if g.External && key(g) == first {
			out = append(out, g)
		}
	}
	for _, g := range rungs {
		if !g.External || key(g) != first {
			out = append(out, g)
		}
	}
	return out
}

// planLens routes one lens: each rung of its ladder, with the typed
// reason of those that may not be called.
func planLens(in RouteInput, l bugfolder.Lens) Route {
	r := Route{Lens: l, PromptTokens: bugfolder.EstimateTokens(len(in.Prompt(l)))}
	for _, name := range LadderOf(in.Config, l.Name) {
		ec := in.Config.Engines[name]
		lim := engine.LimitsOf(ec)
		rg := Rung{Engine: name, Family: ec.Family(), External: ec.External, ContextTokens: lim.ContextTokens, Reasoning: Reasoning}
		if sw := ec.ReasoningSwitch(in.Ollama != nil && in.Ollama(name)); sw != "" {
			rg.Reasoning = "off (" + sw + ")"
		}
		need := r.PromptTokens + AnswerTokens
		switch {
		case in.BuilderEngine != "" && name == in.BuilderEngine:
			rg.Skip, rg.Why = StatusBuilder, "the builder's own engine: excluded before dispatch, even by --solo"
		case servesBuildersModel(in, ec):
			rg.Skip, rg.Why = StatusBuilder, fmt.Sprintf("it serves %s, the builder's own model: excluded before dispatch, even by --solo", ec.Model)
		case !in.Solo && in.Builder != "" && (engine.SameFamily(in.Builder, rg.Family) || rg.Family == "" && strings.EqualFold(in.Builder, name)):
			rg.Skip, rg.Why = StatusBuilder, fmt.Sprintf("family %s is the builder's: excluded before dispatch", cmp.Or(rg.Family, name))
		case !in.Solo && in.Builder != "" && engine.SameFamily(in.Builder, engine.ModelFamily(ec.Model)):
			rg.Skip, rg.Why = StatusBuilder, fmt.Sprintf("it serves %s, a model of the builder's family %s, whatever its family: says: excluded before dispatch", ec.Model, in.Builder)
		case rg.Family == "" && !in.AllowUnknownFamily:
			rg.Skip, rg.Why = StatusUnknownFamily, "its family is unknown, so its verdict would prove no cross-family review: declare family: in the engines file, or pass --solo"
		case in.Restricted && ec.External:
			rg.Skip, rg.Why = StatusRestricted, "an external engine never reads a restricted bug"
		case in.Unusable != nil && in.Unusable(name) != "":
			rg.Skip, rg.Why = StatusUnusable, in.Unusable(name)
		case lim.ContextTokens > 0 && need > lim.ContextTokens:
			rg.Skip, rg.Why = StatusCapacity, fmt.Sprintf("needs ≈%s tokens (prompt ≈%s + answer %s), more than its %s-token window", digits.Grouped(need), digits.Grouped(r.PromptTokens), digits.Grouped(AnswerTokens), digits.Grouped(lim.ContextTokens))
		}
		r.Rungs = append(r.Rungs, rg)
	}
	return r
}

// OnlyBuilderLeft reports whether the builder's family is the only one
// any ladder could seat: every rung not of its family is out for another
// reason, or there is none (the solo rig: exit 2 without --solo).
func OnlyBuilderLeft(in RouteInput, routes []Route) bool {
	if in.Builder == "" && in.BuilderEngine == "" || in.Solo {
		return false
	}
	builder := false
	for _, r := range routes {
		for _, g := range r.Rungs {
			switch g.Skip {
			case "":
				return false
			case StatusBuilder:
				builder = true
			}
		}
	}
	return builder
}

// OfFamily lists the engines of the routes that are of family fam (by
// kind, model or family: field), once each, but for one excluded as the
// builder (its own engine, which never sits, even in the solo rig).
func OfFamily(routes []Route, fam string) []string {
	var out []string
	for _, r := range routes {
		for _, g := range r.Rungs {
			if engine.SameFamily(fam, g.Family) && g.Skip != StatusBuilder && !slices.Contains(out, g.Engine) {
				out = append(out, g.Engine)
			}
		}
	}
	return out
}

// Excluded lists the engines excluded as the builder's family, once each.
func Excluded(routes []Route) []string {
	var out []string
	for _, r := range routes {
		for _, g := range r.Rungs {
			if g.Skip == StatusBuilder && !slices.Contains(out, g.Engine) {
				out = append(out, g.Engine)
			}
		}
	}
	return out
}

// Estimate is a round's expected cost: one call per lens on the first
// rung that may be called (more only when a rung fails to answer).
type Estimate struct {
	// MinCalls counts the lenses with a rung to call; MaxCalls every rung
	// that may be called.
	MinCalls, MaxCalls int
	// Input and Output are estimated tokens of the first rungs' calls.
	Input, Output int
	// USD prices them; USDKnown is false when a first rung has no price.
	USD      float64
	USDKnown bool
}

// Estimated counts and prices a round's routes.
func Estimated(cfg *engine.Config, routes []Route) Estimate {
	e := Estimate{USDKnown: true}
	for _, r := range routes {
		first := true
		for _, g := range r.Rungs {
			if g.Skip != "" {
				continue
			}
			e.MaxCalls++
			if !first {
				continue
			}
			first = false
			e.MinCalls++
			e.Input += r.PromptTokens
			e.Output += AnswerTokens
			if p := engine.LimitsOf(cfg.Engines[g.Engine]).Price; p != nil {
				e.USD += p.Cost(r.PromptTokens, AnswerTokens)
			} else {
				e.USDKnown = false
			}
		}
	}
	return e
}

// NoSurvival names the lenses whose ladder holds no local rung that may
// be called: docs/protocols/review.md wants every ladder to end in a local survival rung
// (a free seat when every cloud rung fails), and the plan says which have
// none. DefaultLadder puts every local engine of the file last, so only a
// file without one, review.ladders that leave it out, or a rung ruled
// out (builder, capacity, unknown family) leaves a lens without it.
func NoSurvival(routes []Route) []string {
	var out []string
	for _, r := range routes {
		if !slices.ContainsFunc(r.Rungs, func(g Rung) bool { return !g.External && g.Skip == "" }) {
			out = append(out, r.Lens.Name)
		}
	}
	return out
}

// FloorRungs is how many rungs that may be called a ladder should hold
// before its local tail (docs/protocols/review.md: two cloud rungs are not a floor; a
// wrong lens and a failure must never leave a lens on hold).
const FloorRungs = 3

// ThinLadders names the lenses whose ladder has fewer than FloorRungs
// external rungs that may be called, with how many: a warning, not a refusal.
func ThinLadders(routes []Route) []string {
	var out []string
	for _, r := range routes {
		n := 0
		for _, g := range r.Rungs {
			if g.Skip == "" && g.External {
				n++
			}
		}
		if n < FloorRungs {
			out = append(out, fmt.Sprintf("%s (%d)", r.Lens.Name, n))
		}
	}
	return out
}
