package bugfolder

import (
	"fmt"
	"github.com/reversa/moot/internal/lazyre"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mode is a debate mode.
type Mode string

// The debate modes of the protocol.
const (
	Diagnosis Mode = "diagnosis"
	Repair    Mode = "repair"
	Spec      Mode = "spec"
)

// Modes lists the valid modes in the order they are offered.
var Modes = []Mode{Diagnosis, Repair, Spec}

// ParseMode validates a mode name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case Diagnosis, Repair, Spec:
		return m, nil
	}
	return "", fmt.Errorf("unknown mode %q (use diagnosis, repair or spec)", s)
}

// Role is the part a debater plays.
type Role string

// The protocol's roles.
const (
	RoleSolver Role = "solver"
	RoleCritic Role = "critic"
	RoleJudge  Role = "judge"
)

// Status is the outcome of one call, as written in a debater file.
type Status string

// The protocol's call statuses.
const (
	StatusOK            Status = "ok"
	StatusTimeout       Status = "timeout"
	StatusError         Status = "error"
	StatusInvalidOutput Status = "invalid-output"
)

// Valid reports whether s is one of the four protocol statuses.
func (s Status) Valid() bool {
	switch s {
	case StatusOK, StatusTimeout, StatusError, StatusInvalidOutput:
		return true
	}
	return false
}

// firstSection is the mode's opening section.
func firstSection(m Mode) SectionKey {
	switch m {
	case Repair:
		return SecFixStrategy
	case Spec:
		return SecRuleReading
	}
	return SecHypotheses
}

// sectionSlot is one section of a body schema.
type sectionSlot struct {
	key      SectionKey
	required bool
}

// BodySchema returns the sections of a debater body for a mode, role and
// round, in order, each marked required or optional.
func BodySchema(m Mode, role Role, round int) []sectionSlot {
	if role == RoleCritic {
		return []sectionSlot{{SecCritique, true}, {SecEvidence, true}, {SecConfidence, true}}
	}
	return []sectionSlot{
		{firstSection(m), true},
		{SecRootCause, m == Diagnosis},
		{SecTest, true},
		{SecSpecImpact, true},
		{SecRisks, true},
		{SecEvidence, true},
		{SecConfidence, true},
		{SecCritique, round >= 1},
	}
}

// RequiredSections lists the headings a body must have, in order, in the
// language form; it is what prompts tell the model.
func RequiredSections(l Lang, m Mode, role Role, round int) []string {
	var out []string
	for _, s := range BodySchema(m, role, round) {
		if s.required {
			out = append(out, s.key.Heading(l))
		}
	}
	return out
}

// knownDebaterSection reports whether k is a section a debater body may carry.
func knownDebaterSection(k SectionKey) bool {
	return k >= SecHypotheses && k <= SecCritique
}

// Finding is one reason a body does not follow the protocol.
type Finding struct {
	// Section is the heading concerned ("## Teste"), or "" for the body as a whole.
	Section string
	// Detail says what is wrong, for a person.
	Detail string
}

func (p Finding) String() string {
	if p.Section == "" {
		return p.Detail
	}
	return p.Section + ": " + p.Detail
}

// Validation is the result of checking a body against the protocol.
type Validation struct {
	Problems []Finding
	// Confidence is the confidence the body states (ConfUnknown if none).
	Confidence Confidence
}

// OK reports whether the body follows the protocol.
func (v Validation) OK() bool { return len(v.Problems) == 0 }

// Summary joins the problems in one line ("missing ## Teste; ## Confiança: …").
func (v Validation) Summary() string {
	parts := make([]string, len(v.Problems))
	for i, p := range v.Problems {
		parts[i] = p.String()
	}
	return strings.Join(parts, "; ")
}

func (v *Validation) add(section, format string, args ...any) {
	v.Problems = append(v.Problems, Finding{Section: section, Detail: fmt.Sprintf(format, args...)})
}

