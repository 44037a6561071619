package cli

import "github.com/spf13/cobra"

// beyondFlags are docs/beyond.md's flags of run, plan and ask (docs/cli.md,
// "Beyond-every-peer flags") that this file owns: the judge's order-swap
// check and the judge family rule's override.
type beyondFlags struct {
	verifyJudge     bool
	allowSameFamily bool
}

func (b *beyondFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&b.verifyJudge, "verify-judge", false, "debate: the judge's order-swap check — a second judge call with every proposal moved to another slot under another label (one more call, counted and priced in the plan); a different winner marks the verdict unstable, keeps both answers in juiz/ and opens the judge-failure menu (headless: --on-judge-failure)")
	fl.BoolVar(&b.allowSameFamily, "allow-same-family", false, "let the judge (synthesizer, scorer) share a vendor family with a solver (member, persona); refused by default with exit 2 naming the family; recorded in the final answer")
}
