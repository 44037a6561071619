package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/internal/lazyre"
	"github.com/reversa/moot/protocol/review"
)

// The review report's formats (--format): the text report moot always
// printed, a SARIF 2.1.0 log for code-scanning tools, and GitHub Actions
// workflow annotation lines (docs/ci.md).
const (
	formatText   = "text"
	formatSARIF  = "sarif"
	formatGitHub = "github"
)

// reviewFormats are --format's values, in the order help lists them.
var reviewFormats = []string{formatText, formatSARIF, formatGitHub}

// checkReviewFormat refuses a --format moot does not write, and one that
// would share stdout with --json's event stream.
func checkReviewFormat(format string, asJSON bool) error {
	if !slices.Contains(reviewFormats, format) {
		return usageErr("--format %q: use one of %s; nothing was called or written", format, strings.Join(reviewFormats, ", "))
	}
	if asJSON && format != formatText {
		return usageErr("--format %s and --json both write stdout: give one of them; nothing was called or written", format)
	}
	return nil
}

// severityLevel maps a finding's severity to SARIF's level (and GitHub's
// annotation command): what blocks the gate is an error, a minor finding a
// warning, info a note.
var severityLevel = map[string]string{"blocker": "error", "major": "error", "minor": "warning", "info": "note"}

// levelOf is a finding's level; a severity moot does not know reads as an
// error (the gate treats it as closing).
func levelOf(severity string) string {
	if l, ok := severityLevel[strings.ToLower(strings.TrimSpace(severity))]; ok {
		return l
	}
	return "error"
}

// reportItem is one line of a formatted report: a finding, or a lens that
// refused or held without naming one (it blocks the gate all the same).
type reportItem struct {
	lens, level, severity, message, file string
}

// reportItems lists a round's findings, lens by lens, and each lens that
// blocked the gate with no finding.
func reportItems(seats []review.Seat, repo string) []reportItem {
	var out []reportItem
	for _, s := range seats {
		for _, f := range s.Findings {
			msg := oneLineText(f.Claim)
			if ev := oneLineText(f.Evidence); ev != "" {
				msg += " — " + ev
			}
			out = append(out, reportItem{lens: s.Lens, level: levelOf(f.Severity), severity: f.Severity, message: msg, file: repoRelative(repo, f.File)})
		}
		if s.Outcome != review.OutcomePass && len(s.Findings) == 0 {
			out = append(out, reportItem{lens: s.Lens, level: "error", severity: string(s.Outcome), message: fmt.Sprintf("%s: %s", s.Outcome, oneLineText(s.Reason))})
		}
	}
	return out
}

// repoRelative is a finding's file as a forward-slash path relative to the
// repository, or "" when it names no file inside it. A juror's text is
// untrusted: a file: URI is read as the path it names, and any other URI,
// a Windows drive or a path outside the repository names no file.
func repoRelative(repo, file string) string {
	file = strings.TrimSpace(file)
	if rest, ok := strings.CutPrefix(file, "file://"); ok {
		u, err := url.Parse("file://" + rest)
		if err != nil || (u.Host != "" && u.Host != "localhost") {
			return ""
		}
		file = u.Path
	}
	file = strings.ReplaceAll(file, "\\", "/")
	if file == "" || uriScheme.MatchString(file) || windowsDrive.MatchString(file) || strings.HasPrefix(file, "//") {
		return ""
	}
	if filepath.IsAbs(file) {
		rel, err := filepath.Rel(repo, file)
		if err != nil {
			return ""
		}
		file = rel
	}
	file = filepath.ToSlash(filepath.Clean(file))
	if file == "." || file == ".." || strings.HasPrefix(file, "../") || filepath.IsAbs(file) {
		return ""
	}
	return file
}

