package argue

import (
	"fmt"
	"strings"

	"github.com/reversa/moot/bugfolder"
)

// heading is one required section, in Portuguese and English. (The
// section checker is tradeoff's, kept per protocol so each owns its
// headings; a shared copy is a follow-up.)
type heading struct{ pt, en string }

func (h heading) in(l bugfolder.Lang) string { return "## " + t(l, h.pt, h.en) }

// checkSections finds the required sections, in order, under either
// language's heading (any case, a trailing colon or note allowed); it
// rewrites the headings to the debate's language and returns the body and
// each section's text, with the problems of those missing or out of order.
func checkSections(l bugfolder.Lang, body string, want []heading) (string, map[heading]string, []string) {
	_, secs := bugfolder.ParseSections(body)
	got := map[heading]string{}
	var problems []string
	next := 0
	var b strings.Builder
	for _, s := range secs {
		h, ok := match(s.Heading, want)
		if !ok {
			problems = append(problems, fmt.Sprintf("section %q is not one of this step's (%s)", "## "+s.Heading, names(l, want)))
			continue
		}
		if _, dup := got[h]; dup {
			problems = append(problems, fmt.Sprintf("section %s appears twice", h.in(l)))
			continue
		}
		idx := indexOf(want, h)
		if idx < next {
			problems = append(problems, fmt.Sprintf("section %s is out of order (the order is %s)", h.in(l), names(l, want)))
		}
		next = idx + 1
		got[h] = s.Text()
		fmt.Fprintf(&b, "%s\n\n%s\n\n", h.in(l), s.Text())
	}
	for _, h := range want {
		if _, ok := got[h]; !ok {
			problems = append(problems, "lacks the section "+h.in(l))
		} else if got[h] == "" {
			problems = append(problems, "section "+h.in(l)+" is empty")
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n", got, problems
}

// match finds the required heading a written one names.
func match(written string, want []heading) (heading, bool) {
	w := strings.ToLower(strings.TrimSpace(written))
	w = strings.TrimSpace(strings.TrimSuffix(w, ":"))
	for _, h := range want {
		for _, name := range []string{h.pt, h.en} {
			n := strings.ToLower(name)
			if w == n || strings.HasPrefix(w, n+" (") || strings.HasPrefix(w, n+":") {
				return h, true
			}
		}
	}
	return heading{}, false
}

func indexOf(hs []heading, h heading) int {
	for i, x := range hs {
		if x == h {
			return i
		}
	}
	return -1
}

// names lists headings for messages and prompts.
func names(l bugfolder.Lang, hs []heading) string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.in(l)
	}
	return strings.Join(out, ", ")
}

// t picks the Portuguese or English text.
func t(l bugfolder.Lang, pt, en string) string {
	if l == bugfolder.EN {
		return en
	}
	return pt
}
