// Package sections checks the required "## " sections of a participant's
// answer, the one rule every protocol's validator shares: the sections a
// step requires, in order, under either language's heading.
package sections

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder"
)

// Heading is one required section, in Portuguese and English.
type Heading struct{ PT, EN string }

// In is the heading as the debate's language writes it ("## Evidências").
func (h Heading) In(l bugfolder.Lang) string { return "## " + T(l, h.PT, h.EN) }

// Check finds the required sections, in order, under either language's
// heading (any case, a trailing colon or note allowed). It rewrites the
// headings to the debate's language and returns the body, each section's
// text, and the problems: a section missing, empty, repeated, out of
// order or not one of this step's.
func Check(l bugfolder.Lang, body string, want []Heading) (string, map[Heading]string, []string) {
	_, secs := bugfolder.ParseSections(body)
	got := map[Heading]string{}
	var problems []string
	next := 0
	var b strings.Builder
	for _, s := range secs {
		h, ok := Match(s.Heading, want)
		if !ok {
			problems = append(problems, fmt.Sprintf("section %q is not one of this step's (%s)", "## "+s.Heading, Names(l, want)))
			continue
		}
		if _, dup := got[h]; dup {
			problems = append(problems, fmt.Sprintf("section %s appears twice", h.In(l)))
			continue
		}
		idx := slices.Index(want, h)
		if idx < next {
			problems = append(problems, fmt.Sprintf("section %s is out of order (the order is %s)", h.In(l), Names(l, want)))
		}
		next = idx + 1
		got[h] = s.Text()
		fmt.Fprintf(&b, "%s\n\n%s\n\n", h.In(l), s.Text())
	}
	for _, h := range want {
		if _, ok := got[h]; !ok {
			problems = append(problems, "lacks the section "+h.In(l))
		} else if got[h] == "" {
			problems = append(problems, "section "+h.In(l)+" is empty")
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n", got, problems
}

// Match finds the required heading a written one names, in either
// language, any case, with a trailing colon or a note in parentheses.
func Match(written string, want []Heading) (Heading, bool) {
	w := strings.ToLower(strings.TrimSpace(written))
	w = strings.TrimSpace(strings.TrimSuffix(w, ":"))
	for _, h := range want {
		for _, name := range []string{h.PT, h.EN} {
			n := strings.ToLower(name)
			if w == n || strings.HasPrefix(w, n+" (") || strings.HasPrefix(w, n+":") {
				return h, true
			}
		}
	}
	return Heading{}, false
}

// Names lists headings for messages and prompts, comma-separated.
func Names(l bugfolder.Lang, hs []Heading) string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.In(l)
	}
	return strings.Join(out, ", ")
}

// T picks the Portuguese or English text.
func T(l bugfolder.Lang, pt, en string) string { return l.Pick(pt, en) }
