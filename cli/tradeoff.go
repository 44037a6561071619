package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/tradeoff"
)

// maxOptionBytes bounds an option's statement: a testable sentence, not a
// document (evidence goes in the bug or an --evidence file).
const maxOptionBytes = 2000

// tradeoffFlags checks tradeoff's own flags and sets its panel: two
// reviewers (A and B, each option its lens) and, unless -r was given, the
// default cap of one rebuttal round. A missing option is exit 2 naming it
// when required (headless); the terminal UI's wizard asks for it instead.
func (f *setupFlags) tradeoffFlags(cmd *cobra.Command, s *engine.Setup, required bool) error {
	if strings.TrimSpace(f.optionA) == "" && strings.TrimSpace(f.optionB) == "" && s.Bug != nil && !s.Bug.IsQuestion {
		if a, b, ok := repairOptions(s.Bug); ok {
			f.optionA, f.optionB = a, b
		}
	}
	for _, o := range []struct{ flag, val string }{{"--option-a", f.optionA}, {"--option-b", f.optionB}} {
		switch v := strings.TrimSpace(o.val); {
		case v == "" && !required:
			continue
		case v == "":
			return usageErr("%s is required by --protocol tradeoff: give the option as a testable statement (on a bug with a finished repair debate, leaving out both takes its two best proposals); nothing was written", o.flag)
		case len(v) > maxOptionBytes:
			return usageErr("%s is %d bytes; an option is one testable statement of at most %d (put evidence in the bug or an --evidence file)", o.flag, len(v), maxOptionBytes)
		}
	}
	if tradeoff.SameOption(f.optionA, f.optionB) {
		return usageErr("--option-a and --option-b are the same statement (%q): a tradeoff weighs two different options; nothing was written", strings.TrimSpace(f.optionA))
	}
	if cmd.Flags().Changed("n") && f.n != 2 {
		return usageErr("-n %d: tradeoff has exactly 2 reviewers, one per option", f.n)
	}
	f.n, s.N = 2, 2
	if !cmd.Flags().Changed("r") {
		f.r = tradeoff.DefaultRounds
	}
	s.R = f.r
	if strings.TrimSpace(f.optionA) != "" && strings.TrimSpace(f.optionB) != "" {
		s.Lenses = []bugfolder.Lens{{Name: "A", Text: strings.TrimSpace(f.optionA)}, {Name: "B", Text: strings.TrimSpace(f.optionB)}}
	}
	return nil
}

// criteriaList splits --criteria into criteria (lines or ';'), or the
// fallback when none is given.
func criteriaList(text string, fallback []string) []string {
	var out []string
	for _, c := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == ';' }) {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return fallback
	}
	return out
}

// tradeoffPacket assembles the bug's P and wraps it in the evidence
// packet, which problema.md then freezes.
//
// On a question the shared evidence is the question and its --evidence
// files, and the default criteria are tradeoff's own (a question has no
// mode, so no mode's rubric).
func (f *setupFlags) tradeoffPacket(s *engine.Setup, bug *bugfolder.Bug) error {
	s.Criteria = criteriaList(f.criteria, nil)
	if bug.IsQuestion {
		p, err := bugfolder.AssembleQuestionP(bug.Register.Project, s.Question, f.evidence, s.Lang)
		if err != nil {
			return err
		}
		s.Problem = tradeoff.Packet{Lang: s.Lang, Decision: s.Question, A: s.Lenses[0].Text, B: s.Lenses[1].Text,
			Criteria: criteriaList(f.criteria, tradeoff.QuestionCriteria(s.Lang)), Evidence: p}.Problem()
		return nil
	}
	p, err := bugfolder.AssembleP(bug)
	if err != nil {
		return err
	}
	s.Problem = tradeoff.Protocol{}.Pack(*s, p, criteriaList(f.criteria, nil))
	return nil
}

// repairOptions offers the two best proposals of the bug's finished
// repair debate (docs/protocols/debate.md) as tradeoff's options: A is the judge's winner;
// B the runner-up, the proposal the judge grafted most from (ties, and a
// judge that grafted nothing, go to the first label). Each option is its
// label, its author and the first paragraph of its proposal. ok is false
// when the bug has no such debate.
func repairOptions(bug *bugfolder.Bug) (a, b string, ok bool) {
	d, err := bugfolder.ReadDebate(bug.DebateFolder(), bug.Register.Lang)
	if err != nil || d.State != bugfolder.StateDone || d.Final == nil || d.Problem == nil ||
		d.Problem.Mode != bugfolder.Repair || d.Problem.ProtocolName() != bugfolder.DefaultProtocol || d.Final.Winner == "" || len(d.Rounds) == 0 {
		return "", "", false
	}
	var letters []string
	solver := map[string]string{}
	for _, kv := range d.Final.Labels {
		letters = append(letters, kv.Key)
		solver[kv.Key] = kv.Value
	}
	ans, _ := bugfolder.ValidateJudge(d.Final.Body, d.Lang, letters, 0)
	count := map[string]int{}
	if ans != nil {
		for _, g := range ans.Grafts {
			for _, l := range g.Labels {
				count[l]++
			}
		}
	}
	runnerUp := ""
	for _, l := range letters {
		if l != d.Final.Winner && (runnerUp == "" || count[l] > count[runnerUp]) {
			runnerUp = l
		}
	}
	last := d.Rounds[len(d.Rounds)-1]
	proposal := func(label string) string {
		f := last.File(solver[label])
		if f == nil {
			return ""
		}
		_, secs := bugfolder.ParseSections(f.Body)
		if len(secs) == 0 {
			return ""
		}
		first, _, _ := strings.Cut(secs[0].Text(), "\n\n")
		text := strings.Join(strings.Fields(first), " ")
		if len(text) > 400 {
			text = strings.ToValidUTF8(text[:400], "") + "…"
		}
		return text
	}
	pa, pb := proposal(d.Final.Winner), proposal(runnerUp)
	if runnerUp == "" || pa == "" || pb == "" || tradeoff.SameOption(pa, pb) {
		return "", "", false // two proposals saying the same are no tradeoff: the user states the options
	}
	named := func(label, text string) string { return d.Lang.LabelName(label) + " (" + solver[label] + "): " + text }
	return named(d.Final.Winner, pa), named(runnerUp, pb), true
}
