package tui

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"charm.land/huh/v2"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// EngineStatus is what the probe says of an engine.
type EngineStatus struct {
	OK bool
	// Why says what failed (empty when OK).
	Why string
}

// wizardChoices are what the wizard offers beyond the engines: the
// protocols (cli's table, in order; the first is the default), the lenses
// a participant may take, and a bug's two best repair proposals.
type wizardChoices struct {
	protocols []engine.Protocol
	catalog   []bugfolder.Lens
	proposals func(*bugfolder.Bug) (a, b string, ok bool)
	// questions are the protocols run on a question (argue), set up by
	// ask as moot ask sets them up (wizardask.go).
	questions []engine.Protocol
	ask       func(args []string, reserve bool) (*bugfolder.Bug, engine.Setup, error)
	// review plans a review of a change (wizardreview.go).
	review func(args []string, check bool) (ReviewStart, error)
	// unfinished, set on a bug whose debate is unfinished, says why the
	// bug's own protocols are not offered: a new one would archive that
	// debate, while argue (on a question) and a review leave it be.
	unfinished string
}

// withoutBugProtocols are the choices on a bug whose debate is unfinished
// (why says so): argue and review only, with the line the protocol page
// shows for the protocols left out; offered says whether one is.
func (ch wizardChoices) withoutBugProtocols(why string) (_ wizardChoices, offered bool) {
	offered = (ch.ask != nil && len(ch.questions) > 0) || ch.review != nil
	if len(ch.protocols) == 0 {
		return ch, offered
	}
	names := make([]string, len(ch.protocols))
	for i, p := range ch.protocols {
		names[i] = p.Name()
	}
	ch.unfinished = strings.Join(names, ", ") + " not offered: " + why
	ch.protocols = nil
	return ch, offered
}

// wizard is the setup form of a new debate, in stages: the protocol (when
// there is a choice), the basics, the protocol's own inputs (lenses,
// options, criteria), the engines, then a confirmation when external
// engines would receive the bug.
type wizard struct {
	bug    *bugfolder.Bug
	cfg    *harness.Config
	status map[string]EngineStatus
	// lenses are the --lens given on the command line (carryLenses).
	lenses []bugfolder.Lens
	ch     wizardChoices
	// proto is the protocol chosen (its name in protoName) and in what it
	// asks.
	proto     engine.Protocol
	protoName string
	in        engine.Inputs
	// lensPick names each panel member's lens ("" none); optA, optB and
	// criteria are tradeoff's inputs; prefilled says where A and B came
	// from.
	lensPick   []string
	optA, optB string
	criteria   string
	prefilled  string
	// question and personas are a question protocol's (wizardask.go).
	question, personas string
	// change, contract, builder and revLenses are a review's
	// (wizardreview.go).
	change, contract, builder, revLenses string
	// valueAtRisk and irreversible are council's stakes.
	valueAtRisk  string
	irreversible bool
	// probing is set while the engines' probe runs in the background.
	probing bool
	// texts are the fields' own text, wrapped to textW (wizardwrap.go).
	texts []wizardText
	textW int
	stage int
	form  *huh.Form
	ahead typeAhead // keys typed while the form moves (typeahead.go)
	// kept is a field's refusal of enter, kept for the keys typed right
	// behind the enter (typeahead.go)
	kept keptRefusal
	// refused is a refusal of the page once complete, until a key (refusal)
	refused string
	// first is the stage's first field that takes focus, and fields how
	// many take it: back keys leave the stage from its first field, and
	// coming back lands on its last.
	first  huh.Field
	fields int

	mode      string
	nStr      string
	rStr      string
	strategy  string
	engineAll string
	each      []string
	critics   []string
	judge     string
	timeout   string
	confirm   bool
	// verify is the judge's order-swap check (--verify-judge), offered
	// when the final step names a winner; sameFamily carries
	// --allow-same-family from the command line.
	verify, sameFamily bool
}

const (
	stageProtocol = iota
	stageBasics
	stageInputs
	stageEngines
	stageConfirm
)

