package review

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name, raw string
		kind      ParseKind
		outcome   Outcome
		reason    string // in Parse's why or Judge's reason
		dry       bool
	}{
		{"a pass naming what it checked", `{"lens":"defect","verdict":"pass","findings":[],"checked":["Total"]}`, ParsedVerdict, OutcomePass, "", false},
		{"a dry pass", `{"lens":"defect","verdict":"pass","findings":[],"checked":[]}`, ParsedVerdict, OutcomePass, "", true},
		{"a fenced object", "```json\n{\"lens\":\"defect\",\"verdict\":\"pass\",\"findings\":[],\"checked\":[\"x\"]}\n```", ParsedVerdict, OutcomePass, "", false},
		{"a capitalised lens is another lens", `{"lens":"Defect","verdict":"refuse","findings":[{"severity":"minor","claim":"c","evidence":"e"}],"checked":[]}`, ParsedWrongLens, "", "Defect", false},
		{"a spaced lens is another lens", `{"lens":" defect","verdict":"pass","findings":[],"checked":["x"]}`, ParsedWrongLens, "", "exactly", false},
		{"findings missing", `{"lens":"defect","verdict":"pass","checked":["x"]}`, ParsedGarbage, OutcomeRefuse, "findings", false},
		{"findings null", `{"lens":"defect","verdict":"pass","findings":null,"checked":["x"]}`, ParsedGarbage, OutcomeRefuse, "findings", false},
		{"findings an object", `{"lens":"defect","verdict":"pass","findings":{},"checked":["x"]}`, ParsedGarbage, OutcomeRefuse, "findings", false},
		{"checked may be omitted", `{"lens":"defect","verdict":"pass","findings":[]}`, ParsedVerdict, OutcomePass, "", true},
		{"verdict in capitals", `{"lens":"defect","verdict":"PASS","findings":[],"checked":["x"]}`, ParsedGarbage, OutcomeRefuse, "PASS", false},
		{"severity in capitals", `{"lens":"defect","verdict":"refuse","findings":[{"severity":"Major","claim":"c","evidence":"e"}],"checked":[]}`, ParsedGarbage, OutcomeRefuse, "Major", false},
		{"a byte-order mark is ignored", "\ufeff" + `{"lens":"defect","verdict":"pass","findings":[],"checked":["x"]}`, ParsedVerdict, OutcomePass, "", false},
		{"two byte-order marks are text", "\ufeff\ufeff" + `{"lens":"defect","verdict":"pass","findings":[],"checked":["x"]}`, ParsedGarbage, OutcomeRefuse, "starts with text", false},
		{"pass with a blocker", `{"lens":"defect","verdict":"pass","findings":[{"severity":"blocker","claim":"c","evidence":"e"}],"checked":["x"]}`, ParsedVerdict, OutcomeRefuse, "blocker", false},
		{"pass with a major", `{"lens":"defect","verdict":"pass","findings":[{"severity":"major","claim":"c","evidence":"e"}],"checked":["x"]}`, ParsedVerdict, OutcomeRefuse, "major", false},
		{"pass with a minor is a refuse", `{"lens":"defect","verdict":"pass","findings":[{"severity":"minor","claim":"c","evidence":"e"}],"checked":[]}`, ParsedVerdict, OutcomeRefuse, "minor", false},
		{"pass with an info stays a pass", `{"lens":"defect","verdict":"pass","findings":[{"severity":"info","claim":"c","evidence":"e"}],"checked":[]}`, ParsedVerdict, OutcomePass, "", false},
		{"a finding's impact and follow-up are read", `{"lens":"defect","verdict":"refuse","findings":[{"severity":"major","claim":"c","evidence":"e","file":"a.go","impact":"i","follow_up":"f"}],"checked":[]}`, ParsedVerdict, OutcomeRefuse, "", false},
		{"wrong lens", `{"lens":"security","verdict":"pass","findings":[],"checked":["x"]}`, ParsedWrongLens, "", "security", false},
		{"prose", "I'm sorry, I can't review this.", ParsedGarbage, OutcomeRefuse, "starts with text", false},
		{"prose after the object", `{"lens":"defect","verdict":"pass","findings":[],"checked":["x"]} looks good!`, ParsedGarbage, OutcomeRefuse, "", false},
		{"two objects", `{"lens":"defect","verdict":"pass","findings":[],"checked":["x"]}{"lens":"defect"}`, ParsedGarbage, OutcomeRefuse, "", false},
		{"unknown key", `{"lens":"defect","verdict":"pass","findings":[],"checked":["x"],"score":9}`, ParsedGarbage, OutcomeRefuse, "score", false},
		{"duplicate key", `{"lens":"defect","verdict":"refuse","verdict":"pass","findings":[],"checked":["x"]}`, ParsedGarbage, OutcomeRefuse, "twice", false},
		{"bad verdict word", `{"lens":"defect","verdict":"approve","findings":[],"checked":[]}`, ParsedGarbage, OutcomeRefuse, "approve", false},
		{"bad severity", `{"lens":"defect","verdict":"refuse","findings":[{"severity":"critical","claim":"c","evidence":"e"}],"checked":[]}`, ParsedGarbage, OutcomeRefuse, "critical", false},
		{"empty claim", `{"lens":"defect","verdict":"refuse","findings":[{"severity":"minor","claim":" ","evidence":"e"}],"checked":[]}`, ParsedGarbage, OutcomeRefuse, "claim", false},
		{"no lens", `{"verdict":"pass","findings":[],"checked":["x"]}`, ParsedGarbage, OutcomeRefuse, "no lens", false},
		{"empty", "  \n", ParsedGarbage, OutcomeRefuse, "empty", false},
		{"not UTF-8", "\xff\xfe{", ParsedGarbage, OutcomeRefuse, "UTF-8", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, kind, why := Parse(c.raw, "defect")
			if kind != c.kind {
				t.Fatalf("kind %d (%s), want %d", kind, why, c.kind)
			}
			if kind == ParsedWrongLens {
				if !strings.Contains(why, c.reason) {
					t.Errorf("why %q lacks %q", why, c.reason)
				}
				return
			}
			j := Judge(v, kind, why)
			if j.Outcome != c.outcome || j.Dry != c.dry {
				t.Errorf("judged %+v, want %s dry=%v", j, c.outcome, c.dry)
			}
			if !strings.Contains(j.Reason, c.reason) {
				t.Errorf("reason %q lacks %q", j.Reason, c.reason)
			}
		})
	}
}

