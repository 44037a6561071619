package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/digits"
	"github.com/reversa/moot/internal/money"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/tui"
)

func newPlanCmd(e *env) *cobra.Command {
	var f setupFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "plan BUG [flags]",
		Short: "Print the cost plan of a debate; writes nothing",
		Long: `Print what a debate would cost before anything runs: the calls
(N×(R+1) solver calls + C×R critic calls + 1 judge call, + 1 with
--verify-judge), the tokens and
money per engine (estimates, marked as such), and the warnings (context
windows, external engines, restricted bugs).

A judge of a solver's vendor family is refused (exit 2) unless
--allow-same-family.

plan writes nothing under _reversa_bugs/. Without --mode the estimate assumes
the largest rubric. With a budget cap (--max-usd, --max-tokens, or budget: in
the engines file) the plan shows it and whether the estimate exceeds it. An
engine's estimate is corrected by what its last 10 recorded debates in the
register actually spent (the plan says "learned from N past debates").`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, bug, err := resolveBug(e, args[0])
			if err != nil {
				return err
			}
			cfg, err := loadConfig(f.config, reg)
			if err != nil {
				return err
			}
			s, err := f.setup(cmd, reg, bug, cfg, false)
			if err != nil {
				return err
			}
			plan, err := probedPlan(reg, bug, cfg, s, true)
			if err != nil {
				return err
			}
			if asJSON {
				if err := writePlanJSON(e.stdout, plan); err != nil {
					return err
				}
			} else {
				printPlan(e.stdout, plan)
			}
			if len(plan.Refusals) > 0 {
				return withCode(ExitUsage, errors.New("this debate would be refused: "+strings.Join(plan.Refusals, "; ")))
			}
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the plan as one JSON object")
	return cmd
}

// probedPlan assembles the bug's P into s and plans the debate, with the
// (cached) probe of its engines: a refusal for each that failed, and its
// warnings. A plan not shown before it runs (--yes) leaves out the
// notice about the current debate's archive (engine.NewPlanToRun).
func probedPlan(reg *bugfolder.Register, bug *bugfolder.Bug, cfg *harness.Config, s engine.Setup, shown bool) (*engine.Plan, error) {
	if s.Problem == nil { // a protocol's setup may have made P already (tradeoff's packet)
		p, err := bugfolder.AssembleP(bug)
		if err != nil {
			return nil, err
		}
		s.Problem = p
	}
	price := engine.NewPlan
	if !shown {
		price = engine.NewPlanToRun
	}
	plan, err := price(s, cfg)
	if err != nil {
		return nil, err
	}
	addProbe(plan, cfg, harnessOptions(cfg, reg))
	return plan, nil
}

// addProbe probes the plan's engines (cached) and adds a refusal for each
// that failed, and its warnings.
func addProbe(p *engine.Plan, cfg *harness.Config, o harness.Options) {
	s := p.Setup
	var names []string
	seen := map[string]bool{}
	for _, n := range append(append(append([]string{}, s.Solvers...), s.Critics...), s.Judge) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	ctx, cancel := signalContext()
	defer cancel()
	res := harness.ProbeEngines(ctx, cfg, names, o, harness.DefaultProbeCache(), false)
	p.Refusals = append(p.Refusals, harness.ProbeRefusals(res)...)
	for _, r := range res {
		for _, w := range r.Warnings {
			if !strings.Contains(w, "context window unknown") { // the plan says that itself
				p.Warnings = append(p.Warnings, "engine "+r.Engine+": "+w)
			}
		}
	}
}

// planJSON is `moot plan --json` (docs/cli.md names the required fields).
type planJSON struct {
	Bug      string            `json:"bug_id"`
	Mode     *string           `json:"mode"`
	N        int               `json:"n"`
	R        int               `json:"r"`
	Critics  int               `json:"critics"`
	Calls    engine.CallCounts `json:"calls"`
	Formula  string            `json:"formula"`
	Tokens   planTokens        `json:"tokens"`
	USD      float64           `json:"usd"`
	USDKnown bool              `json:"usd_complete"`
	// USDUncached is the estimate without the providers' prompt caches
	// (the same as usd when the plan expects none).
	USDUncached float64                 `json:"usd_uncached"`
	P           planP                   `json:"p"`
	Engines     []engine.EngineEstimate `json:"engines"`
	Warnings    []string                `json:"warnings"`
	Refusals    []string                `json:"refusals"`
	// Lenses maps each solver with a lens to the lens's name.
	Lenses map[string]string `json:"lenses,omitempty"`
	// Budget is the cap and whether the estimate exceeds it.
	Budget *planBudgetJSON `json:"budget,omitempty"`
	// Stages is the critical path, in the order its stages run.
	Stages []engine.Stage `json:"stages,omitempty"`
}

type planTokens struct {
	Input  int `json:"input"`
	Output int `json:"output"`
	// CachedInput is the part of Input expected from prompt caches.
	CachedInput int  `json:"cached_input"`
	Estimated   bool `json:"estimated"`
}

type planP struct {
	Bytes  int    `json:"bytes"`
	Tokens int    `json:"tokens_estimated"`
	SHA256 string `json:"sha256"`
	Parts  int    `json:"parts"`
}

