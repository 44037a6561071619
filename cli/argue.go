package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/persona"
	"github.com/reversa/moot/protocol/argue"
)

// argueFlags are argue's own flags (docs/cli.md): the personas, the mode and
// its roles, and the scorer's engine.
type argueFlags struct {
	personas                       []string
	style                          string
	questioner, defender, advocate string
	scorer                         string
	// chosen says which personas moot chose and why, when none were given.
	chosen string
}

func (a *argueFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVar(&a.personas, "persona", nil, "argue: a persona (library: "+strings.Join(persona.Names(), ", ")+"; or .moot/personas/NAME.md); repeatable (default: two chosen for the question)")
	fl.StringVar(&a.style, "style", "", "argue's mode: adversarial (2 personas), panel (3+), socratic (--questioner, --defender) or devils-advocate (--advocate)")
	fl.StringVar(&a.questioner, "questioner", "", "argue, socratic: the persona that probes")
	fl.StringVar(&a.defender, "defender", "", "argue, socratic: the persona that defends")
	fl.StringVar(&a.advocate, "advocate", "", "argue, devils-advocate: the persona that argues against the position it may hold")
	fl.StringVar(&a.scorer, "scorer", "", "argue: the scorer's engine (default: the synthesizer's)")
}

// names are the personas of the debate, in panel order, from --persona
// and the mode's role flags; none given: two chosen for the question among
// the project's personas and the library's.
func (a *argueFlags) names(question string, project []persona.Persona) []string {
	names := slices.Clone(a.personas)
	for _, role := range []string{a.questioner, a.defender, a.advocate} {
		if role != "" && !slices.Contains(names, role) {
			names = append(names, role)
		}
	}
	if len(names) == 0 {
		pair, why := persona.Choose(question, project)
		a.chosen = why
		return []string{pair[0].Name, pair[1].Name}
	}
	if len(names) == 1 { // a lone advocate gets an opponent chosen for it
		pair, _ := persona.Choose(question, project)
		other := pair[0].Name
		if other == names[0] {
			other = pair[1].Name
		}
		a.chosen = fmt.Sprintf("%s was given; %s was chosen as its opponent", names[0], other)
		if a.advocate != "" {
			a.chosen = fmt.Sprintf("%s was given; %s was chosen to hold the position it argues against", names[0], other)
		}
		names = append(names, other)
	}
	return names
}

// mode is --style, checked against the personas, or the default for
// their count: adversarial for two, panel for three or more.
func (a *argueFlags) mode(names []string) (string, error) {
	style := strings.TrimSpace(a.style)
	if style == "" {
		switch {
		case a.questioner != "" || a.defender != "":
			style = argue.Socratic
		case a.advocate != "":
			style = argue.DevilsAdvocate
		case len(names) == 2:
			style = argue.Adversarial
		default:
			style = argue.Panel
		}
	}
	// a mode's role flag under another mode would be silently dropped
	// (the persona argued an ordinary part): name it and its style
	var roles []string
	if a.questioner != "" {
		roles = append(roles, "--questioner")
	}
	if a.defender != "" {
		roles = append(roles, "--defender")
	}
	if len(roles) > 0 && style != argue.Socratic {
		verb := "applies"
		if len(roles) > 1 {
			verb = "apply"
		}
		return "", usageErr("%s %s to --style socratic, not %s; nothing was written", joinAnd(roles), verb, style)
	}
	if a.advocate != "" && style != argue.DevilsAdvocate {
		return "", usageErr("--advocate applies to --style devils-advocate, not %s; nothing was written", style)
	}
	switch style {
	case argue.Adversarial:
		if len(names) != 2 {
			return "", usageErr("--style adversarial is two opposed personas; %d given (use --style panel for more); nothing was written", len(names))
		}
	case argue.Panel:
		if len(names) < 3 {
			return "", usageErr("--style panel is three or more personas; %d given; nothing was written", len(names))
		}
	case argue.Socratic:
		if a.questioner == "" || a.defender == "" || a.questioner == a.defender || len(names) != 2 {
			return "", usageErr("--style socratic needs --questioner and --defender, two different personas (and no other); nothing was written")
		}
	case argue.DevilsAdvocate:
		if a.advocate == "" {
			return "", usageErr("--style devils-advocate needs --advocate NAME, the persona that argues against the position; nothing was written")
		}
	default:
		return "", usageErr("--style %q: give %s", style, strings.Join(argue.Styles, ", "))
	}
	return style, nil
}