// FuzzParse: any answer is a verdict, a wrong lens or garbage, never a
// panic; a pass never survives a blocker or major finding.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"lens":"defect","verdict":"pass","findings":[],"checked":["x"]}`,
		`{"lens":"defect","verdict":"pass","findings":[{"severity":"blocker","claim":"c","evidence":"e"}],"checked":[]}`,
		`{"lens":"security","verdict":"refuse","findings":[],"checked":[]}`,
		"```json\n{\"lens\":\"defect\",\"verdict\":\"pass\",\"findings\":[],\"checked\":[]}\n```",
		`{"lens":"defect","verdict":"pass","verdict":"refuse"}`,
		"no.",
		"\ufeff{\"lens\":\"Defect\",\"verdict\":\"pass\",\"findings\":null}",
		`{"a":[{"b":{"c":[1,2,{"d":"e"}]}}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, kind, why := Parse(raw, "defect")
		switch kind {
		case ParsedVerdict:
			if v == nil || why != "" {
				t.Fatalf("verdict %v with why %q", v, why)
			}
			if v.Lens != "defect" || v.Findings == nil || (v.Verdict != "pass" && v.Verdict != "refuse") {
				t.Fatalf("a verdict not of the exact shape was accepted: %+v", v)
			}
		case ParsedWrongLens, ParsedGarbage:
			if why == "" {
				t.Fatal("a rejected answer says no why")
			}
		}
		j := Judge(v, kind, why)
		if j.Outcome == OutcomePass {
			for _, fd := range v.Findings {
				if fd.Severity == SevBlocker || fd.Severity == SevMajor {
					t.Fatalf("a pass with a %s finding", fd.Severity)
				}
			}
		}
		if kind == ParsedGarbage && j.Outcome != OutcomeRefuse {
			t.Fatalf("garbage judged %s", j.Outcome)
		}
	})
}

func TestRawTailIsBoundedOnARuneBoundary(t *testing.T) {
	s := strings.Repeat("é", RawTailBytes)
	got := rawTail(s)
	if len(got) > RawTailBytes+len("…") || !strings.HasPrefix(got, "…é") {
		t.Errorf("tail of %d bytes starts %q", len(got), got[:8])
	}
	if rawTail("short") != "short" {
		t.Error("a short answer is kept whole")
	}
}

// The prompt ends with the answer's shape carrying the literal lens name
// (docs/protocols/review.md: never a placeholder).
func TestPromptEndsWithTheLiteralLens(t *testing.T) {
	p := Prompt(lensOf("defect"), "# Contract\n", "n0nce")
	tail := p[strings.LastIndex(p, "END ENVELOPE n0nce"):]
	if !strings.Contains(tail, `{"lens": "defect", "verdict"`) {
		t.Errorf("the shape after the envelope lacks the lens:\n%s", tail)
	}
	if strings.Contains(p, "<your lens>") || strings.Contains(p, "<lens>") {
		t.Error("a placeholder is left in the prompt")
	}
}
