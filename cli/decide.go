package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/shellword"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/internal/whoami"
	"github.com/reversa/moot/protocol/review"
)

const decideLong = `Record the human decision a result is waiting for: approve, decline or
revise (revise needs --note saying what to revise). It writes decisao.md
beside the final answer — the choice, the note, who (git's user.name and
user.email, else $USER) and when (UTC) — and logs a decision event in the
debate's event log. It makes no model call.

A bug's decision goes to its result that waits for one: the current
debate's, else an archived debate's (starting a new debate archives a result
nobody has decided yet; the decision stays recordable there, and decide says
"recorded on the archived debate of <date>"). When the current debate and
an archived one both wait, the current one is decided and decide names the
archived one still waiting, with the command that decides it. When two
archived results wait (and the current one does not), decide guesses
neither: it is exit 2 naming each folder. Name any one by its folder
(TARGET _reversa_bugs/<context>/bugs/<BUG>/debate-<time>/).

What waits for a human decision (decision: pending in the final answer's
front matter; moot list --json says "decision": "pending"): a debate in spec
mode, whose final answer recommends a verdict; every tradeoff; a council
whose synthesis escalates to a human (confidence under 50 %); a review that
stalled or holds (no juror could pass it: a restricted bug's UNVERIFIED local
seats, every ladder exhausted; decisao.md in the review's folder). TARGET is a bug (ID, number or
folder), a question (its folder name) or a review (its ID or folder). argue waits for
no decision. moot never records a decision on its own. --note is at most
2,000 bytes.

A result that waits for nothing (no final answer, no pending decision, or
one already recorded) is exit 2, writing nothing; so is a debate another
moot process is writing, and a closed bug (DONE.md): its folder is
read-only for every tool, so a decision its result still waited for can no
longer be recorded (the closure stands in its place; list shows it as not
taken, never as pending). Reopen the bug deliberately (remove DONE.md) to
record one.`

func newDecideCmd(e *env) *cobra.Command {
	var note string
	cmd := &cobra.Command{
		Use:   "decide TARGET approve|decline|revise [--note TEXT]",
		Short: "Record the human decision a result is waiting for",
		Long:  decideLong,
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			choice, err := bugfolder.ParseChoice(args[1])
			if err != nil {
				return usageErr("%v; nothing was written", err)
			}
			if choice.NeedsNote() && strings.TrimSpace(note) == "" {
				return usageErr("revise needs --note TEXT saying what to revise; nothing was written")
			}
			if n := len(strings.TrimSpace(note)); n > bugfolder.MaxNoteBytes {
				return usageErr("--note is %d bytes; a decision's note is at most %d (say what to revise; put the rest in the bug); nothing was written", n, bugfolder.MaxNoteBytes)
			}
			if dir := reviewTarget(e, args[0]); dir != "" {
				return decideReview(e, dir, choice, note)
			}
			t, err := resolveTarget(e, args[0])
			if err != nil {
				return err
			}
			by := whoami.Name(context.Background(), t.reg.Project, e.getenv)
			p, err := engine.Decide(engine.HumanDecision{Root: t.root, Dir: t.dir, Lang: t.reg.Lang, BugID: t.bugID, QuestionID: t.questionID,
				Choice: choice, Note: note, By: by, Command: "moot decide " + t.id})
			if err != nil {
				return err
			}
			on := ""
			if t.archived != "" {
				on = " on " + t.archived
			}
			fmt.Fprintf(e.stdout, "%s: %s, decided by %s; recorded%s in %s\n", t.id, choice, termsafeLine(by), on, termsafeLine(t.reg.Rel(p)))
			for _, d := range t.stillWaiting {
				fmt.Fprintf(e.stdout, "still waiting: %s: moot decide %s/ approve|decline|revise\n", bugfolder.DebateWords(d), shellword.Quote(t.reg.Rel(d.Dir)))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&note, "note", "", "the decision's note (required with revise)")
	return cmd
}

// target is what a TARGET argument names: a bug's latest debate (or a
// question's folder), with the folder that holds it.
type target struct {
	reg *bugfolder.Register
	// id is the bug's or question's ID; bugID or questionID says which.
	id, bugID, questionID string
	// root holds the debate folder dir.
	root, dir string
	// archived, when dir is an archived debate of a bug, says which
	// ("the archived debate of 2026-11-30").
	archived string
	// stillWaiting are the bug's other results that wait for a decision.
	stillWaiting []*bugfolder.Debate
}

// resolveTarget finds the debate a TARGET names: a question (its ID or
// folder) under the project's .moot/debates/, else a bug's debate that
// waits for the decision (bugfolder.DecisionTarget: the one named by its
// folder, else the current one waiting, else the only archived one; two
// archived are refused).
func resolveTarget(e *env, arg string) (*target, error) {
	if t := questionTarget(e, arg); t != nil {
		return t, nil
	}
	reg, bug, err := resolveBug(e, arg)
	if err != nil {
		return nil, err
	}
	ds, _ := bugfolder.ReadDebates(bug) // unreadable: none waits, and the decision says why
	dir, err := bugfolder.DecisionTarget(bug, ds, bugfolder.NamedDebate(e.cwd, arg))
	if err != nil {
		return nil, err
	}
	t := &target{reg: reg, id: bug.ID, bugID: bug.ID, root: bug.Dir, dir: dir, stillWaiting: bugfolder.Waiting(ds, dir)}
	if filepath.Base(dir) != bugfolder.DebateDir {
		if i := slices.IndexFunc(ds, func(d *bugfolder.Debate) bool { return d.Dir == dir }); i >= 0 {
			t.archived = bugfolder.DebateWords(ds[i])
		} else if d, err := bugfolder.ReadDebate(dir, reg.Lang); err == nil { // named by a path the listing spells otherwise
			t.archived = bugfolder.DebateWords(d)
		}
	}
	return t, nil
}

// printDecisionHint says, after a run that wrote its final answer, which
// `moot decide` the result waits for (exit 0 all the same: docs/cli.md).
func printDecisionHint(e *env, reg *bugfolder.Register, dir string) {
	if dir == "" || !finalMayAwaitDecision(dir, reg.Lang) {
		return
	}
	d, err := bugfolder.ReadDebate(dir, reg.Lang)
	if err != nil || !d.AwaitsDecision() {
		return
	}
	fmt.Fprintf(e.stderr, "%s waits for a human decision%s: moot decide %s approve|decline|revise [--note TEXT]\n",
		reg.Rel(d.Final.Path), verdictNote(d.Final.RecommendedVerdict), shellword.Quote(subjectID(d)))
}

// finalMayAwaitDecision is printDecisionHint's first look: the final
// answer alone says whether the result waits for a decision (most do
// not), so the run ends without reading back every call's file. It
// answers true whenever the final answer cannot tell (the full read then
// decides).
func finalMayAwaitDecision(dir string, lang bugfolder.Lang) bool {
	if _, err := os.Lstat(filepath.Join(dir, bugfolder.DecisionFile)); err == nil {
		return true
	}
	for _, name := range []string{bugfolder.PT.Names().Final, lang.Names().Final} {
		p := filepath.Join(dir, name)
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return true
		}
		f, err := bugfolder.ParseFinal(p, raw)
		return err != nil || strings.EqualFold(strings.TrimSpace(f.Decision), bugfolder.DecisionPending)
	}
	return true
}

