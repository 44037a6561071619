package tui

import (
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/shellword"
)

// questionNewAdvice is what n says on a question's row: a question's
// folder holds one debate, so another one is asked with moot ask, which
// this line spells out as a command that runs as printed — the question's
// own protocol with what that protocol requires (a council's lenses, a
// tradeoff's two options, as recorded in its problem), else argue; the
// footer cuts the question at a narrow width, never the command's start.
func questionNewAdvice(question string, p *bugfolder.ProblemFile) string {
	args := []string{"moot", "ask"}
	if p != nil {
		var ids []string
		for id := range p.Lenses {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		switch p.Protocol {
		case "council":
			args = append(args, "--protocol", "council")
			for _, id := range ids {
				args = append(args, "--lens", shellword.Quote(p.Lenses[id].Name))
			}
		case "tradeoff":
			if len(ids) == 2 {
				args = append(args, "--protocol", "tradeoff", "--option-a", shellword.Quote(p.Lenses[ids[0]].Text), "--option-b", shellword.Quote(p.Lenses[ids[1]].Text))
			}
		}
	}
	return "a question holds one debate; ask it again: " + strings.Join(append(args, "--", shellword.Quote(question)), " ")
}
