package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"
	"github.com/reversa/moot/tui"
	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/humantime"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/lens"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/tradeoff"
)

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(f.Fd())
}

// termWidth is the width of the terminal behind w (80 when unknown).
func termWidth(w any) int {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if wd, _, err := term.GetSize(f.Fd()); err == nil && wd > 0 {
			return wd
		}
	}
	return 80
}

// noColor reports whether the NO_COLOR convention asks for plain output.
func (e *env) noColor() bool { return e.getenv("NO_COLOR") != "" }

// renderMarkdown prints Markdown: rendered with glamour on a terminal
// (without colour under NO_COLOR), as plain Markdown otherwise.
func renderMarkdown(e *env, md string) error {
	md = termsafe.Text(md)
	if !isTerminal(e.stdout) {
		_, err := io.WriteString(e.stdout, md)
		return err
	}
	style := styles.DarkStyle
	switch {
	case e.noColor():
		style = styles.NoTTYStyle
	case !lipgloss.HasDarkBackground(os.Stdin, os.Stdout):
		style = styles.LightStyle
	}
	// the TUI's renderer: quoted lines stay apart and keep their bar when
	// they wrap, as on the Final tab
	_, err := io.WriteString(e.stdout, tui.RenderMarkdown(md, min(termWidth(e.stdout), 120)-2, style)+"\n")
	return err
}

// resolveBug finds the bug a command names, prints the warnings its
// bug.md deserves on stderr, and refuses a bug folder without bug.md.
func resolveBug(e *env, arg string) (*bugfolder.Register, *bugfolder.Bug, error) {
	reg, b, err := bugfolder.Resolve(e.cwd, arg)
	if err != nil || b == nil {
		return reg, b, err
	}
	if b.Incomplete {
		return reg, nil, b.Warnings[0]
	}
	printWarnings(e, b.Warnings)
	return reg, b, nil
}

// printWarnings prints a bug's loose-field warnings on stderr.
func printWarnings(e *env, warns []error) {
	for _, w := range warns {
		fmt.Fprintf(e.stderr, "moot: warning: %s\n", termsafe.Text(w.Error()))
	}
}

// findRegister finds the register above the working folder.
func findRegister(e *env) (*bugfolder.Register, error) {
	reg, err := bugfolder.FindRoot(e.cwd)
	if err != nil {
		return nil, &bugfolder.InputError{Msg: err.Error(), Err: err}
	}
	return reg, nil
}

// loadConfig reads the engines file (explicit, the register's, the
// user's), or returns the built-in engines when there is none. A file
// inside the project (a cloned repository's) that runs commands, redirects
// endpoints, reads a key from the environment, sets a child's environment
// or sets prices must have been trusted with moot trust: otherwise it is
// an *untrustedError (exit 2). Its budget: never loosens the user's own
// engines file's caps (harness.MergeBudget).
func loadConfig(explicit string, reg *bugfolder.Register) (*harness.Config, error) {
	root, project := "", ""
	if reg != nil {
		root, project = reg.Root, reg.Project
	}
	p := harness.FindConfig(explicit, root)
	if p == "" {
		return harness.BuiltinConfig(), nil
	}
	cfg, err := harness.LoadConfig(p)
	if err != nil {
		return nil, err
	}
	if !projectFile(reg, p) {
		return cfg, nil
	}
	// the user's own caps hold whatever a project's file says
	if own := harness.UserConfigPath(); own != "" && absPath(own) != absPath(p) {
		mine, err := harness.LoadConfig(own)
		if err != nil {
			return nil, err
		}
		cfg.Budget = harness.MergeBudget(mine.Budget, cfg.Budget)
	}
	if reasons := harness.TrustReasons(cfg, project); len(reasons) > 0 && !harness.DefaultTrustStore().Trusted(p, harness.TrustSum(cfg, project)) {
		return cfg, withCode(ExitUsage, &untrustedError{cfg: cfg, reasons: reasons, rel: reg.Rel(absPath(p)), path: absPath(p)})
	}
	return cfg, nil
}

