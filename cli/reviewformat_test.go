package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/protocol/review"
)

// aRefusedRound is a round with a finding of each severity, one on a
// file outside the repository, and a lens that held without a finding.
func aRefusedRound() reviewReport {
	return reviewReport{version: "v1.2.3", id: "20261202-070000", status: review.StatusRefused, gate: "refused by defect", round: 2, repo: "/repo",
		lenses: []bugfolder.Lens{{Name: "defect", Text: "Defect: the fault itself.\nMore."}, {Name: "tests", Text: "Tests: what proves it."}, {Name: "security", Text: ""}},
		seats: []review.Seat{
			{Lens: "defect", Outcome: review.OutcomeRefuse, Findings: []review.Finding{
				{Severity: "blocker", Claim: "Total overflows", Evidence: "calc.go: int\nmultiplication", File: "/repo/calc.go"},
				{Severity: "major", Claim: "reads outside", Evidence: "a path, 100%", File: "../etc/passwd"},
			}},
			{Lens: "tests", Outcome: review.OutcomePass, Findings: []review.Finding{
				{Severity: "minor", Claim: "a name, unclear: x", Evidence: "calc_test.go", File: "./pkg/calc_test.go"},
				{Severity: "info", Claim: "could be table-driven", File: "pkg/calc_test.go"},
			}},
			{Lens: "security", Outcome: review.OutcomeHold, Reason: "no rung left"},
		}}
}

// The SARIF log and the annotations of a round are what the golden files
// hold: one result per finding (and per lens that held without one), the
// level from the severity, files relative to the repository, a file
// outside it left without a location, annotations escaped.
func TestReviewFormatsWriteOneItemPerFinding(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer, reviewReport) error
	}{
		{"sarif", func(b *bytes.Buffer, r reviewReport) error { return writeSARIF(b, r) }},
		{"github", func(b *bytes.Buffer, r reviewReport) error { return writeGitHub(b, r) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.write(&b, aRefusedRound()); err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, b.Bytes())
		})
	}
}

// A --format moot does not write, or one beside --json, is bad usage.
func TestReviewFormatRefusesWhatItCannotWrite(t *testing.T) {
	for _, c := range []struct {
		format string
		asJSON bool
		ok     bool
	}{{"text", false, true}, {"sarif", false, true}, {"github", false, true}, {"text", true, true}, {"sarif", true, false}, {"xml", false, false}} {
		if err := checkReviewFormat(c.format, c.asJSON); (err == nil) != c.ok {
			t.Errorf("--format %s (json %v): %v", c.format, c.asJSON, err)
		}
	}
}

// A juror's file is untrusted text: a URI (file: or any other), a Windows
// drive or a path leaving the repository never becomes a location; what
// stays is a path relative to the repository, written into the SARIF log
// as a relative URI reference (percent-encoded, a colon in it too).
func TestAFindingsFileIsAPathInsideTheRepository(t *testing.T) {
	for _, c := range []struct{ file, rel, uri string }{
		{"/repo/calc.go", "calc.go", "calc.go"},
		{"./pkg/../calc.go", "calc.go", "calc.go"},
		{"../outside.go", "", ""},
		{"/etc/passwd", "", ""},
		{"file:///etc/passwd", "", ""},
		{"file:///repo/calc.go", "calc.go", "calc.go"},
		{"file://evil.example/repo/calc.go", "", ""},
		{"https://example.com/calc.go", "", ""},
		{"C:\\x\\y.go", "", ""},
		{"//server/share/x.go", "", ""},
		{"pkg\\calc.go", "pkg/calc.go", "pkg/calc.go"},
		{"dir/a b#c%d.go", "dir/a b#c%d.go", "dir/a%20b%23c%25d.go"},
		{"calc.go:3", "calc.go:3", "calc.go%3A3"},
	} {
		rel := repoRelative("/repo", c.file)
		if rel != c.rel {
			t.Errorf("%q: relative %q, want %q", c.file, rel, c.rel)
		}
		if rel != "" {
			if got := sarifURI(rel); got != c.uri {
				t.Errorf("%q: SARIF uri %q, want %q", c.file, got, c.uri)
			}
		}
	}
}

// GitHub code scanning refuses a SARIF upload with a result that has no
// location ("locationFromSarifResult: expected at least one location"),
// so a finding that names no file of the repository, and a lens that held
// without a finding, point at the review's summary, marked as such.
func TestEverySARIFResultHasALocation(t *testing.T) {
	r := aRefusedRound()
	r.summary = "/repo/.moot/reviews/20261202-070000/summary.md"
	var b bytes.Buffer
	if err := writeSARIF(&b, r); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	summaries := 0
	for _, res := range log.Runs[0].Results {
		if len(res.Locations) != 1 {
			t.Errorf("%s %q: %d locations, want 1", res.RuleID, res.Message.Text, len(res.Locations))
			continue
		}
		if uri := res.Locations[0].PhysicalLocation.ArtifactLocation.URI; uri == ".moot/reviews/20261202-070000/summary.md" {
			summaries++
			if res.Properties["location"] != "summary" {
				t.Errorf("%s %q: at the summary, not marked so: %v", res.RuleID, res.Message.Text, res.Properties)
			}
		}
	}
	if summaries != 2 { // the finding outside the repository, the lens that held
		t.Errorf("%d results at the summary, want 2", summaries)
	}
}

// The Actions runner also reads the older command form "##[name]data"
// anywhere in a line: a juror's text carrying one never reaches an
// annotation whole.
func TestAnAnnotationCarriesNoV1WorkflowCommand(t *testing.T) {
	r := aRefusedRound()
	r.seats[0].Findings[0].Claim = "see ##[add-mask]calc.go and ##[set-output name=code;]0"
	r.seats[0].Findings[0].File = "/repo/##[error]x.go"
	var b bytes.Buffer
	if err := writeGitHub(&b, r); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "##[") {
		t.Errorf("an annotation carries a v1 command:\n%s", out)
	}
}
