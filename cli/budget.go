package cli

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// budgetFlags are --max-usd and --max-tokens (run, plan, ask, resume).
type budgetFlags struct {
	maxUSD    float64
	maxTokens int
}

func (b *budgetFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.Float64Var(&b.maxUSD, "max-usd", 0, "budget cap in dollars: a call that would take the spend (plus the calls in flight) past it is not started, and the budget menu (headless: --on-budget) decides (default: the engines file's budget.max_usd, else none)")
	fl.IntVar(&b.maxTokens, "max-tokens", 0, "budget cap in tokens, in + out as moot records them (default: the engines file's budget.max_tokens, else none)")
}

// cap is the debate's cap: the engines file's budget:, each limit
// overridden by its flag when given.
func (b *budgetFlags) cap(cmd *cobra.Command, file harness.Budget) (harness.Budget, error) {
	c := file
	if cmd.Flags().Changed("max-usd") {
		if !(b.maxUSD > 0) || math.IsInf(b.maxUSD, 0) {
			return c, usageErr("--max-usd %v: give a positive amount of dollars (e.g. --max-usd 2.50); nothing was written", b.maxUSD)
		}
		c.MaxUSD = b.maxUSD
	}
	if cmd.Flags().Changed("max-tokens") {
		if b.maxTokens <= 0 {
			return c, usageErr("--max-tokens %d: give a positive number of tokens; nothing was written", b.maxTokens)
		}
		c.MaxTokens = b.maxTokens
	}
	return c, nil
}

// printBudgetLines writes the plan's budget and learned-estimate lines,
// wrapped at spaces within width (0: one line each).
func printBudgetLines(w io.Writer, p *engine.Plan, width int) {
	for _, l := range engine.PlanBudgetLines(p) {
		writeKeyed(w, l.Key, l.Text, width)
	}
}

// writeKeyed writes one "  key       text" line of the plan, the text
// wrapped at spaces within width (0: no limit) under its own start; a key
// of 10 or more keeps a space before its text.
func writeKeyed(w io.Writer, key, text string, width int) {
	if len(key) >= 10 {
		key += " "
	}
	col := 2 + max(10, len(key))
	fmt.Fprintf(w, "  %-10s%s\n", key, wrapWords(text, width-col, strings.Repeat(" ", col)))
}

// planBudgetJSON is the plan's cap in `moot plan --json` (absent: none).
type planBudgetJSON struct {
	MaxUSD    float64 `json:"max_usd,omitempty"`
	MaxTokens int     `json:"max_tokens,omitempty"`
	Exceeded  bool    `json:"exceeded"`
}

func budgetJSON(p *engine.Plan) *planBudgetJSON {
	c := p.Setup.Budget
	if !c.Set() {
		return nil
	}
	return &planBudgetJSON{MaxUSD: c.MaxUSD, MaxTokens: c.MaxTokens, Exceeded: p.OverBudget()}
}