// projectFile reports whether the engines file at path belongs to the
// project (it came with the repository) rather than to the user.
func projectFile(reg *bugfolder.Register, path string) bool {
	if own := harness.DefaultTrustStore().Path; own != "" && bugfolder.Within(filepath.Dir(own), absPath(path)) {
		return false // the user's own engines file, in the user's config folder
	}
	return reg != nil && bugfolder.Within(reg.Project, absPath(path))
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// untrustedError is a project engines file that needs moot trust first.
type untrustedError struct {
	cfg     *harness.Config
	reasons []string
	rel     string
	path    string
}

func (u *untrustedError) Error() string {
	return fmt.Sprintf("%s is this project's engines file and it is not trusted: %s. Read it, then trust it with: moot trust (its sha256 and its programs' are remembered; a changed file or program needs trust again)",
		u.rel, strings.Join(u.reasons, "; "))
}

// setupFlags are the flags run and plan share (docs/cli.md).
type setupFlags struct {
	// wizard is set when the terminal UI's wizard asks what the flags
	// leave out (a tradeoff's options).
	wizard   bool
	protocol string
	mode     string
	n, r     int
	solvers  []string
	critics  []string
	judge    string
	config   string
	timeout  time.Duration
	parallel int
	lenses   []string
	// tradeoff's options, criteria and synthesizer
	optionA, optionB, criteria, synthesizer string
	// council's stakes: --value-at-risk (as typed) and --irreversible
	valueAtRisk  string
	irreversible bool
	// evidence are a question's --evidence files (ask)
	evidence []string
	// argue's flags (ask only; nil elsewhere)
	argue *argueFlags
	// beyond are docs/beyond.md's flags (beyond.go)
	beyond beyondFlags
	// budget is --max-usd and --max-tokens
	budget budgetFlags
}

func (f *setupFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.protocol, "protocol", "debate", "the protocol: debate (docs/protocols/debate.md: N solvers, R fixed rounds, an isolated judge), council (docs/protocols/council.md: one member per --lens, R ≤ 3 cross-rebuttal rounds, an isolated synthesizer, escalation) or tradeoff (docs/protocols/tradeoff.md: two reviewers, one per --option-a/-b, a rebuttal cap, a synthesizer, a pending human decision)")
	fl.StringVar(&f.mode, "mode", "", "the debate's mode: diagnosis, repair or spec")
	fl.IntVarP(&f.n, "n", "n", 3, "solvers (2 ≤ N ≤ 16)")
	fl.IntVarP(&f.r, "r", "r", 2, "rounds after round 0, no early stopping (0 ≤ R ≤ 10)")
	fl.StringArrayVar(&f.solvers, "solver", nil, "engine of the solvers: once for all, or N times, one each (default: the engines file's defaults.solver)")
	fl.StringArrayVar(&f.critics, "critic", nil, "add a critic on this engine (rounds 1..R); repeatable, at most 8")
	fl.StringVar(&f.judge, "judge", "", "the judge's engine (default: defaults.judge, else the solvers' engine)")
	fl.StringVar(&f.config, "config", "", "engines file (default: moot.yaml in the _reversa_bugs/ root, then $XDG_CONFIG_HOME/moot/moot.yaml)")
	fl.DurationVar(&f.timeout, "timeout", 0, "hard limit per call, overriding every engine's own (default: the engine's, else 10m)")
	fl.IntVar(&f.parallel, "parallel", 0, "calls at once; 1 is the sequential fallback (default: the largest stage, N unless there are more critics)")
	fl.StringVar(&f.optionA, "option-a", "", "tradeoff: option A as a testable statement (required)")
	fl.StringVar(&f.optionB, "option-b", "", "tradeoff: option B as a testable statement (required)")
	fl.StringVar(&f.criteria, "criteria", "", "tradeoff/council: what the decision is judged by, one criterion a line or separated by ';' (default: the mode's rubric)")
	fl.StringVar(&f.synthesizer, "synthesizer", "", "tradeoff/council/argue: the synthesizer's engine (default: defaults.judge, else the reviewers', members' or personas' engine)")
	fl.StringVar(&f.valueAtRisk, "value-at-risk", "", "council: the value the decision puts at risk, a number in the register's currency; over 100000 the result escalates (docs/protocols/council.md); frozen in problema.md")
	fl.BoolVar(&f.irreversible, "irreversible", false, "council: the decision cannot be undone, so the result escalates to a human (docs/protocols/council.md); frozen in problema.md")
	f.beyond.register(cmd)
	f.budget.register(cmd)
	fl.StringArrayVar(&f.lenses, "lens", nil, "a solver's lens: a library name ("+strings.Join(lens.Names(), ", ")+"), a project lens (.moot/lenses/NAME.md, the engines file's lenses:) or \"name: text\"; once for every solver, or N times, one each")
}

