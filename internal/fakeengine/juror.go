package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// juror answers a review juror's call (role juror) as FAKE_JURY says.
//
// FAKE_JURY is a comma-separated list of ENGINE/LENS[@ROUND]=BEHAVIOUR
// rules, the first match winning (default pass); ENGINE is the engine's
// FAKE_ENGINE (set in its entry's env:), LENS the seated lens, either may
// be "*". Behaviours: pass (names what it checked), drypass (no finding,
// nothing checked), refuse (one major finding, the same every round),
// refusenew (one major finding new each round), minorpass (a pass with a
// minor finding), infopass (a pass with an info finding), refuseissue (a
// refuse whose finding names its impact and follow-up), blockerpass (a pass listing a blocker), wronglens (a
// verdict for another lens), verbose (60,000 words, then a pass), lenscase (its lens capitalised), nofindings
// (a pass without "findings"), garbage (refusal prose), hang (never
// answers), fail (exit 1). Each call appends "ENGINE LENS ROUND" to
// FAKE_JURYLOG when set.
func juror(lens, round string) {
	eng := os.Getenv("FAKE_ENGINE")
	if f := os.Getenv("FAKE_JURYLOG"); f != "" {
		appendFile(f, fmt.Sprintf("%s %s %s\n", eng, lens, round))
	}
	b := pickJury(os.Getenv("FAKE_JURY"), eng, lens, round)
	type finding struct {
		Severity string `json:"severity"`
		Claim    string `json:"claim"`
		Evidence string `json:"evidence"`
		File     string `json:"file,omitempty"`
		Impact   string `json:"impact,omitempty"`
		FollowUp string `json:"follow_up,omitempty"`
	}
	v := struct {
		Lens     string    `json:"lens"`
		Verdict  string    `json:"verdict"`
		Findings []finding `json:"findings"`
		Checked  []string  `json:"checked"`
	}{Lens: lens, Verdict: "pass", Findings: []finding{}, Checked: []string{"read calc.go whole against the contract"}}
	switch b {
	case "pass":
	case "drypass":
		v.Checked = []string{}
	case "refuse":
		v.Verdict = "refuse"
		v.Findings = []finding{{Severity: "major", Claim: "Total ignores the discount cap (" + lens + ")", Evidence: "calc.go: Total returns price*qty", File: "calc.go"}}
	case "refusenew":
		v.Verdict = "refuse"
		v.Findings = []finding{{Severity: "major", Claim: "new problem of round " + round + " (" + lens + ")", Evidence: "calc.go", File: "calc.go"}}
	case "minorpass":
		v.Findings = []finding{{Severity: "minor", Claim: "a name could be clearer", Evidence: "calc.go", File: "calc.go"}}
	case "infopass":
		v.Findings = []finding{{Severity: "info", Claim: "Total could take a named type", Evidence: "calc.go", File: "calc.go"}}
	case "refuseissue":
		v.Verdict = "refuse"
		v.Findings = []finding{{Severity: "major", Claim: "the discount is still applied twice (" + lens + ")", Evidence: "calc.go: Total applies d after the loop",
			File: "calc.go", Impact: "orders are undercharged", FollowUp: "apply the discount once, in Total"}}
	case "blockerpass":
		v.Findings = []finding{{Severity: "blocker", Claim: "Total overflows for large qty", Evidence: "calc.go: int multiplication", File: "calc.go"}}
	case "wronglens":
		v.Lens = "security"
		if lens == "security" {
			v.Lens = "defect"
		}
	case "verbose":
		fmt.Print(strings.Repeat("word ", 60000) + "\n")
	case "lenscase":
		v.Lens = strings.ToUpper(lens[:1]) + lens[1:]
	case "nofindings":
		fmt.Printf("{\"lens\": %q, \"verdict\": \"pass\", \"checked\": [\"read calc.go\"]}\n", lens)
		return
	case "garbage":
		fmt.Print("I'm sorry, but I can't help with reviewing this change.\n")
		return
	case "hang":
		time.Sleep(time.Hour)
		return
	case "fail":
		fmt.Fprintln(os.Stderr, "fake: juror overloaded")
		os.Exit(1)
	default:
		fmt.Fprintf(os.Stderr, "fake: unknown juror behaviour %q\n", b)
		os.Exit(2)
	}
	out, _ := json.Marshal(v)
	fmt.Println(string(out))
}

// pickJury finds a juror call's behaviour: the first rule of plan whose
// ENGINE/LENS[@ROUND] matches.
func pickJury(plan, eng, lens, round string) string {
	for _, rule := range strings.Split(plan, ",") {
		who, b, ok := strings.Cut(strings.TrimSpace(rule), "=")
		if !ok {
			continue
		}
		if i := strings.Index(who, "@"); i >= 0 {
			if who[i+1:] != round {
				continue
			}
			who = who[:i]
		}
		e, l, _ := strings.Cut(who, "/")
		if (e == "*" || e == eng) && (l == "*" || l == "" || l == lens) {
			return b
		}
	}
	return "pass"
}
