package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/tradeoff"
)

// askProtocols are the protocols moot ask runs over a question, docs/cli.md's
// default (argue) first. A protocol plugs in by adding its name here (and
// in protocols): its setup is built by setupFlags.setup like a bug's, with
// Bug a question's stand-in (bugfolder.QuestionBug) and Setup.Question set.
var askProtocols = []string{argue.Name, council.Name, tradeoff.Name}

func newAskCmd(e *env) *cobra.Command {
	cmd, _ := newAsk(e)
	return cmd
}

// askPrepared is a question set up by moot ask's checks, not started.
type askPrepared struct {
	reg          *bugfolder.Register
	bug          *bugfolder.Bug
	cfg          *harness.Config
	setup        engine.Setup
	project, dir string
	question     string
	pol          *engine.Policies
}

// newAsk is moot ask: its command, and its checks and setup (prepare)
// for the TUI's wizard to run on the words typed into it.
func newAsk(e *env) (*cobra.Command, func(*cobra.Command, []string) (*askPrepared, error)) {
	var af argueFlags
	sf := setupFlags{argue: &af}
	var rf runFlags
	var lang string
	// prepare is ask's checks and setup, up to the plan: the command
	// runs it, and the TUI's wizard runs it on the words it was given
	prepare := func(cmd *cobra.Command, args []string) (*askPrepared, error) {
		if !cmd.Flags().Changed("protocol") {
			sf.protocol = argue.Name
		}
		if !slices.Contains(askProtocols, strings.TrimSpace(sf.protocol)) {
			return nil, usageErr("--protocol %q: ask runs %s over a question; nothing was written", sf.protocol, strings.Join(askProtocols, ", "))
		}
		pol, err := rf.policies(cmd)
		if err != nil {
			return nil, err
		}
		// one line, as options and bug titles are: a question's new
		// lines could forge headings in P and problema.md
		question := strings.Join(strings.Fields(args[0]), " ")
		if question == "" {
			return nil, usageErr("the question is empty: ask a question; nothing was written")
		}
		project := bugfolder.ProjectRoot(e.cwd)
		reg := projectRegister(e, project)
		l, err := askLang(lang, reg)
		if err != nil {
			return nil, err
		}
		cfg, err := askTrustInTUI(loadConfig(sf.config, reg))(true)
		if err != nil {
			return nil, err
		}
		// a key typed in the question is redacted before anything keeps
		// it: P, problema.md's question and the folder's name
		red := harness.NewRedactor(harness.SecretValues(nil)...)
		question = red.String(question)
		_, dir := bugfolder.NewQuestionDir(project, question, time.Now())
		bug := bugfolder.QuestionBug(project, dir, nil)
		bug.Register, bug.Title = &bugfolder.Register{Root: reg.Root, Project: project, Lang: l}, question
		owner, err := bugfolder.RestrictedEvidence(project, sf.evidence)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		if owner != "" { // the one restricted rule then keeps every external engine out
			bug.Visibility = bugfolder.VisibilityRestricted
			what := "a restricted bug"
			if filepath.Dir(owner) == filepath.Join(project, bugfolder.QuestionsDir) {
				what = "a restricted question"
			}
			fmt.Fprintf(e.stderr, "moot: --evidence holds files of %s (%s): this question is restricted too; no external engine will receive it\n", what, termsafe.Line(reg.Rel(owner)))
		}
		if sf.mode != "" {
			return nil, usageErr("--mode applies to a bug's debate; a question has no mode")
		}
		s, err := sf.setup(cmd, bug.Register, bug, cfg, false)
		if err != nil {
			return nil, err
		}
		// a key typed in a lens's text or a criterion is sent and frozen as the question is
		for i := range s.Lenses {
			s.Lenses[i].Text = red.String(s.Lenses[i].Text)
		}
		for i := range s.Criteria {
			s.Criteria[i] = red.String(s.Criteria[i])
		}
		return &askPrepared{reg: reg, bug: bug, cfg: cfg, setup: s, project: project, dir: dir, question: question, pol: pol}, nil
	}
	cmd := &cobra.Command{
		Use:   "ask \"QUESTION\" [--protocol " + strings.Join(askProtocols, "|") + "] [flags]",
		Short: "Debate a question that is not a bug; stored under .moot/debates/",
		Long: `Run a protocol over a question that is not a bug. The debate is stored under
the project root (the folder holding _reversa_bugs/, else the git root, else
the working folder) in .moot/debates/<YYYYMMDD>-<slug>/, in the same layout as
a bug's debate/ (problema.md, rodada-K/, resposta-final.md, eventos.jsonl);
the folder's name is the question's ID, which list, show, resume, transcript
and decide take.

problema.md freezes the question and every --evidence file (read beneath the
project only, never through a symlink out of it) as P.

--protocol is argue (the default), council or tradeoff.

argue (docs/protocols/argue.md) sets personas against each other: --persona NAME
(repeatable; a library persona or .moot/personas/NAME.md; none: two chosen
for the question, and ask says which and why), --style adversarial (two
opposed, the default for two), panel (three or more, the default for
three), socratic (--questioner, --defender) or devils-advocate (--advocate),
-r the round cap (default 2: at most three rounds), --scorer (the scorer's
engine, default the synthesizer's) and --synthesizer. Each round every
persona argues, rebuts, concedes and gives its confidence; the scorer rates
each round as strict JSON; the debate stops on convergence, null
production or the cap, and the synthesizer writes the eight sections.
The plan counts the most calls the cap allows; the debate may stop
earlier, and the end says how many it made.

tradeoff takes --option-a and --option-b (each a testable
statement), --criteria, -r (the rebuttal cap, default 1), --solver (the
reviewers' engine) and --synthesizer; it ends with a pending human decision
(moot decide ID approve|decline|revise).

council (docs/protocols/council.md) takes one --lens per member (at least 2), -r
(cross-rebuttal rounds, at most 3), --criteria and --synthesizer; an
escalated result waits for a human decision.

On a terminal ask opens the cost screen (Start, Edit, Cancel) and the live
view, as moot run does. Headless (--headless, --json, or not a terminal)
--yes accepts the cost plan (without it the plan is printed, nothing is
written, exit 4).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := prepare(cmd, args)
			if err != nil {
				return err
			}
			reg, bug, cfg, s, project, dir, question, pol := a.reg, a.bug, a.cfg, a.setup, a.project, a.dir, a.question, a.pol
			if af.chosen != "" {
				fmt.Fprintf(e.stderr, "personas chosen for the question: %s (give --persona to choose)\n", af.chosen)
			}
			if !rf.isHeadless(e) { // on a terminal: the cost screen and the live view, as moot run
				return askTUI(e, reg, bug, cfg, s, sf.config, rf.yes)
			}
			plan, err := acceptedPlan(e, reg, bug, cfg, s, rf.yes, rf.asJSON)
			if err != nil {
				return err
			}
			id, reserved, err := bugfolder.ReserveQuestionDir(project, bug.ID, question, time.Now())
			if err != nil {
				return err
			}
			if reserved != dir { // another ask of the same question took the planned folder first
				fmt.Fprintf(e.stderr, "moot: %s was taken by another ask meanwhile; this question is %s\n", termsafe.Line(bug.ID), termsafe.Line(id))
				dir, bug.Dir, bug.ID = reserved, reserved, id
			}
			target := resumeTarget(e, bug.ID, bug, sf.config) // an explicit --config is repeated in the advice
			ctx, cancel := interruptContext(e, plan.Setup.Protocol, pol, target)
			defer cancel()
			pr := newProgress(e, reg, rf.asJSON, plan.Setup.Protocol)
			pr.bugDir = dir
			res, err := engine.Start(ctx, plan.Setup, rf.limits(engine.Options{
				Protocol: plan.Setup.Protocol, Config: cfg, Harness: harnessOptions(cfg, reg), Supervisor: pol, Sink: pr.sink, Check: probeCheck(cfg, harnessOptions(cfg, reg)),
				Command: "moot ask", Version: version(), ResumeTarget: target, EnginesFile: enginesFileArg(e, sf.config),
			}))
			return exitFor(e, reg, res, err)
		},
	}
	sf.register(cmd)
	rf.register(cmd)
	af.register(cmd)
	fl := cmd.Flags()
	// every ask protocol refuses the judge's order-swap check (only a
	// debate's judge names a winner): not offered in ask's help
	_ = fl.MarkHidden("verify-judge")
	pf := fl.Lookup("protocol")
	pf.Usage = "the protocol to run over the question: " + askProtocols[0] + " (default), " + strings.Join(askProtocols[1:], ", ")
	pf.DefValue, sf.protocol = askProtocols[0], askProtocols[0] // ask's default, not a bug's debate
	// -r on a question: argue's is a cap its stop rules may end earlier
	rflag := fl.Lookup("r")
	rflag.Usage = fmt.Sprintf("rounds after round 0: argue's cap (default %d; its stop rules may end it earlier from round 2), tradeoff's rebuttal cap (default 1), council's cross-rebuttal rounds (at most 3)", argue.DefaultRounds)
	fl.StringArrayVar(&sf.evidence, "evidence", nil, "a file of the project given to every participant as evidence (repeatable)")
	fl.StringVar(&lang, "lang", "", "pt or en: the language of headings (default: the project's doc_language, else en)")
	return cmd, prepare
}

// askLang is --lang, else the project's doc_language, else English.
func askLang(flag string, reg *bugfolder.Register) (bugfolder.Lang, error) {
	switch strings.TrimSpace(strings.ToLower(flag)) {
	case "":
		if strings.TrimSpace(reg.DocLanguage) == "" {
			return bugfolder.EN, nil // no doc_language: English, not the register's Portuguese default
		}
		return reg.Lang, nil
	case "pt":
		return bugfolder.PT, nil
	case "en":
		return bugfolder.EN, nil
	}
	return 0, usageErr("--lang %q: give pt or en", flag)
}

// askTUI asks the question in the terminal UI: its folder is reserved, the
// cost screen shows the plan, Start runs it in the live view; a cancel
// before anything started leaves no folder behind.
func askTUI(e *env, reg *bugfolder.Register, bug *bugfolder.Bug, cfg *harness.Config, s engine.Setup, config string, yes bool) error {
	if s.Problem == nil {
		p, err := bugfolder.AssembleP(bug)
		if err != nil {
			return err
		}
		s.Problem = p
	}
	id, dir, err := bugfolder.ReserveQuestionDir(bug.Register.Project, bug.ID, bug.Title, time.Now())
	if err != nil {
		return err
	}
	bug.Dir, bug.ID = dir, id
	opts := tuiOptions(e, reg, cfg)
	opts.Protocol, opts.Known = s.Protocol, allProtocols()
	opts.Bug, opts.Setup, opts.Budget, opts.AcceptPlan = bug, s, s.Budget, yes
	e.resumeConfig = config
	err = runProgram(e, reg, opts)
	_ = os.Remove(dir) // only an empty folder goes: the question was never started
	return err
}

// askForWizard is moot ask's setup for the TUI's wizard: args are the
// words after "moot ask" (the question, then flags), checked and set up
// by the ask command's own flags and code, so the wizard refuses what
// the command refuses; reserve takes the question's folder (a folder a
// setup never started in stays empty, and askCleanup removes it).
func askForWizard(e *env, reserved *[]string) func(args []string, reserve bool) (*bugfolder.Bug, engine.Setup, error) {
	return func(args []string, reserve bool) (*bugfolder.Bug, engine.Setup, error) {
		quiet := quietEnv(e)
		cmd, prepare := newAsk(quiet)
		if err := parseWizardWords(e, cmd, args); err != nil {
			return nil, engine.Setup{}, err
		}
		if n := len(cmd.Flags().Args()); n != 1 {
			return nil, engine.Setup{}, usageErr("ask takes one question, %d given", n)
		}
		a, err := prepare(cmd, cmd.Flags().Args())
		if err != nil || !reserve {
			return a.bugOf(), a.setupOf(), inWizardFields(err)
		}
		id, dir, err := bugfolder.ReserveQuestionDir(a.project, a.bug.ID, a.question, time.Now())
		if err != nil {
			return nil, engine.Setup{}, err
		}
		*reserved = append(*reserved, dir)
		a.bug.Dir, a.bug.ID = dir, id
		return a.bug, a.setup, nil
	}
}

// askCleanup removes the question folders the wizard reserved and no
// debate started in (only an empty folder goes).
func askCleanup(reserved []string) {
	for _, dir := range reserved {
		_ = os.Remove(dir)
	}
}

func (a *askPrepared) bugOf() *bugfolder.Bug {
	if a == nil {
		return nil
	}
	return a.bug
}

func (a *askPrepared) setupOf() engine.Setup {
	if a == nil {
		return engine.Setup{}
	}
	return a.setup
}