// newWizard starts a wizard for bug, prefilled from a preset setup.
func newWizard(bug *bugfolder.Bug, cfg *harness.Config, status map[string]EngineStatus, preset engine.Setup, ch wizardChoices) *wizard {
	w := &wizard{bug: bug, cfg: cfg, status: status, mode: string(preset.Mode), strategy: "one", lenses: preset.Lenses, ch: ch, stage: stageBasics,
		verify: preset.VerifyJudge, sameFamily: preset.AllowSameFamily}
	if w.mode == "" {
		w.mode = string(bugfolder.Diagnosis)
	}
	w.proto = preset.Protocol
	if offered := w.offeredProtocols(); w.proto == nil && len(offered) > 0 {
		w.proto = offered[0]
	}
	if w.proto != nil {
		w.protoName = w.proto.Name()
	} else if ch.review != nil { // nothing else is offered
		w.protoName = reviewChoice
	}
	w.in = engine.Describe(w.proto)
	w.nStr, w.rStr = "3", strconv.Itoa(w.in.R)
	if preset.N > 0 {
		w.nStr = strconv.Itoa(preset.N)
		w.rStr = strconv.Itoa(preset.R)
	}
	w.presetInputs(preset)
	if (w.choiceCount() > 1 || ch.unfinished != "") && preset.Protocol == nil {
		w.stage = stageProtocol // a choice, or a choice left out to explain
	}
	offered := w.offered()
	pick := func(name string) string {
		for _, o := range offered {
			if o == name {
				return name
			}
		}
		if len(offered) > 0 {
			return offered[0]
		}
		return ""
	}
	w.engineAll = pick(cfg.Defaults.Solver)
	if len(preset.Solvers) > 0 {
		w.engineAll = pick(preset.Solvers[0])
		for _, s := range preset.Solvers[1:] {
			if s != preset.Solvers[0] {
				w.strategy = "each"
			}
		}
		w.each = append([]string{}, preset.Solvers...)
	}
	w.judge = pick(cfg.Defaults.Judge)
	if preset.Judge != "" {
		w.judge = pick(preset.Judge)
	}
	w.critics = append(w.critics, preset.Critics...)
	if preset.Timeout > 0 {
		w.timeout = preset.Timeout.String()
	}
	w.build()
	return w
}

// presetInputs fills the protocol's inputs from a preset setup: its
// stakes, its options A and B, or its lenses by name; else, on a bug with a finished
// repair debate, its two best proposals as the options.
func (w *wizard) presetInputs(preset engine.Setup) {
	if st := preset.Stakes; st.Valued { // --value-at-risk and --irreversible, carried in
		w.valueAtRisk = strconv.FormatFloat(st.ValueAtRisk, 'f', -1, 64)
	}
	w.irreversible = preset.Stakes.Irreversible
	if len(preset.Lenses) == 2 && preset.Lenses[0].Name == "A" && preset.Lenses[1].Name == "B" {
		w.optA, w.optB = preset.Lenses[0].Text, preset.Lenses[1].Text
		w.lenses = nil
	} else if w.ch.proposals != nil && w.bug != nil && !w.bug.IsQuestion {
		if a, b, ok := w.ch.proposals(w.bug); ok {
			w.optA, w.optB = a, b
			w.prefilled = "prefilled from the finished repair debate: A is its judge's winner, B the runner-up"
		}
	}
	w.fitPicks()
}

// fitPicks sizes the lens picks to the panel: picks made stay on the
// members that remain, and the command line's lenses carry as carryLenses
// says.
func (w *wizard) fitPicks() {
	n := w.n()
	carried := carryLenses(w.lenses, n)
	cat := w.lensCatalog()
	for len(w.lensPick) < n {
		name := ""
		if i := len(w.lensPick); i < len(carried) {
			name = carried[i].Name
		} else if w.in.LensEach && len(cat) > 0 {
			name = cat[i%len(cat)].Name // a lens each, distinct while the catalog lasts
		}
		w.lensPick = append(w.lensPick, name)
	}
	w.lensPick = w.lensPick[:max(n, 0)]
	if w.in.LensEach { // a "none" picked under another protocol is no choice here
		for i, name := range w.lensPick {
			if name == "" && len(cat) > 0 {
				w.lensPick[i] = cat[i%len(cat)].Name
			}
		}
	}
}

// choose makes the protocol named the wizard's: its inputs, and its panel
// size and rounds when it changes.
func (w *wizard) choose(name string) {
	for _, p := range w.offeredProtocols() {
		if p.Name() != name || (w.proto != nil && w.proto.Name() == name) {
			continue
		}
		w.proto, w.in = p, engine.Describe(p)
		w.rStr = strconv.Itoa(w.in.R)
		if w.in.N > 0 {
			w.nStr = strconv.Itoa(w.in.N)
		} else if n, _ := strconv.Atoi(w.nStr); n < w.in.MinN {
			w.nStr = strconv.Itoa(max(3, w.in.MinN))
		}
	}
}

// hasInputs is whether the protocol asks anything on the inputs page.
func (w *wizard) hasInputs() bool {
	return !w.onQuestion() && (w.in.Options || w.in.Criteria || w.in.Stakes || (w.in.Lenses && (w.in.LensEach || len(w.lensOptions()) > 1)))
}

