package engine

import (
	"fmt"

	"github.com/reversa/moot/bugfolder"
)

// ResumeNeed says what resuming d calls, in the words moot resume and the
// TUI's resume question share: the calls still to make (Remaining), then
// the whole debate's count, the calls already made (every attempt started,
// as moot list, moot show and the live header count them) plus those,
// which is the denominator the live header shows once the resume starts
// ("at least 7 more call(s), 13 in all with the 6 already made"), and
// how many of those were stopped before they answered (the latest
// session's calls left open, bugfolder.OpenCalls), which the resume makes
// again. left is the calls still to make; "" and 0 when there are none.
func ResumeNeed(d *bugfolder.Debate, proto Protocol, stop bool) (need string, left int) {
	left, upTo := Remaining(d, proto, stop)
	if left <= 0 {
		return "", 0
	}
	switch {
	case left == 1 && !upTo:
		// only the final step runs, on the rounds written
		need = fmt.Sprintf("1 more call (the %s)", Describe(proto).Final)
	case upTo:
		need = fmt.Sprintf("at most %d more call(s)", left)
	default:
		need = fmt.Sprintf("at least %d more call(s)", left)
	}
	need += MadeCalls(d.ModelCalls(), left, len(bugfolder.OpenCalls(d.Events)))
	if upTo {
		need += " (up to the round cap; its stop rules may end it earlier)"
	}
	return need, left
}

// MadeCalls is what a resume says after the calls it makes (left): the
// whole its header then counts against, with the calls already made
// (", 13 in all with the 6 already made"), and how many of those were
// stopped before they answered (cut: the calls a session left open),
// which count as made (they may have billed) and are made again ("" with
// none made). A debate's resume and a review's say it in these words.
func MadeCalls(made, left, cut int) string {
	if made <= 0 {
		return ""
	}
	s := fmt.Sprintf(", %d in all with the %d already made", made+left, made)
	if cut > 0 && cut <= made {
		s += fmt.Sprintf(" (%d of them stopped before answering, made again)", cut)
	}
	return s
}