// setup validates the flags against the bug and the engines file and
// builds the locked input of a debate. requireMode is set for a real run.
func (f *setupFlags) setup(cmd *cobra.Command, reg *bugfolder.Register, bug *bugfolder.Bug, cfg *harness.Config, requireMode bool) (engine.Setup, error) {
	s := engine.Setup{Bug: bug, Lang: reg.Lang, N: f.n, R: f.r, Timeout: f.timeout,
		VerifyJudge: f.beyond.verifyJudge, AllowSameFamily: f.beyond.allowSameFamily}
	if bug.IsQuestion {
		s.Question = bug.Title
	}
	p, err := pickProtocol(f.protocol)
	if err != nil {
		return s, err
	}
	s.Protocol = p
	offered := bugProtocols()
	if f.argue != nil { // moot ask
		offered = askProtocols
	}
	if err := checkFlags(cmd, p.Name(), cmd.Flags().Changed("protocol"), offered); err != nil {
		return s, err
	}
	if err := checkTimeouts(cmd); err != nil {
		return s, err
	}
	if s.Budget, err = f.budget.cap(cmd, cfg.Budget); err != nil {
		return s, err
	}
	if p.Name() == tradeoff.Name {
		if err := f.tradeoffFlags(cmd, &s, !f.wizard); err != nil {
			return s, err
		}
	}
	if p.Name() == council.Name {
		if err := f.councilFlags(cmd, &s); err != nil {
			return s, err
		}
	}
	if p.Name() == argue.Name {
		if f.argue == nil {
			return s, usageErr("argue debates a question: use moot ask \"QUESTION\"; nothing was written")
		}
		if err := f.argue.setup(cmd, f, &s, reg, bug); err != nil {
			return s, err
		}
	}
	if f.mode != "" {
		m, err := bugfolder.ParseMode(f.mode)
		if err != nil {
			return s, usageErr("--mode: %v", err)
		}
		s.Mode = m
	} else if requireMode {
		return s, usageErr("--mode is required without a terminal: pass --mode diagnosis, repair or spec")
	}
	if f.n < 2 {
		return s, usageErr("-n %d: a debate needs at least 2 solvers", f.n)
	}
	if f.r < 0 {
		return s, usageErr("-r %d: rounds after round 0 cannot be negative (0 = independent answers plus the judge)", f.r)
	}
	if p.Name() == council.Name && len(f.lenses) > engine.MaxSolvers {
		return s, usageErr("--lens given %d times: a council has one member per lens, and moot runs at most %d members; nothing was written", len(f.lenses), engine.MaxSolvers)
	}
	for _, l := range []struct { // each limit named with the flag that asks past it
		flag      string
		got, most int
		what, fix string
	}{
		{fmt.Sprintf("-n %d", f.n), f.n, engine.MaxSolvers, engine.Describe(p).Members, fmt.Sprintf("pass -n %d or less", engine.MaxSolvers)},
		{fmt.Sprintf("-r %d", f.r), f.r, engine.MaxRounds, "rounds after round 0", fmt.Sprintf("pass -r %d or less", engine.MaxRounds)},
		{fmt.Sprintf("--critic given %d times", len(f.critics)), len(f.critics), engine.MaxCritics, "critics", fmt.Sprintf("give --critic at most %d times", engine.MaxCritics)},
	} {
		if l.got > l.most {
			return s, usageErr("%s: moot runs at most %d %s; %s; nothing was written", l.flag, l.most, l.what, l.fix)
		}
	}
	if err := engine.CheckSize(p, f.n, f.r, len(f.critics)); err != nil {
		return s, usageErr("%v (see moot help run)", err)
	}
	s.Parallel = f.parallel
	if s.Parallel == 0 {
		s.Parallel = max(f.n, len(f.critics)) // the largest stage (engine.DefaultParallel)
	}
	if err := checkParallel(s.Parallel, f.parallel); err != nil {
		return s, err
	}
	switch len(f.solvers) {
	case 0:
		name := cfg.Defaults.Solver
		if name == "" && len(cfg.Order) == 1 {
			name = cfg.Order[0]
		}
		if name == "" {
			return s, usageErr("no solver engine: pass --solver NAME or set defaults.solver in %s (engines: %s)", configName(cfg), strings.Join(cfg.Order, ", "))
		}
		for i := 0; i < f.n; i++ {
			s.Solvers = append(s.Solvers, name)
		}
	case 1:
		for i := 0; i < f.n; i++ {
			s.Solvers = append(s.Solvers, f.solvers[0])
		}
	case f.n:
		s.Solvers = append(s.Solvers, f.solvers...)
	default:
		return s, usageErr("--solver given %d times for %d solvers: give one engine for all, or exactly one per solver", len(f.solvers), f.n)
	}
	s.Critics = append(s.Critics, f.critics...)
	s.Judge = f.judge
	if f.synthesizer != "" {
		s.Judge = f.synthesizer
	}
	if s.Judge == "" {
		s.Judge = cfg.Defaults.Judge
	}
	if s.Judge == "" {
		s.Judge = s.Solvers[0]
	}
	for _, name := range append(append(append([]string{}, s.Solvers...), s.Critics...), s.Judge) {
		if _, err := cfg.Engine(name); err != nil {
			return s, err
		}
	}
	if p.Name() == tradeoff.Name {
		if len(s.Lenses) < 2 {
			return s, nil // the terminal UI's wizard asks the options
		}
		return s, f.tradeoffPacket(&s, bug)
	}
	if p.Name() == argue.Name {
		return s, f.argue.scorerEngine(&s, cfg)
	}
	lenses, err := f.resolveLenses(cmd.ErrOrStderr(), reg, cfg)
	if err != nil {
		return s, err
	}
	s.Lenses = lenses
	if p.Name() == council.Name {
		if err := distinctLenses(f.lenses, lenses); err != nil {
			return s, err
		}
		if len(s.Lenses) == 0 {
			return s, nil // the terminal UI's wizard asks the lenses; Pack adds the criteria
		}
		return s, f.councilProblem(&s, bug)
	}
	return s, nil
}