func writePlanJSON(w io.Writer, p *engine.Plan) error {
	s := p.Setup
	out := planJSON{
		Bug: s.Bug.ID, N: s.N, R: s.R, Critics: len(s.Critics), Calls: p.Calls, Formula: p.Formula,
		Tokens: planTokens{Input: p.Input, Output: p.Output, CachedInput: p.CachedInput, Estimated: true},
		USD:    p.USD, USDKnown: p.USDKnown, USDUncached: p.USDUncached, Engines: p.Engines,
		Warnings: append([]string{}, p.Warnings...), Refusals: append([]string{}, p.Refusals...),
		Budget: budgetJSON(p),
		Stages: p.Stages,
	}
	if s.Mode != "" {
		out.Mode = ptr(string(s.Mode))
	}
	for i, l := range s.Lenses {
		if out.Lenses == nil {
			out.Lenses = map[string]string{}
		}
		out.Lenses[s.Lang.SolverID(i+1)] = l.Name
	}
	if s.Problem != nil {
		out.P = planP{Bytes: s.Problem.Bytes(), Tokens: s.Problem.Tokens(), SHA256: s.Problem.SHA256, Parts: len(s.Problem.Parts)}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// printPlan writes the plan for a person: fitted to the terminal's width
// when w is one, whole lines when piped.
func printPlan(w io.Writer, p *engine.Plan) {
	width := 0 // no cut when the plan is not read on a terminal
	if isTerminal(w) {
		width = termWidth(w)
	}
	writePlan(w, p, width)
}

// fitLine fits one line of a plan to the terminal behind w as writePlan
// fits its own (the one wrap rule, tui.WrapUnder), its continuations under
// hang spaces; piped, the line stays whole.
func fitLine(w io.Writer, line string, hang int) string {
	if !isTerminal(w) {
		return line
	}
	return tui.WrapUnder(line, termWidth(w), hang)
}

// writePlan writes the plan within width columns (0: no limit): the
// mode, setup, calls, path and P lines wrap at spaces under their key,
// and the engines table drops its least telling columns.
func writePlan(w io.Writer, p *engine.Plan, width int) {
	s := p.Setup
	mode := string(s.Mode)
	if mode == "" {
		mode = "(mode not given: estimated with the largest rubric)"
	}
	title := termsafe.Line(s.Bug.Title)
	if title == "" {
		title = s.Bug.ID
	}
	head := fmt.Sprintf("%s plan for %s — %s", protocolTitle(s.Protocol), s.Bug.ID, title)
	if width > 0 && ansi.StringWidth(head) > width {
		head = ansi.Truncate(head, width, "…")
	}
	fmt.Fprintf(w, "%s\n\n", head)
	keyed := func(key, text string) { writeKeyed(w, key, text, width) }
	if !s.Bug.IsQuestion { // a question has no mode (argue's style is a setup line of its own)
		keyed("mode", mode)
	}
	for _, l := range engine.SetupLines(s) {
		text := l.Text
		if l.Note != "" {
			text += " — " + l.Note
		}
		keyed(l.Key, text) // wrapped under its key, never cut: the panel's judge is its last word
	}
	keyed("calls", p.Formula)
	if path := p.PathText(); path != "" {
		keyed("path", path)
	}
	if s.Problem != nil {
		keyed("P", fmt.Sprintf("%s bytes ≈ %s tokens (estimate), %d part(s)", digits.Grouped(s.Problem.Bytes()), digits.Grouped(s.Problem.Tokens()), len(s.Problem.Parts)))
	}
	fmt.Fprintln(w)
	tb := table{header: []string{"ENGINE", "KIND", "EXTERNAL", "ROLES", "CALLS", "TOKENS IN", "TOKENS OUT", "COST"},
		flex: -1, drop: []int{2, 1, 3}, squeeze: 0}
	for _, en := range p.Engines {
		ext := "no"
		if en.External {
			ext = "yes"
		}
		cost := "≈" + engine.USD(en.USD)
		if !en.PriceKnown {
			cost = "unknown" // the warnings say which engine has no price
		}
		tb.rows = append(tb.rows, []string{en.Name, en.Kind, ext, en.Roles, fmt.Sprint(en.Calls), "≈" + digits.Grouped(en.Input), "≈" + digits.Grouped(en.Output), cost})
	}
	tb.rows = append(tb.rows, []string{"total", "", "", "", fmt.Sprint(p.Calls.Total), "≈" + digits.Grouped(p.Input), "≈" + digits.Grouped(p.Output), money.Estimate(p.USD, !p.USDKnown)})
	for _, l := range strings.Split(strings.TrimSuffix(tb.render(max(width-2, 0)), "\n"), "\n") {
		fmt.Fprintln(w, "  "+l)
	}
	fmt.Fprintln(w, "\n  Token and money figures are estimates.")
	if line := engine.CachingLine(p); line != "" {
		fmt.Fprintf(w, "  %s\n", wrapWords(line, width-2, "  "))
	}
	printBudgetLines(w, p, width)
	// on a terminal a warning wraps at spaces with a hanging indent (a path
	// is never split); piped, it stays one line
	wrap := func(x string) string { return wrapWords(termsafe.Text(x), width-4, "    ") }
	if len(p.Warnings) > 0 {
		fmt.Fprintln(w, "\nWarnings:")
		for _, x := range p.Warnings {
			fmt.Fprintf(w, "  - %s\n", wrap(x))
		}
	}
	if len(p.Refusals) > 0 {
		fmt.Fprintln(w, "\nRefused:")
		for _, x := range p.Refusals {
			fmt.Fprintf(w, "  - %s\n", wrap(x))
		}
	}
}

// protocolTitle is the protocol's name as a title word ("Council" plan):
// a council or a tradeoff is not called a debate where it is known.
func protocolTitle(p engine.Protocol) string {
	if p == nil {
		return "Debate"
	}
	return capital(p.Name())
}