// uriScheme is a URI's scheme and the slash after it (https://, file:/);
// windowsDrive an absolute Windows path (C:/, once backslashes are slashes).
var (
	uriScheme    = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*:/`)
	windowsDrive = lazyre.New(`^[A-Za-z]:(/|$)`)
)

// sarifURI is a repository-relative path as a SARIF artifact URI: a
// relative reference, each segment percent-encoded (a space, '#', '%'
// and ':' included, so "a b#1.go" or "calc.go:3" stay one relative path).
func sarifURI(path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(segs, "/")
}

// sarifSchema is the SARIF 2.1.0 schema's address, written into the log.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool           `json:"executionSuccessful"`
	Properties          map[string]any `json:"properties,omitempty"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	Level      string          `json:"level"`
	Message    sarifMessage    `json:"message"`
	Locations  []sarifLocation `json:"locations,omitempty"`
	Properties map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

// reviewReport is what a formatted report says of a round.
type reviewReport struct {
	id, status, gate string
	version          string // moot's, named in the log's tool
	round            int
	lenses           []bugfolder.Lens
	seats            []review.Seat
	repo             string
	// summary is the review's summary file, the location of a result that
	// names no file of the repository (GitHub code scanning refuses a
	// result without a location).
	summary string
}

// writeSARIF writes a round as a SARIF 2.1.0 log: one rule per lens, one
// result per finding (ruleId the lens, level from its severity, its file
// relative to the repository), and one per lens that blocked the gate
// without a finding.
func writeSARIF(w io.Writer, r reviewReport) error {
	rules := []sarifRule{}
	for _, l := range r.lenses {
		desc := strings.TrimSpace(strings.SplitN(l.Text, "\n", 2)[0])
		if desc == "" {
			desc = l.Name
		}
		rules = append(rules, sarifRule{ID: l.Name, ShortDescription: sarifMessage{Text: desc}})
	}
	results := []sarifResult{}
	for _, it := range reportItems(r.seats, r.repo) {
		res := sarifResult{RuleID: it.lens, Level: it.level, Message: sarifMessage{Text: it.message},
			Properties: map[string]any{"severity": it.severity}}
		file := it.file
		if file == "" {
			// GitHub code scanning refuses a result without a location
			// ("expected at least one location"), and with it the whole
			// upload: such a result points at the review's summary.
			file = repoRelative(r.repo, r.summary)
			if file != "" {
				res.Properties["location"] = "summary"
			}
		}
		if file != "" {
			res.Locations = []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: sarifURI(file), URIBaseID: "%SRCROOT%"}}}}
		}
		results = append(results, res)
	}
	log := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{{
		Tool: sarifTool{Driver: sarifDriver{Name: "moot review", Version: r.version, InformationURI: "https://github.com/reversa/moot", Rules: rules}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: r.status != review.StatusError,
			Properties: map[string]any{"review": r.id, "round": r.round, "status": r.status, "gate": r.gate}}},
		Results: results,
	}}}
	b, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return fmt.Errorf("write the SARIF log: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// githubCommand is the workflow command of a level.
var githubCommand = map[string]string{"error": "error", "warning": "warning", "note": "notice"}

// writeGitHub writes a round as GitHub Actions workflow annotations, one
// line per finding (and per lens that blocked without one), then a notice
// with the gate.
func writeGitHub(w io.Writer, r reviewReport) error {
	for _, it := range reportItems(r.seats, r.repo) {
		props := []string{}
		if it.file != "" {
			props = append(props, "file="+escapeGitHubProperty(it.file))
		}
		props = append(props, "title="+escapeGitHubProperty(fmt.Sprintf("moot review [%s] %s", it.lens, it.severity)))
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", githubCommand[it.level], strings.Join(props, ","), escapeGitHubData(it.message)); err != nil {
			return err
		}
	}
	cmd := "notice"
	if r.status != review.StatusPassed {
		cmd = "error"
	}
	_, err := fmt.Fprintf(w, "::%s title=%s::%s\n", cmd, escapeGitHubProperty("moot review "+r.id), escapeGitHubData(fmt.Sprintf("round %d: %s — %s", r.round, strings.ToUpper(r.status), r.gate)))
	return err
}

// escapeGitHubData escapes a workflow command's message.
func escapeGitHubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(defuseV1Command(s))
}

// escapeGitHubProperty escapes a workflow command's property value.
func escapeGitHubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(defuseV1Command(s))
}

// defuseV1Command breaks the runner's older command prefix, "##[", which
// it looks for anywhere in a line (not only at its start, as "::"), so a
// juror's text such as "##[add-mask]…" inside an annotation stays text.
// A zero-width space between the hashes and the bracket shows the same.
func defuseV1Command(s string) string {
	return strings.ReplaceAll(s, "##[", "##\u200b[")
}

// writeReviewFormat writes the round in the format --format asked for on
// stdout; the text report (on stderr then) is untouched.
func (r *reviewRun) writeReviewFormat(res review.RunResult) error {
	rep := reviewReport{version: version(), id: r.folder.ID, summary: filepath.Join(r.folder.Dir, review.SummaryFile(r.st.LangOf())), status: r.st.Status, gate: res.Gate.Reason, round: res.Round, lenses: r.st.Lenses, seats: res.Seats, repo: r.repo}
	switch r.f.format {
	case formatSARIF:
		return writeSARIF(r.e.stdout, rep)
	case formatGitHub:
		return writeGitHub(r.e.stdout, rep)
	}
	return nil
}

// textOut is where the text report goes: stdout, unless stdout carries
// --json's events or another --format.
func (r *reviewRun) textOut() io.Writer {
	if r.f.run.asJSON || (r.f.format != "" && r.f.format != formatText) {
		return r.e.stderr
	}
	return r.e.stdout
}
