package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sarifRequired are the properties SARIF 2.1.0's schema
// (sarif-schema-2.1.0.json) requires of each object a review's log
// writes, by the path of the object in the log ("[]" an array's items).
var sarifRequired = map[string][]string{
	"":                           {"version", "runs"},
	"runs[]":                     {"tool"},
	"runs[].tool":                {"driver"},
	"runs[].tool.driver":         {"name"},
	"runs[].tool.driver.rules[]": {"id"},
	"runs[].invocations[]":       {"executionSuccessful"},
	"runs[].results[]":           {"message"},
	"runs[].results[].message":   {"text"},
	"runs[].results[].locations[].physicalLocation.artifactLocation": {"uri"},
}

// sarifLevels are the schema's values of a result's level.
var sarifLevels = []string{"none", "note", "warning", "error"}

// checkSARIF checks a decoded log against sarifRequired, the version and
// the level's enumeration, and returns what is wrong.
func checkSARIF(v any, path string, problems *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for _, req := range sarifRequired[path] {
			if _, ok := x[req]; !ok {
				*problems = append(*problems, fmt.Sprintf("%s: required %q missing", path, req))
			}
		}
		if path == "" && x["version"] != "2.1.0" {
			*problems = append(*problems, fmt.Sprintf("version %v, want 2.1.0", x["version"]))
		}
		if path == "runs[].results[]" {
			if l, ok := x["level"].(string); ok && !slices.Contains(sarifLevels, l) {
				*problems = append(*problems, fmt.Sprintf("%s: level %q is none of %v", path, l, sarifLevels))
			}
		}
		for k, c := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			checkSARIF(c, p, problems)
		}
	case []any:
		for _, c := range x {
			checkSARIF(c, path+"[]", problems)
		}
	}
}

// A review's SARIF log holds what the schema requires, one result per
// finding with the lens as its rule, a level from the severity and the
// file relative to the repository; the exit code is the text report's.
func TestReviewSARIFHasOneResultPerFindingWithTheSchemasRequiredFields(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.jury = "*/defect=refuse,*/security=infopass,*/tests=minorpass"
	r := tr.review(append(change, "--lens", "defect", "--lens", "security", "--lens", "tests", "--format", "sarif")...)
	if r.code != 4 {
		t.Fatalf("a refused review with --format sarif: exit %d, want 4 (as without it)\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "REFUSE") {
		t.Errorf("the text report moved to stderr, so it should name the gate:\n%s", r.stderr)
	}
	var log any
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, r.stdout)
	}
	var problems []string
	checkSARIF(log, "", &problems)
	for _, p := range problems {
		t.Error(p)
	}
	var typed struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string } `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &typed); err != nil || len(typed.Runs) != 1 {
		t.Fatalf("runs: %v %+v", err, typed)
	}
	run := typed.Runs[0]
	got := map[string]string{}
	for _, res := range run.Results {
		if len(res.Locations) != 1 || res.Locations[0].PhysicalLocation.ArtifactLocation.URI != "calc.go" {
			t.Errorf("result %s: locations %+v, want calc.go relative to the repository", res.RuleID, res.Locations)
		}
		got[res.RuleID] = res.Level
	}
	want := map[string]string{"defect": "error", "security": "note", "tests": "warning"}
	if len(run.Results) != 3 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("results by rule: %v (%d results), want one per finding: %v", got, len(run.Results), want)
	}
	var rules []string
	for _, rl := range run.Tool.Driver.Rules {
		rules = append(rules, rl.ID)
	}
	if fmt.Sprint(rules) != "[defect security tests]" {
		t.Errorf("rules %v, want one per lens", rules)
	}
}

// --format github writes one workflow annotation per finding, a level's
// command and the file relative to the repository, then the gate; a
// pass keeps exit 0; a bad --format is exit 2 before any call.
func TestReviewGitHubFormatWritesWorkflowAnnotations(t *testing.T) {
	t.Parallel()
	tr := newTribunal(t, juryEngines)
	tr.jury = "*/defect=infopass"
	r := tr.review(append(change, "--lens", "defect", "--format", "github")...)
	if r.code != 0 {
		t.Fatalf("a passing review with --format github: exit %d, want 0\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "::notice file=calc.go,title=moot review [defect] info::Total could take a named type") ||
		!strings.HasPrefix(lines[1], "::notice title=moot review ") || !strings.Contains(lines[1], "PASS") {
		t.Errorf("annotations:\n%s", r.stdout)
	}
	bad := tr.review(append(change, "--lens", "defect", "--format", "xml")...)
	if bad.code != 2 || !strings.Contains(bad.stderr, `--format "xml": use one of text, sarif, github`) || len(tr.calls()) != 1 {
		t.Errorf("--format xml: exit %d, calls %v\n%s", bad.code, tr.calls(), bad.stderr)
	}
}