// part is a persona's part in the mode, frozen in its lens text.
func (a *argueFlags) part(style, name string, i, n int) string {
	switch style {
	case argue.Adversarial:
		return fmt.Sprintf("adversarial, side %d of 2 — take a clear position on the question, opposed to the other persona's, and argue it", i+1)
	case argue.Socratic:
		if name == a.questioner {
			return "socratic questioner — probe the defender's position with pointed questions (your Argument is your questions and why they matter); do not defend a thesis of your own"
		}
		return "socratic defender — state a position and defend it, answering every question the questioner asked"
	case argue.DevilsAdvocate:
		if name == a.advocate {
			return "devil's advocate — argue AGAINST the position you would most likely hold on this question, as strongly as the evidence allows, even if you agree with it"
		}
		return "the position's holder — argue the position you hold; the devil's advocate argues against it"
	}
	return fmt.Sprintf("panel, one of %d angles — argue from your domain's angle", n)
}

// setup fills an argue setup: the personas as frozen lenses, the panel
// size, the scorer, the round cap and the question's P.
func (a *argueFlags) setup(cmd *cobra.Command, f *setupFlags, s *engine.Setup, reg *bugfolder.Register, bug *bugfolder.Bug) error {
	if !bug.IsQuestion {
		return usageErr("argue debates a question: use moot ask \"QUESTION\"; nothing was written")
	}
	cat, err := persona.Load(reg.Project)
	if err != nil {
		return err
	}
	for _, perr := range cat.Problems() {
		fmt.Fprintf(cmd.ErrOrStderr(), "moot: warning: %s; that persona is left out until the file is fixed\n", termsafe.Text(perr.Error()))
	}
	names := a.names(bug.Title, cat.Project())
	style, err := a.mode(names)
	if err != nil {
		return err
	}
	if a.advocate != "" && !slices.Contains(names, a.advocate) {
		return usageErr("--advocate %s is not one of the personas (%s); nothing was written", a.advocate, strings.Join(names, ", "))
	}
	s.Lenses = nil
	for i, n := range names {
		if slices.Index(names, n) != i {
			return usageErr("--persona %s is given twice: each persona argues once; nothing was written", n)
		}
		p, err := cat.Get(n)
		if err != nil {
			return usageErr("%v; nothing was written", err)
		}
		s.Lenses = append(s.Lenses, p.Lens(a.part(style, n, i, len(names))))
	}
	if cmd.Flags().Changed("n") && f.n != len(names) {
		return usageErr("-n %d but %d personas: argue has one participant per persona; nothing was written", f.n, len(names))
	}
	f.n, s.N = len(names), len(names)
	if !cmd.Flags().Changed("r") {
		f.r = argue.DefaultRounds
	}
	s.R = f.r
	p, err := bugfolder.AssembleQuestionP(reg.Project, s.Question, f.evidence, s.Lang)
	if err != nil {
		return err
	}
	s.Problem = p
	return nil
}

// scorerEngine sets the scorer: --scorer, else the synthesizer's engine.
func (a *argueFlags) scorerEngine(s *engine.Setup, cfg *harness.Config) error {
	name := a.scorer
	if name == "" {
		name = s.Judge
	}
	if _, err := cfg.Engine(name); err != nil {
		return err
	}
	s.Critics = []string{name}
	return nil
}