// resolveLenses reads --lens: none, one for every solver, or one each
// (other counts are a usage error, as for --solver). A project lens file
// that cannot be read is a warning on warn, and refused only when named.
func (f *setupFlags) resolveLenses(warn io.Writer, reg *bugfolder.Register, cfg *harness.Config) ([]bugfolder.Lens, error) {
	if len(f.lenses) == 0 {
		return nil, nil
	}
	if len(f.lenses) != 1 && len(f.lenses) != f.n {
		return nil, usageErr("--lens given %d times for %d solvers: give one lens for every solver, or exactly one per solver", len(f.lenses), f.n)
	}
	cat, err := loadLenses(reg, cfg)
	if err != nil {
		return nil, err
	}
	for _, lerr := range cat.Problems() {
		fmt.Fprintf(warn, "moot: warning: %s; that lens is left out until the file is fixed\n", termsafe.Text(lerr.Error()))
	}
	var out []bugfolder.Lens
	for _, arg := range f.lenses {
		l, err := cat.Resolve(arg)
		if err != nil {
			return nil, usageErr("%v; nothing was written", err)
		}
		out = append(out, l)
	}
	warnReplacedLenses(warn, reg, cat, out)
	for len(out) < f.n {
		out = append(out, out[0])
	}
	return out, nil
}

