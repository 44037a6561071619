package council

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reversa/moot/bugfolder"
)

var (
	// backticked is a `code span`.
	backticked = regexp.MustCompile("`([^`\n]{2,200})`")
	// refToken is a path, a file name, an anchor or an ID: a word holding
	// a / . # § or an ID's dash-and-digit (BUG-12, src/a.go:10, §4.2).
	refToken = regexp.MustCompile(`§?[\p{L}\p{N}_][\p{L}\p{N}_./#:§-]*[/.#:§-][\p{L}\p{N}_./#:§-]*[\p{L}\p{N}_]`)
	// lineSuffix is a trailing ":12" or ":12-20" on a path.
	lineSuffix = regexp.MustCompile(`(:\d+(?:[-–]\d+)?)+$`)
)

// cites reports whether an item cites a part of P: one of its references
// (a backticked span, a path, an anchor or an ID) appears in P.
func cites(item, p string) bool {
	if p == "" {
		return false
	}
	var refs []string
	for _, m := range backticked.FindAllStringSubmatch(item, -1) {
		refs = append(refs, m[1])
	}
	refs = append(refs, refToken.FindAllString(item, -1)...)
	for _, r := range refs {
		r = strings.Trim(strings.TrimSpace(r), ".,;:")
		for _, c := range []string{r, lineSuffix.ReplaceAllString(r, "")} {
			if len(c) >= 3 && strings.Contains(p, c) {
				return true
			}
		}
	}
	return false
}

// opinions lists the items of an evidence section that cite no part of P:
// they stand as opinion, not as grounded position (seed 001, rule 2).
func opinions(text, p string) []string {
	var out []string
	for _, it := range items(text) {
		if !cites(it, p) {
			out = append(out, it)
		}
	}
	return out
}

// opinionNote is the validation note a member's file opens with when some
// items cite no part of P: recorded with the call, never a failure.
func opinionNote(l bugfolder.Lang, sec heading, uncited []string) string {
	if len(uncited) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, t(l, "> moot: %d item(ns) de %s não citam parte de P (caminho ou ID) e valem como opinião, não como evidência:\n",
		"> moot: %d item(s) of %s cite no part of P (a path or ID) and stand as opinion, not evidence:\n"), len(uncited), sec.In(l))
	for _, u := range uncited {
		fmt.Fprintf(&b, "> - %s\n", short(u))
	}
	return b.String() + "\n"
}

// short cuts an item for the note.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return s
}