// Expect describes what a debater body is checked against.
type Expect struct {
	Lang  Lang
	Mode  Mode
	Role  Role
	Round int
	// Peers are the solver ids a critic read in its snapshot; its critique
	// must mention each of them.
	Peers []string
	// Others are the other solvers' ids a solver read in its snapshot
	// (valid proposals, its own left out); its critique must name at
	// least one of them, which proves it read the snapshot. None (a solver
	// left alone) asks nothing.
	Others []string
}

// ValidateDebater checks a solver or critic body: the required sections in
// order, no unknown level-2 section, no section twice, a confidence of
// baixa/média/alta (or low/medium/high), and for a critic one critique
// entry per solver it read.
func ValidateDebater(body string, e Expect) Validation {
	var v Validation
	_, secs := ParseSections(body)
	if strings.TrimSpace(body) == "" {
		v.add("", "the answer is empty")
		return v
	}
	schema := BodySchema(e.Mode, e.Role, e.Round)
	pos := map[SectionKey]int{}
	for i, s := range schema {
		pos[s.key] = i
	}
	seen := map[SectionKey]bool{}
	last := -1
	lastName := ""
	for _, s := range secs {
		switch {
		case s.Key == SecUnknown || !knownDebaterSection(s.Key):
			v.add("## "+s.Heading, "not a section of the protocol (line %d)", s.Line)
			continue
		case seen[s.Key]:
			v.add(s.Key.Heading(e.Lang), "appears twice (line %d)", s.Line)
			continue
		}
		seen[s.Key] = true
		p, inSchema := pos[s.Key]
		if !inSchema {
			continue // an extra known section, tolerated anywhere
		}
		if p < last {
			v.add(s.Key.Heading(e.Lang), "out of order: must come before %s", lastName)
			continue
		}
		last = p
		lastName = s.Key.Heading(e.Lang)
	}
	for _, s := range schema {
		if s.required && !seen[s.key] {
			v.add(s.key.Heading(e.Lang), "missing")
		}
	}
	for _, s := range secs {
		switch s.Key {
		case SecConfidence:
			c := firstConfidence(s.Text())
			v.Confidence = c
			if c == ConfUnknown {
				v.add(s.Key.Heading(e.Lang), "must start with %s, %s or %s", ConfLow.Word(e.Lang), ConfMedium.Word(e.Lang), ConfHigh.Word(e.Lang))
			} else if !justified(s.Text()) {
				v.add(s.Key.Heading(e.Lang), "%s needs one sentence of justification after it", c.Word(e.Lang))
			}
		case SecCritique:
			if e.Role != RoleCritic && len(e.Others) > 0 && !namesAny(s.Text(), e.Others) {
				v.add(s.Key.Heading(e.Lang), "names no other proposal (%s): a critique must say which proposal it answers, by id", strings.Join(e.Others, ", "))
			}
			if e.Role == RoleCritic {
				for _, p := range e.Peers {
					if !namesID(s.Text(), p) {
						v.add(s.Key.Heading(e.Lang), "no entry for %s", p)
					}
				}
			}
		}
		if s.Key != SecUnknown && knownDebaterSection(s.Key) && s.Text() == "" {
			if _, inSchema := pos[s.Key]; inSchema {
				v.add(s.Key.Heading(e.Lang), "is empty")
			}
		}
	}
	return v
}

// namesAny reports whether text names one of ids (any case).
func namesAny(text string, ids []string) bool {
	for _, id := range ids {
		if namesID(text, id) {
			return true
		}
	}
	return false
}

// namesID reports whether text names id (any case) as a whole id: a digit
// after it makes another id (agente-10 does not name agente-1), and a
// letter or digit before it another word.
func namesID(text, id string) bool {
	text, id = strings.ToLower(text), strings.ToLower(id)
	if id == "" {
		return false
	}
	for from := 0; ; {
		i := strings.Index(text[from:], id)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(id)
		before, _ := utf8.DecodeLastRuneInString(text[:start])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if (start == 0 || !unicode.IsLetter(before) && !unicode.IsDigit(before)) && (end == len(text) || !unicode.IsDigit(after)) {
			return true
		}
		from = start + 1
	}
}