// warnReplacedLenses names on w each lens in use whose library text a file
// of the project replaced (.moot/lenses/NAME.md, the project's engines
// file): the repository would be writing the participants' brief.
func warnReplacedLenses(w io.Writer, reg *bugfolder.Register, cat *lens.Catalog, used []bugfolder.Lens) {
	var names, files []string
	for _, l := range used {
		by := cat.ReplacedBy(l.Name)
		if by == "" || slices.Contains(names, l.Name) {
			continue
		}
		if cur, err := cat.Resolve(l.Name); err != nil || cur.Text != l.Text {
			continue // given inline on the command line
		}
		file := by
		if i := strings.LastIndexByte(file, ':'); i > 0 && strings.Trim(file[i+1:], "0123456789") == "" {
			file = file[:i]
		}
		if reg == nil || !bugfolder.Within(reg.Project, absPath(file)) {
			continue // the user's own engines file
		}
		names, files = append(names, l.Name), append(files, reg.Rel(absPath(file)))
	}
	if len(names) > 0 {
		fmt.Fprintf(w, "moot: warning: the project replaces the library's text of lens %s (%s): the participants are briefed in the repository's words; read them, or give a lens inline (--lens \"name: text\")\n",
			termsafe.Line(strings.Join(names, ", ")), termsafe.Line(strings.Join(files, ", ")))
	}
}

// loadLenses builds the project's lens catalog: the library, the engines
// file's lenses: and the project's .moot/lenses/*.md.
func loadLenses(reg *bugfolder.Register, cfg *harness.Config) (*lens.Catalog, error) {
	var entries []lens.Entry
	for _, e := range cfg.Lenses {
		entries = append(entries, lens.Entry{Name: e.Name, Text: e.Text, Where: fmt.Sprintf("%s:%d", cfg.Path, e.Line)})
	}
	project := ""
	if reg != nil {
		project = reg.Project
	}
	return lens.Load(project, entries)
}

func configName(cfg *harness.Config) string {
	if cfg.Path == "" {
		return "an engines file (none found, using the built-in local engine)"
	}
	return cfg.Path
}

// humanDuration prints a duration compactly: 2m31s, 850ms.
func humanDuration(d time.Duration) string {
	if d <= 0 {
		return "—"
	}
	return humantime.Duration(d)
}

// elapsedText is how long a debate ran (bugfolder.Debate.Elapsed), or "—"
// when nothing records it: list and show write it alike.
func elapsedText(d time.Duration, known bool) string {
	return bugfolder.ElapsedText(d, known, humantime.Duration)
}

// resumeTarget is how printed advice names the bug and engines file for a
// later `moot resume`: a bug named by path keeps a path (absolute, so it
// works from anywhere), and an explicit --config is repeated.
func resumeTarget(e *env, arg string, bug *bugfolder.Bug, config string) string {
	target := bug.ID
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.cwd, p)
	}
	if st, err := os.Stat(p); (err == nil && st.IsDir()) || strings.ContainsRune(arg, '/') {
		target = bug.Dir
	}
	return resumeWords(e, target, config)
}

// resumeWords are a `moot resume`'s arguments (engine.ResumeArgs, the one
// place every resume hint is built): the target and, when the command was
// given one, the engines file.
func resumeWords(e *env, target, config string) string {
	return engine.ResumeArgs(target, enginesFileArg(e, config))
}

// enginesFileArg is an explicit --config made absolute (from the command's
// directory), so a hint that repeats it works from anywhere; "" when none
// was given.
func enginesFileArg(e *env, config string) string {
	if config == "" || filepath.IsAbs(config) {
		return config
	}
	return filepath.Join(e.cwd, config)
}

// checkParallel refuses a --parallel under 1 (given is what the user typed).
func checkParallel(n, given int) error {
	if n < 1 {
		return usageErr("--parallel %d: give 1 (sequential) or more", given)
	}
	return nil
}
