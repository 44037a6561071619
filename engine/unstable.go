package engine

import (
	"strings"

	"github.com/reversa/moot/internal/lazyre"
)

// unstableReason is the judge failure an unstable order-swap check
// reports (the winner in label order, in reverse order, the judge's
// folder); UnstableWinners reads it back.
const unstableReason = "unstable verdict: the judge chose %s with the proposals in label order and %s with them in reverse order (both answers kept in %s/)"

var unstableRe = lazyre.New(`^unstable verdict: the judge chose (.+?) with the proposals in label order and (.+?) with them in reverse order`)

// UnstableWinners reads the labels ("A", "C") the judge chose in label
// order and in reverse order from a judge failure's reason (as the menu
// is told it, live or from the log after a resume); ok is false for any
// other failure.
func UnstableWinners(reason string) (inOrder, reversed string, ok bool) {
	m := unstableRe.FindStringSubmatch(reason)
	if m == nil {
		return "", "", false
	}
	last := func(s string) string { return s[strings.LastIndex(s, " ")+1:] } // "Proposta A" → "A"
	return last(m[1]), last(m[2]), true
}