var wordRE = lazyre.New(`[\p{L}]+`)

// justified reports whether a confidence section says why: at least two
// words after the confidence word.
func justified(text string) bool {
	loc := wordRE.FindStringIndex(text)
	if loc == nil {
		return false
	}
	return len(wordRE.FindAllString(text[loc[1]:], 3)) >= 2
}

// firstConfidence reads the first word of a confidence section.
func firstConfidence(text string) Confidence {
	w := wordRE.FindString(text)
	return ParseConfidence(w)
}

// SectionText returns the text of the first section with key, or "".
func SectionText(body string, key SectionKey) string {
	_, secs := ParseSections(body)
	for _, s := range secs {
		if s.Key == key {
			return s.Text()
		}
	}
	return ""
}

// JudgeAnswer is a judge's validated answer.
type JudgeAnswer struct {
	// Winner is the winning label's letter ("B").
	Winner string
	// Grafts are the graft entries, each naming at least one label.
	Grafts []Graft
	// Criteria is how many justification entries were counted.
	Criteria int
	// Synthesis is everything after the synthesis heading.
	Synthesis string
}

// Graft is one contribution the judge took from a proposal.
type Graft struct {
	Labels []string
	Text   string
}

// AcceptedContributions counts the debater ideas the judge incorporated: the
// winner plus each graft from another proposal (a graft that names only
// the winner is no idea of another debater, and is dropped).
func (a JudgeAnswer) AcceptedContributions() int { return 1 + len(a.RealGrafts()) }