// lensOptions are a lens picker's choices: none, the catalog's lenses and
// any preset lens the catalog lacks (one given inline with --lens).
func (w *wizard) lensOptions() []huh.Option[string] {
	opts := []huh.Option[string]{huh.NewOption("none", "")}
	if w.in.LensEach {
		opts = nil // every member argues from a lens
	}
	for _, l := range w.lensCatalog() {
		opts = append(opts, huh.NewOption(l.Name, l.Name))
	}
	return opts
}

// lensCatalog is the catalog and the preset lenses it lacks.
func (w *wizard) lensCatalog() []bugfolder.Lens {
	out := slices.Clone(w.ch.catalog)
	for _, l := range w.lenses {
		if l.Name != "" && !slices.ContainsFunc(out, func(c bugfolder.Lens) bool { return c.Name == l.Name }) {
			out = append(out, l)
		}
	}
	return out
}

// capital capitalises a role word for a field's title.
func capital(word string) string {
	if word == "" {
		return ""
	}
	return strings.ToUpper(word[:1]) + word[1:]
}

// offered lists the engines the wizard offers: those that passed their
// probe, and on a restricted bug only local ones.
func (w *wizard) offered() []string {
	var out []string
	for _, name := range w.cfg.Order {
		ec := w.cfg.Engines[name]
		if w.bug.Restricted() && ec.External {
			continue
		}
		if st, ok := w.status[name]; ok && !st.OK {
			continue
		}
		out = append(out, name)
	}
	return out
}

// noteWordMax is the widest word a wizard note keeps whole: what an 80
// column window leaves the note.
const noteWordMax = 60

// notes explains what is not offered and why.
func (w *wizard) notes() string {
	var lines []string
	for _, name := range w.cfg.Order {
		ec := w.cfg.Engines[name]
		if w.bug.Restricted() && ec.External {
			continue // restrictedNote says why
		}
		if st, ok := w.status[name]; ok && !st.OK {
			lines = append(lines, fmt.Sprintf("%s is not offered: %s", name, st.Why))
		}
	}
	if w.probing {
		lines = append(lines, "checking the engines (as moot engines --probe does)…; any that fails will not be offered")
	}
	return strings.Join(lines, "\n")
}

// restrictedNote says why a restricted bug's wizard offers no external
// engine ("" for another bug); it stands above the form, never scrolled
// away.
func (w *wizard) restrictedNote() string {
	if !w.bug.Restricted() {
		return ""
	}
	var ext []string
	for _, name := range w.cfg.Order {
		if w.cfg.Engines[name].External {
			ext = append(ext, name)
		}
	}
	return restrictedNote(ext)
}

func (w *wizard) engineOptions() []huh.Option[string] {
	var opts []huh.Option[string]
	for _, name := range w.offered() {
		ec := w.cfg.Engines[name]
		label := name + "  (" + string(ec.Kind)
		if ec.Model != "" {
			label += ", " + ec.Model
		}
		label += ")"
		if ec.External {
			label += "  external"
		}
		if st, ok := w.status[name]; ok && st.OK {
			label += "  (probe passed)" // one ✓ on a line: huh's marks the choice
		}
		opts = append(opts, huh.NewOption(label, name))
	}
	return opts
}

// within checks a whole number of at least min and, when max is above 0,
// at most max; past it the error names the limit (why says whose).
func within(min, max int, what, why string) func(string) error {
	return func(s string) error {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < min {
			return fmt.Errorf("%s must be a whole number ≥ %d", what, min)
		}
		if max > 0 && n > max {
			return fmt.Errorf("%s must be at most %d: %s", what, max, why)
		}
		return nil
	}
}

// sizeCheck and roundsCheck validate N and R against the protocol's
// limits (Inputs.MaxN, Inputs.MaxR), naming them.
func (w *wizard) sizeCheck() func(string) error {
	limit, why := w.in.MaxN, fmt.Sprintf("%s runs at most %d %s", w.runsWhat(), w.in.MaxN, w.in.Members)
	if cat := len(w.lensCatalog()); w.in.LensEach && cat > 0 && (limit == 0 || cat < limit) {
		// a member per lens, each a different one: no more members than lenses
		limit, why = cat, fmt.Sprintf("each %s argues from a different lens and there are %d (add .moot/lenses/NAME.md for more)", w.in.Member, cat)
	}
	return within(w.in.MinN, limit, "N", why)
}

