package tui

import "strings"

// questionNewAdvice is what n says on a question's row: a question's
// folder holds one debate, so another one is asked with moot ask, which
// this line spells out, the protocol's choices first (the footer cuts the
// question at a narrow width, never the command).
func questionNewAdvice(question string) string {
	return "a question holds one debate: moot ask --protocol argue|council|tradeoff '" + strings.ReplaceAll(question, "'", `'\''`) + "'"
}