// RealGrafts are the grafts that name a proposal other than the winner.
func (a JudgeAnswer) RealGrafts() []Graft {
	var out []Graft
	for _, g := range a.Grafts {
		for _, x := range g.Labels {
			if x != a.Winner {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

var labelRE = lazyre.New(`(?i:\b(?:proposta|proposal))\s+([A-Z])\b`)

// FindLabels returns the distinct label letters mentioned in text, in order
// of first mention ("Proposta B", "proposal C").
func FindLabels(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range labelRE.FindAllStringSubmatch(text, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// ValidateJudge checks a judge answer against the labels that exist and the
// number of rubric criteria: the sections winner, grafts, rationale and
// synthesis in that order with the synthesis last; a winner that is exactly
// one existing label; grafts that name existing labels (or say none); at
// least one rationale entry per criterion.
func ValidateJudge(body string, l Lang, labels []string, criteria int) (*JudgeAnswer, Validation) {
	var v Validation
	ans := &JudgeAnswer{}
	exists := map[string]bool{}
	for _, x := range labels {
		exists[x] = true
	}
	_, secs := ParseSections(body)
	order := []SectionKey{SecWinner, SecGrafts, SecRationale, SecSynthesis}
	found := map[SectionKey]int{}
	synthIdx := -1
	for i, s := range secs {
		if synthIdx >= 0 {
			break // everything after the synthesis heading is the synthesis
		}
		switch s.Key {
		case SecWinner, SecGrafts, SecRationale, SecSynthesis:
			if _, dup := found[s.Key]; dup {
				v.add(s.Key.Heading(l), "appears twice")
				continue
			}
			found[s.Key] = i
			if s.Key == SecSynthesis {
				synthIdx = i
			}
		}
	}
	prev := -1
	for _, k := range order {
		i, ok := found[k]
		if !ok {
			v.add(k.Heading(l), "missing")
			continue
		}
		if i < prev {
			v.add(k.Heading(l), "out of order")
		}
		prev = i
	}
	if i, ok := found[SecWinner]; ok {
		text := secs[i].Text()
		ls := FindLabels(text)
		if len(ls) == 0 {
			// a bare label letter and nothing else ("B", "**B**")
			if w := strings.Trim(strings.TrimSpace(text), "*_`. "); len(w) == 1 && exists[w] {
				ls = []string{w}
			}
		}
		switch {
		case len(ls) == 0:
			v.add(SecWinner.Heading(l), "names no label (expected one of %s)", labelList(l, labels))
		case len(ls) > 1:
			v.add(SecWinner.Heading(l), "names %d labels (%s); exactly one is allowed", len(ls), strings.Join(ls, ", "))
		case !exists[ls[0]]:
			v.add(SecWinner.Heading(l), "%s does not exist (expected one of %s)", l.LabelName(ls[0]), labelList(l, labels))
		default:
			ans.Winner = ls[0]
		}
	}
	if i, ok := found[SecGrafts]; ok {
		text := secs[i].Text()
		if !isNone(text) {
			for _, entry := range entries(text) {
				ls := FindLabels(entry)
				if len(ls) == 0 {
					v.add(SecGrafts.Heading(l), "an entry names no source label: %q", clip(entry, 60))
					continue
				}
				for _, x := range ls {
					if !exists[x] {
						v.add(SecGrafts.Heading(l), "%s does not exist", l.LabelName(x))
					}
				}
				ans.Grafts = append(ans.Grafts, Graft{Labels: ls, Text: entry})
			}
		}
	}
	if i, ok := found[SecRationale]; ok {
		ans.Criteria = len(entries(secs[i].Text()))
		if ans.Criteria < criteria {
			v.add(SecRationale.Heading(l), "has %d entries; the rubric has %d criteria (one entry each at least)", ans.Criteria, criteria)
		}
	}
	if synthIdx >= 0 {
		var b strings.Builder
		s := secs[synthIdx]
		if s.Inline != "" {
			b.WriteString(s.Inline + "\n")
		}
		b.WriteString(s.Content)
		for _, rest := range secs[synthIdx+1:] {
			b.WriteString("## " + rest.Heading + "\n" + rest.Content)
		}
		ans.Synthesis = strings.TrimSpace(b.String())
		if ans.Synthesis == "" {
			v.add(SecSynthesis.Heading(l), "is empty")
		}
	}
	return ans, v
}

func labelList(l Lang, labels []string) string {
	out := make([]string, len(labels))
	for i, x := range labels {
		out[i] = l.LabelName(x)
	}
	return strings.Join(out, ", ")
}

// isNone reports whether a section says "none" (nenhum, nenhuma, none, n/a, -).
func isNone(text string) bool {
	t := normalizeWord(strings.TrimLeft(strings.TrimSpace(text), "-*+ "))
	t = strings.TrimRight(t, ".")
	switch t {
	case "", "nenhum", "nenhuma", "none", "n/a", "-", "nada":
		return true
	}
	f := strings.Fields(t)
	return len(f) > 0 && (f[0] == "nenhum" || f[0] == "nenhuma" || f[0] == "none" || f[0] == "nenhum." || f[0] == "none.")
}

// entries splits a section into its entries: top-level list items or
// level-3+ sub-headings when there are any, otherwise non-empty paragraphs.
func entries(text string) []string {
	var items []string
	var cur strings.Builder
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			items = append(items, s)
		}
		cur.Reset()
	}
	structured := false
	for _, line := range strings.Split(text, "\n") {
		if isListItem(line) || isSubHeading(line) {
			structured = true
			break
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if structured {
			if isListItem(line) || isSubHeading(line) {
				flush()
			}
			cur.WriteString(line + "\n")
			continue
		}
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		cur.WriteString(line + "\n")
	}
	flush()
	if structured && len(items) > 0 && !isListItem(firstLine(items[0])) && !isSubHeading(firstLine(items[0])) {
		items = items[1:] // an introduction before the first item
	}
	return items
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

var (
	listItemRE   = lazyre.New(`^ {0,1}(?:[-*+]|\d{1,3}[.)])\s+\S`)
	listMarkerRE = lazyre.New(`^ {0,1}(?:[-*+]|\d{1,3}[.)])\s+`)
)

func isListItem(line string) bool { return listItemRE.MatchString(line) }

func isSubHeading(line string) bool {
	level, _, ok := atxHeading(line)
	return ok && level >= 3
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
