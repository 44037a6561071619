package review

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/reversa/moot/internal/strictjson"
)

// Outcome is what a lens's seat ended with in a round.
type Outcome string

// The outcomes of a lens: only a unanimous pass opens the gate.
const (
	OutcomePass   Outcome = "pass"
	OutcomeRefuse Outcome = "refuse"
	OutcomeHold   Outcome = "hold"
)

// The severities a finding may have (docs/protocols/review.md's juror JSON).
const (
	SevBlocker = "blocker"
	SevMajor   = "major"
	SevMinor   = "minor"
	SevInfo    = "info"
)

// Finding is one finding of a juror (or of moot's own test checks).
type Finding struct {
	Severity string `json:"severity"`
	Claim    string `json:"claim"`
	Evidence string `json:"evidence"`
	// File is the envelope file the finding concerns, when the juror
	// named one (or its evidence does): part of a finding's identity.
	File string `json:"file,omitempty"`
	// Impact and FollowUp are what a fix review asks of each issue (what
	// breaks if it stays, and the smallest follow-up that settles it);
	// optional in any verdict.
	Impact   string `json:"impact,omitempty"`
	FollowUp string `json:"follow_up,omitempty"`
}

// Closes reports whether a finding of this severity keeps the gate shut
// in the round it is raised: blocker, major and minor do (a minor finding
// is fixed or refuted, never parked); info does not.
func Closes(severity string) bool { return slices.Contains(closing, severity) }

// closing are the severities that close the gate, gravest first.
var closing = []string{SevBlocker, SevMajor, SevMinor}

// Verdict is a juror's answer: one JSON object (docs/protocols/review.md).
type Verdict struct {
	Lens     string    `json:"lens"`
	Verdict  string    `json:"verdict"`
	Findings []Finding `json:"findings"`
	Checked  []string  `json:"checked"`
}

