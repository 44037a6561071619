package bugfolder

import (
	"errors"
	"fmt"
	"github.com/reversa/moot/internal/termsafe"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DecisionFile is the human decision's file, beside the final answer
// (docs/architecture.md, docs/cli.md): the choice, the note, who and when.
const DecisionFile = "decisao.md"

// DecisionPending is the decision field of a final answer that waits for a
// human (a spec debate's recommended verdict, say).
const DecisionPending = "pending"

// MaxNoteBytes bounds a decision's note, as an option's statement is
// bounded: a note says what to revise, it is not a document.
const MaxNoteBytes = 2000

// FlagNone is the decision (and a council's escalation) of a final answer
// that waits for nothing: written so the key is always there, read as "".
const FlagNone = "none"

// flag reads a final answer's decision or escalation: FlagNone is "".
func flag(v string) string {
	if strings.EqualFold(strings.TrimSpace(v), FlagNone) {
		return ""
	}
	return v
}

// Choice is a human decision on a result: approve, decline or revise.
type Choice string

// The choices of a human decision (docs/cli.md's `moot decide`).
const (
	ChoiceApprove Choice = "approve"
	ChoiceDecline Choice = "decline"
	ChoiceRevise  Choice = "revise"
)

// Choices are the human decision's choices, in the order offered.
var Choices = []Choice{ChoiceApprove, ChoiceDecline, ChoiceRevise}

// ParseChoice reads a choice as typed (any case).
func ParseChoice(s string) (Choice, error) {
	c := Choice(strings.ToLower(strings.TrimSpace(s)))
	for _, k := range Choices {
		if c == k {
			return c, nil
		}
	}
	return "", fmt.Errorf("%q is not a decision: give approve, decline or revise", s)
}

// Word is the choice in the debate's language ("aprovar" in Portuguese).
func (c Choice) Word(l Lang) string {
	switch c {
	case ChoiceApprove:
		return l.Pick("aprovar", "approve")
	case ChoiceDecline:
		return l.Pick("recusar", "decline")
	case ChoiceRevise:
		return l.Pick("revisar", "revise")
	}
	return string(c)
}

// NeedsNote reports whether the choice must carry a note (revise: the note
// says what to revise).
func (c Choice) NeedsNote() bool { return c == ChoiceRevise }

// Decision is a parsed decisao.md.
type Decision struct {
	Path   string
	Choice Choice
	// Note is the decider's note ("" when none was given).
	Note string
	// By names who decided (git's user.name and email, else $USER).
	By string
	// At is when the decision was recorded.
	At time.Time
	// FinalSHA256 is the digest of the final answer decided on.
	FinalSHA256 string
}

// DecisionMeta is decisao.md's front matter, in the order it is written.
type DecisionMeta struct {
	ProtocolVersion int    `yaml:"protocol_version"`
	BugID           string `yaml:"bug_id,omitempty"`
	QuestionID      string `yaml:"question_id,omitempty"`
	Choice          Choice `yaml:"choice"`
	DecidedBy       string `yaml:"decided_by"`
	By              string `yaml:"by"`
	DecidedAt       Stamp  `yaml:"decided_at"`
	Note            string `yaml:"note,omitempty"`
	// RecommendedVerdict is what the final answer recommended, when it did.
	RecommendedVerdict string `yaml:"recommended_verdict,omitempty"`
	FinalSHA256        string `yaml:"final_sha256"`
}

// RenderDecision renders decisao.md: the front matter, then a short body
// in the debate's language that says the same for a reader.
func RenderDecision(l Lang, meta DecisionMeta) ([]byte, error) {
	meta.ProtocolVersion, meta.DecidedBy = ProtocolVersion, "human"
	var b strings.Builder
	b.WriteString("\n" + l.Pick("# Decisão humana", "# Human decision") + "\n\n")
	fmt.Fprintf(&b, "- %s: %s\n", l.Pick("Escolha", "Choice"), meta.Choice.Word(l))
	fmt.Fprintf(&b, "- %s: %s\n", l.Pick("Por", "By"), oneLine(meta.By))
	fmt.Fprintf(&b, "- %s: %s\n", l.Pick("Em", "When"), meta.DecidedAt)
	fmt.Fprintf(&b, "- %s: %s", l.Pick("Sobre", "On"), names[l].Final)
	if meta.RecommendedVerdict != "" {
		fmt.Fprintf(&b, " (%s: %s)", l.Pick("veredito recomendado", "recommended verdict"), oneLine(meta.RecommendedVerdict))
	}
	b.WriteString("\n")
	if note := strings.TrimSpace(termsafe.Text(meta.Note)); note != "" {
		// quoted line by line: a note is the decider's words, never the
		// file's structure (a "## " line in it is no heading)
		b.WriteString("\n" + l.Pick("## Nota", "## Note") + "\n\n")
		for _, line := range strings.Split(note, "\n") {
			b.WriteString(strings.TrimRight("> "+line, " ") + "\n")
		}
	}
	return marshalFrontMatter(meta, b.String())
}

// oneLine folds a value to one line for the body's list.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ParseDecision parses decisao.md. Its choice must be one of the three;
// a file without one is an error naming the file and the field.
func ParseDecision(path string, raw []byte) (*Decision, error) {
	doc, err := ParseDocument(raw)
	if err != nil {
		return nil, &InputError{Path: path, Msg: err.Error(), Err: err}
	}
	m := doc.Meta
	if m == nil {
		return nil, inputErr(path, "choice", "has no front matter: a decision file starts with its choice, by and decided_at (moot decide writes it)")
	}
	c, err := ParseChoice(scalar(m, "choice"))
	if err != nil {
		return nil, inputErr(path, "choice", "%v", err)
	}
	return &Decision{Path: path, Choice: c, Note: scalar(m, "note"), By: scalar(m, "by"),
		At: timeField(m, "decided_at"), FinalSHA256: scalar(m, "final_sha256")}, nil
}

// readDecision reads the debate folder's decisao.md into d (a file that
// cannot be parsed is one of d's Problems).
func (d *Debate) readDecision(p string) {
	raw, err := d.read(p)
	if err != nil {
		return
	}
	dec, err := ParseDecision(p, raw)
	if err != nil {
		d.Problems = append(d.Problems, err)
		return
	}
	d.Decision = dec
}

// DecisionState is the human decision on the debate's result: the choice
// recorded in decisao.md, else what the final answer says ("pending" while
// it waits for one), else "" (the result waits for nothing).
func (d *Debate) DecisionState() string {
	if d.Decision != nil {
		return string(d.Decision.Choice)
	}
	if d.Final != nil {
		return strings.ToLower(strings.TrimSpace(d.Final.Decision))
	}
	return ""
}

// AwaitsDecision reports whether the debate's result waits for a human
// decision that nobody has recorded yet.
func (d *Debate) AwaitsDecision() bool { return d.DecisionState() == DecisionPending }

// DecisionClosed reports whether the debate's result waits for a human
// decision that can no longer be recorded: its bug was closed by DONE.md,
// which makes the folder read-only for every tool (docs/registers.md; the
// closure stands in the decision's place). A listing must not show it as
// pending (nor list it first); decide refuses it saying why.
func (d *Debate) DecisionClosed() bool {
	return d.AwaitsDecision() && d.Dir != "" && isFile(filepath.Join(filepath.Dir(d.Dir), DoneFile))
}

// ErrDecisionClosed is wrapped by the refusal to record a decision on a
// closed bug.
var ErrDecisionClosed = errors.New("the bug is closed (DONE.md): its pending decision can no longer be recorded")

// DecisionClosedError is the refusal to record a decision on a closed
// bug: it says why and the deliberate way out.
func DecisionClosedError(d *Debate) error {
	p := filepath.Join(filepath.Dir(d.Dir), DoneFile)
	return &InputError{Path: p, Err: ErrDecisionClosed, Msg: "the bug is closed and read-only: the decision its result waited for can no longer be recorded here, and the closure stands in its place. " +
		"To record it anyway, reopen the bug deliberately (remove DONE.md), run moot decide, and close it again; nothing was written"}
}

// WriteDecision writes decisao.md beside the final answer, owner-only and
// atomically; it refuses to replace one (a decision is recorded once).
func (w *Writer) WriteDecision(data []byte) (string, error) {
	p := filepath.Join(w.Dir, DecisionFile)
	if _, err := os.Lstat(p); err == nil {
		return "", &InputError{Path: p, Msg: "already exists: the decision was recorded; nothing was written"}
	}
	return w.write(DecisionFile, data)
}
