package tui

import (
	"errors"
	"fmt"
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

// wizard is the setup form of a new debate, in stages: the basics, the
// engines, then a confirmation when external engines would receive the bug.
type wizard struct {
	bug    *bugfolder.Bug
	cfg    *harness.Config
	status map[string]EngineStatus
	// lenses are the --lens given on the command line (carryLenses).
	lenses []bugfolder.Lens
	// probing is set while the engines' probe runs in the background.
	probing bool
	stage   int
	form    *huh.Form
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
}

const (
	stageBasics = iota
	stageEngines
	stageConfirm
)

// newWizard starts a wizard for bug, prefilled from a preset setup.
func newWizard(bug *bugfolder.Bug, cfg *harness.Config, status map[string]EngineStatus, preset engine.Setup) *wizard {
	w := &wizard{bug: bug, cfg: cfg, status: status, mode: string(preset.Mode), strategy: "one", lenses: preset.Lenses}
	if w.mode == "" {
		w.mode = string(bugfolder.Diagnosis)
	}
	w.nStr, w.rStr = "3", "2"
	if preset.N > 0 {
		w.nStr = strconv.Itoa(preset.N)
		w.rStr = strconv.Itoa(preset.R)
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
			label += "  ✓ probed"
		}
		opts = append(opts, huh.NewOption(label, name))
	}
	return opts
}

func positive(min int, what string) func(string) error {
	return func(s string) error {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < min {
			return fmt.Errorf("%s must be a whole number ≥ %d", what, min)
		}
		return nil
	}
}

// build makes the form of the current stage.
func (w *wizard) build() {
	var groups []*huh.Group
	var focusable []huh.Field
	switch w.stage {
	case stageBasics:
		var fields []huh.Field
		title := w.bug.ID
		if w.bug.Title != "" {
			title += " — " + w.bug.Title
		}
		fields = append(fields, huh.NewNote().Title("New debate").Description(title))
		fields = append(fields,
			huh.NewSelect[string]().Title("Mode").Value(&w.mode).Options(
				huh.NewOption("diagnosis — competing causal hypotheses; which does the evidence support?", "diagnosis"),
				huh.NewOption("repair — the cause is known; which fix strategy?", "repair"),
				huh.NewOption("spec — code, tests and spec disagree; which rule is right?", "spec"),
			),
			huh.NewInput().Title("Solvers (N)").Value(&w.nStr).Validate(positive(2, "N")),
			huh.NewInput().Title("Rounds after round 0 (R)").Description("no early stopping; 0 = independent answers plus the judge").Value(&w.rStr).Validate(positive(0, "R")),
			huh.NewSelect[string]().Title("Solver engines").Value(&w.strategy).Options(
				huh.NewOption("one engine for every solver", "one"),
				huh.NewOption("each solver its own engine", "each"),
			),
		)
		groups = append(groups, huh.NewGroup(fields...))
		focusable = fields[1:]
	case stageEngines:
		opts := w.engineOptions()
		var fields []huh.Field
		if n := w.notes(); n != "" {
			// the note renders Markdown: keep base_url and the like literal
			// a word wider than the narrowest note (an address, a path) is cut
			// in its middle, so wrapping never breaks it inside
			fields = append(fields, huh.NewNote().Title("Engines").Description(strings.ReplaceAll(shortTokens(n, noteWordMax), "_", "\\_")))
		}
		if w.strategy == "one" {
			fields = append(fields, huh.NewSelect[string]().Title("Engine of the solvers").Value(&w.engineAll).Options(opts...))
		} else {
			n, _ := strconv.Atoi(w.nStr)
			for len(w.each) < n {
				w.each = append(w.each, w.engineAll)
			}
			w.each = w.each[:n]
			for i := 0; i < n; i++ {
				fields = append(fields, huh.NewSelect[string]().Title("Engine of "+w.bug.Register.Lang.SolverID(i+1)).Value(&w.each[i]).Options(opts...))
			}
		}
		fields = append(fields,
			huh.NewMultiSelect[string]().Title("Critics").Description("one critic per engine chosen (space toggles); critics assess rounds 1..R and do not compete").Value(&w.critics).Options(opts...).Height(len(opts)+3),
			huh.NewSelect[string]().Title("Judge").Description("isolated: sees only the rubric, P and the final proposals").Value(&w.judge).Options(opts...),
			huh.NewInput().Title("Timeout per call").Description("empty = each engine's own, else 10m").Placeholder("10m").Value(&w.timeout).Validate(func(s string) error {
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
		c := huh.NewConfirm().
			Title("Send this bug to external engines?").
			Description(fmt.Sprintf("%s will receive the bug (bug.md, its evidence and the located spec) and the proposals.", strings.Join(ext, ", "))).
			Affirmative("Yes, send it").Negative("No, go back").Value(&w.confirm)
		groups = append(groups, huh.NewGroup(c))
		focusable = []huh.Field{c}
	}
	w.form = huh.NewForm(groups...).WithShowHelp(false).WithTheme(formTheme)
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
	case stageEngines:
		w.stage = stageBasics
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
	n, _ := strconv.Atoi(w.nStr)
	out := make([]string, n)
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
	for _, name := range append(append(w.solvers(), w.critics...), w.judge) {
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
	case stageBasics:
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
	s := engine.Setup{Bug: bug, Lang: bug.Register.Lang, Mode: bugfolder.Mode(w.mode), N: n, R: r,
		Solvers: w.solvers(), Critics: append([]string{}, w.critics...), Judge: w.judge, Parallel: n, Lenses: carryLenses(w.lenses, n)}
	if d, err := time.ParseDuration(strings.TrimSpace(w.timeout)); err == nil {
		s.Timeout = d
	}
	return s
}