// Dry reports a pass that lists no finding and names nothing it checked:
// a low-information vote.
func (v *Verdict) Dry() bool {
	if len(v.Findings) > 0 {
		return false
	}
	for _, c := range v.Checked {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// ParseKind says what an answer turned out to be.
type ParseKind int

const (
	// ParsedVerdict: a verdict for the seated lens.
	ParsedVerdict ParseKind = iota
	// ParsedWrongLens: a well-formed verdict for another lens (a rejected
	// rung: the next rung sits).
	ParsedWrongLens
	// ParsedGarbage: not a verdict (non-JSON, prose around it, refusal
	// text, a bad field): counts as refuse.
	ParsedGarbage
)

// wireVerdict is a verdict as read: Findings a pointer, so a missing or
// null "findings" is told from an empty array.
type wireVerdict struct {
	Lens     string     `json:"lens"`
	Verdict  string     `json:"verdict"`
	Findings *[]Finding `json:"findings"`
	Checked  []string   `json:"checked"`
}

// byteOrderMark is the UTF-8 byte-order mark a Windows tool may put first.
const byteOrderMark = "\ufeff"

// MaxAnswerBytes bounds an answer the parser reads.
const MaxAnswerBytes = 1 << 20

// Parse reads a juror's answer strictly: one JSON object and nothing else
// (surrounding white space, one leading UTF-8 byte-order mark — RFC 8259
// lets a parser ignore it, and it is no text of the answer — and at most
// one ``` fence wrapping the whole answer, allowed), no unknown key,
// findings an array (empty when there are none; missing or null is no
// verdict), verdict exactly pass or refuse, every finding's severity
// exactly one of the four with a non-empty claim. Nothing is case-folded
// or trimmed: lens is the seated lens, and a verdict naming any other
// string ("Defect", " defect") is ParsedWrongLens. The string is why the
// answer is not a verdict ("" for ParsedVerdict).
func Parse(raw, lens string) (*Verdict, ParseKind, string) {
	if len(raw) > MaxAnswerBytes {
		return nil, ParsedGarbage, fmt.Sprintf("the answer is %d bytes, more than %d", len(raw), MaxAnswerBytes)
	}
	if !utf8.ValidString(raw) {
		return nil, ParsedGarbage, "the answer is not UTF-8 text"
	}
	body := unfence(strings.TrimSpace(strings.TrimPrefix(raw, byteOrderMark)))
	if body == "" {
		return nil, ParsedGarbage, "the answer is empty"
	}
	if body[0] != '{' {
		return nil, ParsedGarbage, "the answer is not one JSON object (it starts with text)"
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	var w wireVerdict
	if err := dec.Decode(&w); err != nil {
		return nil, ParsedGarbage, "not a verdict object: " + err.Error()
	}
	if w.Findings == nil {
		return nil, ParsedGarbage, `"findings" is missing or null: it must be an array ([] when there is none)`
	}
	v := Verdict{Lens: w.Lens, Verdict: w.Verdict, Findings: *w.Findings, Checked: w.Checked}
	if dec.More() || strings.TrimSpace(body[dec.InputOffset():]) != "" {
		return nil, ParsedGarbage, "text follows the JSON object (strict JSON: one object, no prose)"
	}
	if dup, ok := strictjson.DuplicateKey(body); ok {
		return nil, ParsedGarbage, fmt.Sprintf("the key %q is given twice", dup)
	}
	if v.Verdict != string(OutcomePass) && v.Verdict != string(OutcomeRefuse) {
		return nil, ParsedGarbage, fmt.Sprintf("verdict is %q, not \"pass\" or \"refuse\"", v.Verdict)
	}
	for i, f := range v.Findings {
		switch f.Severity {
		case SevBlocker, SevMajor, SevMinor, SevInfo:
		default:
			return nil, ParsedGarbage, fmt.Sprintf("findings[%d].severity is %q, not blocker, major, minor or info", i, f.Severity)
		}
		if strings.TrimSpace(f.Claim) == "" {
			return nil, ParsedGarbage, fmt.Sprintf("findings[%d].claim is empty", i)
		}
	}
	if v.Lens != lens {
		if strings.TrimSpace(v.Lens) == "" {
			return nil, ParsedGarbage, "the verdict names no lens"
		}
		return &v, ParsedWrongLens, fmt.Sprintf("a verdict for lens %q, seated as %q (the lens name is matched exactly)", v.Lens, lens)
	}
	return &v, ParsedVerdict, ""
}

// unfence strips one ``` fence wrapping the whole answer.
func unfence(s string) string {
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	inner := s[3 : len(s)-3]
	nl := strings.IndexByte(inner, '\n')
	if nl < 0 {
		return s
	}
	if tag := strings.TrimSpace(inner[:nl]); tag != "" && tag != "json" {
		return s
	}
	return strings.TrimSpace(inner[nl+1:])
}

// Judged is a verdict with moot's rules applied (docs/protocols/review.md).
type Judged struct {
	Outcome Outcome
	// Reason says why, when the rules changed what the juror said or the
	// answer was no verdict ("a pass listing a blocker is a refuse").
	Reason string
	// Dry marks a low-information pass.
	Dry bool
}

// Judge applies the verdict rules to a parsed answer: garbage refuses; a
// pass listing a blocker, major or minor finding refuses, naming the
// severity (Closes: a minor finding raised in the final round closes the
// gate too); an info finding never does; a dry pass is a pass marked dry.
func Judge(v *Verdict, kind ParseKind, why string) Judged {
	if kind == ParsedGarbage || v == nil {
		return Judged{Outcome: OutcomeRefuse, Reason: "unreadable answer counts as refuse: " + why}
	}
	if v.Verdict == string(OutcomeRefuse) {
		return Judged{Outcome: OutcomeRefuse}
	}
	for _, sev := range closing {
		for _, f := range v.Findings {
			if f.Severity == sev {
				return Judged{Outcome: OutcomeRefuse, Reason: fmt.Sprintf("a pass listing a %s finding is a refuse", sev)}
			}
		}
	}
	return Judged{Outcome: OutcomePass, Dry: v.Dry()}
}

// RawTailBytes bounds the raw tail a rejected rung keeps.
const RawTailBytes = 2048

// rawTail is the last RawTailBytes of an answer, cut on a rune boundary.
func rawTail(s string) string {
	if len(s) <= RawTailBytes {
		return s
	}
	t := s[len(s)-RawTailBytes:]
	for len(t) > 0 && !utf8.RuneStart(t[0]) {
		t = t[1:]
	}
	return "…" + t
}
