// Package lens is moot's library of lenses — named short texts that tell a
// participant what it defends (docs/cli.md) — plus the project's own, from
// .moot/lenses/*.md and the engines file's lenses: mapping, and the
// --lens argument's reader. It knows files and texts, not LLMs.
package lens

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/lazyre"
)

// Lens is a lens: its name and the text a participant is given.
type Lens = bugfolder.Lens

// MaxBytes bounds a lens's text (a lens is a short paragraph, and a file
// of the project is untrusted input).
const MaxBytes = 4 << 10

// nameRE is what a lens name may be: lower-case words joined by hyphens
// (data-integrity, devils-advocate), at most 40 characters.
var nameRE = lazyre.New(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// ValidName reports whether s may name a lens.
func ValidName(s string) bool { return len(s) <= 40 && nameRE.MatchString(s) }

// holdFast is appended to every library text: participants defend their
// lens and do not homogenize.
const holdFast = " Hold this lens through every round: say what the others miss from it, concede only to evidence, and do not drift toward the panel's average view."

// Library is moot's built-in lenses, in the order they are listed.
var Library = []Lens{
	{Name: "security", Text: "Security: you defend confidentiality, integrity and availability against an attacker. Look for trust boundaries crossed, untrusted input, secrets, privilege, and what an adversary would do with this bug or its fix."},
	{Name: "performance", Text: "Performance: you defend latency, throughput and resource use under real load. Ask what this bug or its fix costs on the hot path, at scale, in memory and I/O, and demand measurements over intuition."},
	{Name: "data-integrity", Text: "Data integrity: you defend the correctness and durability of stored data. Look for lost, duplicated, corrupted or inconsistent records, partial writes, races and migrations that cannot be undone."},
	{Name: "spec", Text: "Spec: you defend the written specification and its history. Weigh what the spec, its addenda and the contracts say against the observed behaviour, and name where the spec itself is wrong, outdated or silent."},
	{Name: "operator-safety", Text: "Operator safety: you defend the people who deploy, run and recover the system. Ask how a fix is rolled out and rolled back, what it logs, how it fails, and what an operator at 3 a.m. would need."},
	{Name: "tests", Text: "Tests: you defend evidence that the fix works and stays working. Ask which test reproduces the bug first, which would have caught it, and whether the proposed tests can actually fail."},
	{Name: "simplicity", Text: "Simplicity: you defend the smallest coherent change. Challenge every extra moving part, abstraction or option, and prefer the fix a maintainer can read and reverse."},
	{Name: "regression", Text: "Regression: you defend everything that works today. Ask which callers, data and behaviours the fix touches, what could break, and how anyone would notice."},
	{Name: "defect", Text: "Defect: you defend the truth about the fault itself. Insist on the root cause that explains all the evidence, and separate symptoms, triggers and causes."},
	{Name: "user-impact", Text: "User impact: you defend the people who use the product. Ask who is affected, how badly and how often, what they see, and what the fix changes for them."},
	{Name: "cost", Text: "Cost: you defend the budget — engineering time, infrastructure and the cost of delay. Weigh each option's price against its benefit and name the cheapest acceptable outcome."},
	{Name: "devils-advocate", Text: "Devil's advocate: you argue against the position the panel is converging on. Find its weakest assumption and the evidence that would refute it, even if you end up agreeing."},
}

// Names are the library's lens names, in order.
func Names() []string {
	out := make([]string, len(Library))
	for i, l := range Library {
		out[i] = l.Name
	}
	return out
}

// checkText refuses a lens text that is empty, too long or not text.
func checkText(text string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return fmt.Errorf("is empty: a lens needs a text saying what its participant defends")
	case len(text) > MaxBytes:
		return fmt.Errorf("is %d bytes; a lens text is at most %d", len(text), MaxBytes)
	case !utf8.ValidString(text) || strings.ContainsRune(text, 0):
		return fmt.Errorf("is not UTF-8 text")
	}
	return nil
}
