package council

import (
	"fmt"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/lazyre"
)

var (
	// backticked is a `code span`.
	backticked = lazyre.New("`([^`\n]{2,200})`")
	// refToken is a path, a file name, an anchor or an ID: a word holding
	// a / . # § or an ID's dash-and-digit (BUG-12, src/a.go:10, §4.2).
	refToken = lazyre.New(`§?[\p{L}\p{N}_][\p{L}\p{N}_./#:§-]*[/.#:§-][\p{L}\p{N}_./#:§-]*[\p{L}\p{N}_]`)
	// lineSuffix is a trailing ":12" or ":12-20" on a path, or a line
	// anchor "#L12", "#L12-L20".
	lineSuffix = lazyre.New(`(:\d+(?:[-–]\d+)?|#L\d+(?:C\d+)?(?:-L?\d+(?:C\d+)?)?)+$`)
	// bugID is a register's bug ID: BUG-7 (its display number) or
	// BUG-20260715-A7K3. It names an entry of the register P's evidence
	// belongs to, so it counts as a citation wherever it points.
	bugID = lazyre.New(`(?i)\bBUG-(?:\d{8}-[A-Z0-9]{4}|\d+)\b`)
	// fileName is a path's last part with an extension (discount.go).
	fileName = lazyre.New(`[^/]+\.[\p{L}\p{N}]{1,8}$`)
)

// cites reports whether an item cites a part of P: it names a register's
// bug ID, or one of its references (a backticked span, a path, a file at
// a line, an anchor or an ID) appears in P.
func cites(item, p string) bool {
	if bugID.MatchString(item) {
		return true
	}
	if p == "" {
		return false
	}
	var refs []string
	for _, m := range backticked.FindAllStringSubmatch(item, -1) {
		refs = append(refs, m[1])
	}
	refs = append(refs, refToken.FindAllString(item, -1)...)
	for _, r := range refs {
		for _, c := range candidates(r) {
			if len(c) >= 3 && strings.Contains(p, c) {
				return true
			}
		}
	}
	return false
}

// candidates are the forms a reference may take in P: as written, without
// its line (":12", "#L12"), without a leading "./", and each shorter
// trailing path down to the file name (P names files by their path in the
// project, a member often by a shorter or longer one).
func candidates(r string) []string {
	r = strings.Trim(strings.TrimSpace(r), ".,;:")
	bare := strings.TrimPrefix(lineSuffix.ReplaceAllString(r, ""), "./")
	out := []string{r, bare}
	if strings.Contains(bare, "/") {
		for rest := bare; ; {
			_, after, ok := strings.Cut(rest, "/")
			if !ok || after == "" {
				break
			}
			rest = after
			out = append(out, "/"+rest, rest)
		}
		if f := fileName.FindString(bare); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// opinions lists the items of an evidence section that cite no part of P:
// they stand as opinion, not as grounded position (docs/protocols/council.md, rule 2).
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