// verdictNote names a recommended verdict in a hint (" (recommended
// verdict: spec-gap)"), or nothing.
func verdictNote(v string) string {
	if v == "" {
		return ""
	}
	return " (recommended verdict: " + termsafeLine(v) + ")"
}

// subjectID is the ID a debate's problema.md records for its subject (a
// question's, else a bug's), else the folder's: a question's own name, or
// the name of the bug folder that holds debate/.
func subjectID(d *bugfolder.Debate) string {
	switch {
	case d.Problem != nil && d.Problem.QuestionID != "":
		return d.Problem.QuestionID
	case d.Problem != nil && d.Problem.BugID != "":
		return d.Problem.BugID
	case bugfolder.IsQuestionID(filepath.Base(d.Dir)):
		return filepath.Base(d.Dir)
	}
	return filepath.Base(filepath.Dir(d.Dir))
}

// decisionText is how show and list describe a debate's human decision.
func decisionText(d *bugfolder.Debate) string {
	switch st := d.DecisionState(); {
	case d.Decision != nil:
		s := fmt.Sprintf("%s, by %s at %s", d.Decision.Choice, termsafeLine(d.Decision.By), d.Decision.At.UTC().Format("2006-01-02 15:04:05 UTC"))
		if n := strings.TrimSpace(d.Decision.Note); n != "" {
			s += " — " + termsafeLine(n)
		}
		return s
	case d.DecisionClosed():
		return "pending, but the bug is closed (DONE.md): it can no longer be recorded; the closure stands in its place"
	case st == bugfolder.DecisionPending:
		return fmt.Sprintf("pending%s: `moot decide %s approve|decline|revise [--note TEXT]`", verdictNote(d.Final.RecommendedVerdict), shellword.Quote(subjectID(d)))
	default:
		return st
	}
}

// termsafeLine folds untrusted text to one safe line.
func termsafeLine(s string) string { return termsafe.Line(strings.Join(strings.Fields(s), " ")) }

// decideReview records the human decision a stalled or held review waits for.
func decideReview(e *env, dir string, choice bugfolder.Choice, note string) error {
	by := whoami.Name(context.Background(), bugfolder.ProjectRoot(e.cwd), e.getenv)
	p, err := review.DecideHuman(review.Decision{Dir: dir, Choice: choice, Note: strings.TrimSpace(note), By: by})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %s, decided by %s; recorded in %s\n", filepath.Base(dir), choice, termsafeLine(by), termsafeLine(p))
	return nil
}