// distinctLens refuses member i's lens when an earlier member has it: a
// protocol with a lens each (council) hears each lens once.
func (w *wizard) distinctLens(i int) func(string) error {
	return func(name string) error {
		if j := slices.Index(w.lensPick[:min(i, len(w.lensPick))], name); w.in.LensEach && name != "" && j >= 0 {
			return fmt.Errorf("%s has %s already: each %s argues from a different lens", w.bug.Register.Lang.SolverID(j+1), name, w.in.Member)
		}
		return nil
	}
}

func (w *wizard) roundsCheck() func(string) error {
	return within(0, w.in.MaxR, "R", fmt.Sprintf("%s runs at most %d rounds after round 0", w.runsWhat(), w.in.MaxR))
}

// runsWhat names who sets the limits: the protocol, else moot.
func (w *wizard) runsWhat() string {
	if w.protoName == "" {
		return "moot"
	}
	return w.protoName
}

// build makes the form of the current stage.
func (w *wizard) build() {
	var groups []*huh.Group
	var focusable []huh.Field
	w.texts = nil
	switch w.stage {
	case stageProtocol:
		heading := w.heading()
		if w.ch.unfinished != "" {
			heading += "\n" + w.ch.unfinished
		}
		fields := []huh.Field{w.textNote("New debate", heading), w.protocolSelect()}
		groups = append(groups, huh.NewGroup(fields...))
		focusable = fields[1:]
	case stageBasics:
		basics := w.basicFields()
		switch {
		case w.reviewing():
			basics = w.reviewFields()
		case w.onQuestion():
			basics = w.questionFields()
		}
		fields := append([]huh.Field{w.textNote(w.pageTitle(), w.heading())}, basics...)
		groups = append(groups, huh.NewGroup(fields...))
		focusable = fields[1:]
	case stageInputs:
		fields := w.inputFields()
		groups = append(groups, huh.NewGroup(fields...))
		for _, f := range fields {
			if _, note := f.(*huh.Note); !note {
				focusable = append(focusable, f)
			}
		}
	case stageEngines:
		opts := w.engineOptions()
		var fields []huh.Field
		if n := w.notes(); n != "" {
			// a word wider than the narrowest note (an address, a path) is cut
			// in its middle, so wrapping never breaks it inside
			fields = append(fields, w.textNote("Engines", shortTokens(n, noteWordMax)))
		}
		if w.strategy == "one" {
			fields = append(fields, huh.NewSelect[string]().Title("Engine of the "+w.in.Members).Value(&w.engineAll).Options(opts...))
		} else {
			n := w.n()
			for len(w.each) < n {
				w.each = append(w.each, w.engineAll)
			}
			w.each = w.each[:n]
			for i := 0; i < n; i++ {
				fields = append(fields, huh.NewSelect[string]().Title("Engine of "+w.bug.Register.Lang.SolverID(i+1)).Value(&w.each[i]).Options(opts...))
			}
		}
		if w.in.Support && !w.onQuestion() { // argue's scorer is its synthesizer's engine, as moot ask's default
			fields = append(fields, described(w, huh.NewMultiSelect[string]().Title("Critics"), "one critic per engine chosen (space toggles); critics assess rounds 1..R and do not compete").Value(&w.critics).Options(opts...).Height(len(opts)+3))
		}
		fields = append(fields, described(w, huh.NewSelect[string]().Title(capital(w.in.Final)), w.in.FinalNote).Value(&w.judge).Options(opts...))
		if w.in.Winner {
			fields = append(fields, w.verifyField())
		}
		fields = append(fields,
			described(w, huh.NewInput().Title("Timeout per call"), "a duration such as 90s or 10m; empty: each engine's own (else 10m)").Placeholder("empty: each engine's own").Value(&w.timeout).Validate(func(s string) error {
				if strings.TrimSpace(s) == "" {
					return nil
				}
				d, err := time.ParseDuration(strings.TrimSpace(s))
				if err != nil || d <= 0 {
					return errors.New("a positive duration, e.g. 90s, 10m")
				}
				return nil
			}),
		)
		groups = append(groups, huh.NewGroup(fields...))
		for _, f := range fields {
			if _, note := f.(*huh.Note); !note {
				focusable = append(focusable, f)
			}
		}
	case stageConfirm:
		ext := w.externals()
		w.confirm = false
		c := described(w, huh.NewConfirm().
			Title("Send this bug to external engines?"), fmt.Sprintf("%s will receive the bug (bug.md, its evidence and the located spec) and the proposals.", strings.Join(ext, ", "))).
			Affirmative("Yes, send it").Negative("No, go back").Value(&w.confirm)
		groups = append(groups, huh.NewGroup(c))
		focusable = []huh.Field{c}
	}
	w.form = huh.NewForm(groups...).WithShowHelp(false).WithShowErrors(false).WithTheme(formTheme) // refusals: wizardwrap.go
	w.first, w.fields = nil, 0
	for _, f := range focusable {
		if w.first == nil {
			w.first = f
		}
		w.fields++
	}
}

