package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/safefs"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/protocol/argue"
)

func newTranscriptCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "transcript TARGET",
		Short: "The whole debate as one Markdown document on stdout",
		Long: `Print a bug's latest debate, or a question's, as one Markdown document:
the summary, problema.md (settings, rubric, P), every round's files
(failures included), the convergence table, the final answer and the human
decision. TARGET is a bug (path, ID or display number) or a question's ID
or folder (.moot/debates/<date>-<slug>). The output is plain Markdown,
never rendered, so it can be saved or piped.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir := reviewTarget(e, args[0]); dir != "" {
				return printReview(e, dir) // a review's summary holds its verdicts, findings and rounds
			}
			reg, bug, ds, err := showSubject(e, args[0])
			if err != nil {
				return err
			}
			if len(ds) == 0 {
				return usageErr("%s has no debate yet; nothing to transcribe", bug.ID)
			}
			d := ds[len(ds)-1]
			md, err := transcript(reg, bug, ds, d)
			if err != nil {
				return err
			}
			if _, err := io.WriteString(e.stdout, termsafe.Text(md)); err != nil {
				return err
			}
			return reportProblems(e, d)
		},
	}
}

// transcript joins the parts moot show prints one at a time, in the
// debate's order.
func transcript(reg *bugfolder.Register, bug *bugfolder.Bug, ds []*bugfolder.Debate, d *bugfolder.Debate) (string, error) {
	parts := []string{showSummary(reg, bug, ds, d)}
	if d.Problem != nil {
		p, err := showProblem(d)
		if err != nil {
			return "", err
		}
		parts = append(parts, p)
	}
	// argue keeps the whole debate as one document of its own: every
	// round by persona with its scores, the termination, the synthesis
	if protocolName(d) == argue.Name {
		if raw, err := safefs.ReadFile(filepath.Join(d.Dir, argue.Transcript), 64<<20); err == nil {
			parts = append(parts, string(raw))
			if dec := decisionText(d); dec != "" && d.Decision != nil {
				parts = append(parts, fmt.Sprintf("# %s\n\n%s\n", bugfolder.DecisionFile, dec))
			}
			return strings.Join(parts, "\n---\n\n"), nil
		}
	}
	for _, r := range d.Rounds {
		s, err := showRound(reg, d, r.K)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	if c, err := showConvergence(d); err == nil {
		parts = append(parts, c)
	}
	if d.Final != nil {
		f, err := showFinal(d)
		if err != nil {
			return "", err
		}
		parts = append(parts, f)
	}
	if dec := decisionText(d); dec != "" {
		parts = append(parts, fmt.Sprintf("# %s\n\n%s\n", bugfolder.DecisionFile, dec))
	}
	return strings.Join(parts, "\n---\n\n"), nil
}
