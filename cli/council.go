package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/lens"
	"github.com/reversa/moot/protocol/council"
)

// councilFlags checks council's own flags: one member per --lens (N is
// the number of lenses; -n, when given, must agree), at most
// council.MaxRounds rebuttal rounds, no critics. Without --lens it is
// exit 2 naming --lens headless (docs/cli.md: "council: asked"); in the
// terminal UI the wizard asks.
func (f *setupFlags) councilFlags(cmd *cobra.Command, s *engine.Setup) error {
	st, err := engine.ParseStakes(f.valueAtRisk, f.irreversible)
	if err != nil {
		return usageErr("--%v; nothing was written", strings.Replace(err.Error(), "value at risk", "value-at-risk", 1))
	}
	s.Stakes = st
	if len(f.lenses) == 0 && f.wizard {
		return nil // the terminal UI's wizard asks a lens per member
	}
	if len(f.lenses) == 1 {
		members := "at least 2 members"
		if cmd.Flags().Changed("n") && f.n > 1 {
			members = fmt.Sprintf("-n %d members", f.n)
		}
		return usageErr("--lens %q given once for %s: a council has one member per --lens, so give --lens once per member, each a different lens (e.g. --lens security --lens performance); a single --lens is not repeated for every member as it is for a debate's solvers; nothing was written", f.lenses[0], members)
	}
	if len(f.lenses) < 2 {
		return usageErr("--lens is required by --protocol council, once per member (at least 2), e.g. --lens security --lens performance --lens data-integrity; nothing was written")
	}
	if cmd.Flags().Changed("n") && f.n != len(f.lenses) {
		return usageErr("-n %d with %d --lens: a council has one member per lens (drop -n)", f.n, len(f.lenses))
	}
	if f.r > council.MaxRounds {
		return usageErr("-r %d: council runs at most %d cross-rebuttal rounds (docs/protocols/council.md); nothing was written", f.r, council.MaxRounds)
	}
	f.n, s.N = len(f.lenses), len(f.lenses)
	return nil
}

// councilProblem assembles a council's P: the bug's P (or, on a question,
// the question and its --evidence files), with the --criteria appended as
// a section of their own so problema.md freezes them.
func (f *setupFlags) councilProblem(s *engine.Setup, bug *bugfolder.Bug) error {
	s.Criteria = criteriaList(f.criteria, nil)
	var p *bugfolder.Problem
	var err error
	if bug.IsQuestion {
		p, err = bugfolder.AssembleQuestionP(bug.Register.Project, s.Question, f.evidence, s.Lang)
	} else {
		p, err = bugfolder.AssembleP(bug)
	}
	if err != nil {
		return err
	}
	s.Problem = council.Protocol{}.Pack(*s, p, criteriaList(f.criteria, nil))
	return nil
}

// distinctLenses refuses a council whose members share a lens (by name,
// however it was given): each member defends its own, and the synthesizer
// tells them apart by lens.
func distinctLenses(args []string, lenses []bugfolder.Lens) error {
	first := map[string]int{}
	for i, l := range lenses {
		j, seen := first[l.Name]
		if !seen {
			first[l.Name] = i
			continue
		}
		return usageErr("--lens %s and --lens %s are the same lens, %q: a council has one member per lens, each a different lens (e.g. --lens security --lens performance); nothing was written",
			lens.Quote(args[j]), lens.Quote(args[i]), l.Name)
	}
	return nil
}