// back goes to the previous stage (false on the first).
func (w *wizard) back() bool {
	switch w.stage {
	case stageBasics:
		if w.choiceCount() < 2 {
			return false
		}
		w.stage = stageProtocol
	case stageInputs:
		w.stage = stageBasics
	case stageEngines:
		w.stage = stageBasics
		if w.hasInputs() {
			w.stage = stageInputs
		}
	case stageConfirm:
		w.stage = stageEngines
	default:
		return false
	}
	w.build()
	return true
}

// focusLast moves the form's focus to its last field.
func (w *wizard) focusLast() {
	for i := 1; i < w.fields; i++ {
		w.form.Update(huh.NextField())
	}
}

// solvers is the engine of each solver.
func (w *wizard) solvers() []string {
	out := make([]string, w.n())
	for i := range out {
		if w.strategy == "each" && i < len(w.each) {
			out[i] = w.each[i]
		} else {
			out[i] = w.engineAll
		}
	}
	return out
}

// externals lists the external engines chosen.
func (w *wizard) externals() []string {
	seen := map[string]bool{}
	var out []string
	var critics []string
	if w.in.Support && !w.onQuestion() {
		critics = w.critics
	}
	for _, name := range append(append(w.solvers(), critics...), w.judge) {
		if ec, ok := w.cfg.Engines[name]; ok && ec.External && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// advance moves past a completed stage; done is set when the setup is
// ready; back is set when the engineer declined the confirmation.
func (w *wizard) advance() (done bool) {
	switch w.stage {
	case stageProtocol:
		w.choose(w.protoName)
		w.stage = stageBasics
	case stageBasics:
		if w.reviewing() { // a review's engines are its ladders, in the engines file
			return true
		}
		w.stage = stageEngines
		if w.hasInputs() {
			w.stage = stageInputs
		}
	case stageInputs:
		w.stage = stageEngines
	case stageEngines:
		if len(w.externals()) > 0 {
			w.stage = stageConfirm
		} else {
			return true
		}
	case stageConfirm:
		if w.confirm {
			return true
		}
		w.stage = stageEngines
	}
	w.build()
	return false
}

// setup is the debate the wizard describes, on the bug read in full.
func (w *wizard) setup(bug *bugfolder.Bug) engine.Setup {
	if bug.Partial && w.bug != nil && !w.bug.Partial {
		bug = w.bug
	}
	n, _ := strconv.Atoi(w.nStr)
	r, _ := strconv.Atoi(w.rStr)
	s := engine.Setup{Protocol: w.proto, Bug: bug, Lang: bug.Register.Lang, Mode: bugfolder.Mode(w.mode), N: n, R: r,
		Solvers: w.solvers(), Judge: w.judge, Lenses: w.panelLenses(n)}
	if w.in.Support {
		s.Critics = append([]string{}, w.critics...)
	}
	if w.in.Stakes {
		s.Stakes, _ = engine.ParseStakes(w.valueAtRisk, w.irreversible) // checked as typed
	}
	s.VerifyJudge = w.verify && w.in.Winner
	s.AllowSameFamily = w.sameFamily
	s.Parallel = engine.DefaultParallel(s)
	if d, err := time.ParseDuration(strings.TrimSpace(w.timeout)); err == nil {
		s.Timeout = d
	}
	return s
}

// n is the panel's size: the protocol's when it fixes one, else the one
// given.
func (w *wizard) n() int {
	if w.in.N > 0 {
		return w.in.N
	}
	n, _ := strconv.Atoi(w.nStr)
	return n
}

// heading names the bug the wizard sets a debate up on (a question set
// up beside a bug says it is its own subject).
func (w *wizard) heading() string {
	if w.stage != stageProtocol && w.onQuestion() && !w.bug.IsQuestion { // the question is its own subject: the bug is only where it was started
		return "a question of its own, set up beside " + w.bug.ID
	}
	if w.bug.ID == "" { // set up from the list with no bug: a question of its own, or a change
		if w.reviewing() {
			return "a change, with no bug"
		}
		return "a question of its own"
	}
	h := w.bug.ID
	if w.bug.Title != "" {
		h += " — " + w.bug.Title
	}
	return h
}

// firstStage is whether the wizard is on its first page (esc there leaves).
func (w *wizard) firstStage() bool {
	return w.stage == stageProtocol || (w.stage == stageBasics && w.choiceCount() < 2)
}
