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
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/tradeoff"
)

// askProtocols are the protocols moot ask runs over a question. A
// protocol plugs in by adding its name here (and in protocols): its
// setup is built by setupFlags.setup like a bug's, with Bug a question's
// stand-in (bugfolder.QuestionBug) and Setup.Question set. CLI.md's
// default, argue, is not built yet, so --protocol is required.
var askProtocols = []string{council.Name, tradeoff.Name}

func newAskCmd(e *env) *cobra.Command {
	var sf setupFlags
	var rf runFlags
	var lang string
	cmd := &cobra.Command{
		Use:   "ask \"QUESTION\" --protocol P [flags]",
		Short: "Debate a question that is not a bug; stored under .moot/debates/",
		Long: `Run a protocol over a question that is not a bug. The debate is stored under
the project root (the folder holding _reversa_bugs/, else the git root, else
the working folder) in .moot/debates/<YYYYMMDD>-<slug>/, in the same layout as
a bug's debate/ (problema.md, rodada-K/, resposta-final.md, eventos.jsonl);
the folder's name is the question's ID, which list, show, resume, transcript
and decide take.

problema.md freezes the question and every --evidence file (read beneath the
project only, never through a symlink out of it) as P.

--protocol is required: ` + strings.Join(askProtocols, ", ") + ` runs today (CLI.md's default, argue,
is not built yet). tradeoff takes --option-a and --option-b (each a testable
statement), --criteria, -r (the rebuttal cap, default 1), --solver (the
reviewers' engine) and --synthesizer; it ends with a pending human decision
(moot decide ID approve|decline|revise). council takes one --lens per member
(at least 2), -r (cross-rebuttal rounds, at most 3), --criteria and
--synthesizer; an escalated result waits for a human decision. ask runs headless: --yes accepts
the cost plan (without it the plan is printed, nothing is written, exit 4).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("protocol") || !slices.Contains(askProtocols, strings.TrimSpace(sf.protocol)) {
				return usageErr("ask needs --protocol: this moot runs %s over a question (argue, CLI.md's default, is not built yet); nothing was written", strings.Join(askProtocols, ", "))
			}
			pol, err := rf.policies()
			if err != nil {
				return err
			}
			question := strings.TrimSpace(args[0])
			if question == "" {
				return usageErr("the question is empty: ask a question; nothing was written")
			}
			project := bugfolder.ProjectRoot(e.cwd)
			reg := projectRegister(e, project)
			l, err := askLang(lang, reg)
			if err != nil {
				return err
			}
			cfg, err := askTrustInTUI(loadConfig(sf.config, reg))(true)
			if err != nil {
				return err
			}
			_, dir := bugfolder.NewQuestionDir(project, question, time.Now())
			bug := bugfolder.QuestionBug(project, dir, nil)
			bug.Register, bug.Title = &bugfolder.Register{Root: reg.Root, Project: project, Lang: l}, question
			if sf.mode != "" {
				return usageErr("--mode applies to a bug's debate; a question has no mode")
			}
			s, err := sf.setup(cmd, bug.Register, bug, cfg, false)
			if err != nil {
				return err
			}
			plan, err := acceptedPlan(e, reg, bug, cfg, s, rf.yes, rf.asJSON)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
				return fmt.Errorf("create %s: %w", filepath.Dir(dir), err)
			}
			ctx, cancel := signalContext()
			defer cancel()
			pr := newProgress(e, reg, rf.asJSON)
			pr.bugDir, pr.final = dir, engine.Describe(plan.Setup.Protocol).Final
			res, err := engine.Start(ctx, plan.Setup, rf.limits(engine.Options{
				Protocol: plan.Setup.Protocol, Config: cfg, Harness: harnessOptions(cfg, reg), Supervisor: pol, Sink: pr.sink, Check: probeCheck(cfg, harnessOptions(cfg, reg)),
				Command: "moot ask", Version: version(), ResumeTarget: bug.ID,
			}))
			return exitFor(e, reg, res, err)
		},
	}
	sf.register(cmd)
	rf.register(cmd)
	fl := cmd.Flags()
	fl.Lookup("protocol").Usage = "required: the protocol to run over the question (" + strings.Join(askProtocols, ", ") + ")"
	fl.StringArrayVar(&sf.evidence, "evidence", nil, "a file of the project given to every participant as evidence (repeatable)")
	fl.StringVar(&lang, "lang", "", "pt or en: the language of headings (default: the project's doc_language, else en)")
	return cmd
}

// askLang is --lang, else the project's doc_language, else English.
func askLang(flag string, reg *bugfolder.Register) (bugfolder.Lang, error) {
	switch strings.TrimSpace(strings.ToLower(flag)) {
	case "":
		return reg.Lang, nil
	case "pt":
		return bugfolder.PT, nil
	case "en":
		return bugfolder.EN, nil
	}
	return 0, usageErr("--lang %q: give pt or en", flag)
}
