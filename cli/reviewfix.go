package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/protocol/review"
)

// fixLenses are the four checks of Reversa's independent fix reviewer
// (docs/reversa-handoff.md), one lens each: the brief of a fix review's
// jurors when --lens is not given.
var fixLenses = []string{
	"fix-scope: Every approved CHG item of the contract is carried out in the files, and nothing in them goes beyond the fix's stated scope (no refactoring or unrelated change beside the correction).",
	"fix-regression: The production code of the change carries no regression risk; check ownership, lifetime, concurrency and error-path invariants wherever the code has them.",
	"fix-tests: The reproduction and regression tests establish the claim that they failed before the fix and pass with it (red to green), and nothing in the test files contradicts the fix.",
	"fix-spec: The corrected behaviour matches the expected behaviour and the effective specification in the contract and its context; name any mismatch left unresolved.",
}

// fixBrief is what every fix-review lens adds to its finding's shape.
const fixBrief = " For each finding give its severity, the exact file, the evidence, its impact, and the smallest follow-up that settles it (\"impact\" and \"follow_up\")."

// isFixReview reports a review of a bug's applied fix: its sealed record
// says so (review.State.Fix, whatever --lens gave it), or, for a record
// written before that field, no range and the fix reviewer's lenses.
func isFixReview(st *review.State) bool {
	if st.BugID == "" || st.Change != "" {
		return false
	}
	return st.Fix || slices.ContainsFunc(st.Lenses, func(l bugfolder.Lens) bool { return l.Name == "fix-scope" })
}

// fixLens is the fix reviewer's check named name with its brief, "" when
// name is not one of fixLenses: --lens fix-scope on a fix review.
func fixLens(name string) string {
	for _, l := range fixLenses {
		if n, _, _ := strings.Cut(l, ":"); n == name {
			return l + fixBrief
		}
	}
	return ""
}

// handoff makes `moot review BUG` with no --change and no --files the
// review of the bug's applied fix: the change set is fix/CHG-*.diff's
// files plus the tests traceability names, the contract the plan's CHG
// items (--contract overrides it), the lenses the fix reviewer's four
// checks (--lens overrides them). A bug with no fix/CHG-*.diff is exit 2
// saying what is missing; nothing is written.
func (r *reviewRun) handoff() error {
	if r.bug == nil || r.f.resume != "" || r.f.change != "" || len(r.f.files) > 0 {
		return nil
	}
	fix, err := envelope.ReadFix(r.bug.Dir)
	if err != nil {
		return usageErr("%s: %v; nothing was called or written", r.bug.ID, err)
	}
	if fix == nil {
		return usageErr("%s has no applied fix to review: no %s in %s; apply the fix first (Reversa's fix step saves each approved CHG item as fix/CHG-NNN.diff), or give the change %s; nothing was called or written",
			r.bug.ID, filepath.Join(envelope.FixDir, "CHG-*.diff"), r.bug.Dir, r.f.changeWords().Either)
	}
	var files, missing []string
	add := func(p string) {
		if fi, err := os.Lstat(filepath.Join(r.repo, filepath.FromSlash(p))); err == nil && fi.Mode().IsRegular() {
			if !slices.Contains(files, p) {
				files = append(files, p)
			}
		} else if !slices.Contains(missing, p) {
			missing = append(missing, p)
		}
	}
	for _, p := range fix.Touched {
		add(p)
	}
	full, err := r.bug.Full()
	if err != nil {
		return err
	}
	for _, p := range envelope.TestPaths(traceTests(full)) {
		add(p)
	}
	if len(missing) > 0 {
		fmt.Fprintf(r.e.stderr, "moot: warning: the fix names files that are not in %s, left out of the envelope: %s\n", r.repo, strings.Join(missing, ", "))
	}
	if len(files) == 0 {
		return usageErr("%s: the files fix/CHG-*.diff touches are none of them in %s (%s): run moot from the project the fix was applied to; nothing was called or written",
			r.bug.ID, r.repo, strings.Join(fix.Touched, ", "))
	}
	if !fix.Plan {
		fmt.Fprintf(r.e.stderr, "moot: warning: %s has no fix/%s: the contract names the diffs only, and no CHG item is checked against them\n", r.bug.ID, envelope.PlanFile)
	}
	r.f.files, r.fix = files, fix
	if r.f.contract == "" {
		r.f.contract = fixContract(fix)
	}
	if len(r.f.lenses) == 0 {
		for _, l := range fixLenses {
			r.f.lenses = append(r.f.lenses, l+fixBrief)
		}
	}
	for i, n := range r.f.lenses { // --lens fix-scope: the fix reviewer's own check
		if l := fixLens(n); l != "" {
			r.f.lenses[i] = l
		}
	}
	fmt.Fprintf(r.e.stderr, "moot: reviewing the applied fix of %s: %s (%d file(s))\n", r.bug.ID, strings.Join(fix.Diffs, ", "), len(files))
	return nil
}

// fixChecks adds moot's own check of a fix review to the envelope: the
// plan's CHG items and the diffs match (envelope.Fix.Checks); a resumed
// fix review read its fix again (rederive).
func (r *reviewRun) fixChecks(env *envelope.Envelope) {
	if r.fix != nil {
		// scan runs before the plan and again once the test checks joined:
		// each check is in the envelope once, its latest result
		checks := r.fix.Checks()
		env.Tests = slices.DeleteFunc(env.Tests, func(t envelope.TestCheck) bool {
			return slices.ContainsFunc(checks, func(c envelope.TestCheck) bool { return c.Name == t.Name })
		})
		env.Tests = append(env.Tests, checks...)
	}
}

// fixLeftOut is what of a fix review's diffs the jurors never read (a
// path leaving the repository: envelope.Fix.LeftOut), each said in a
// warning; nil when no fix is under review.
func (r *reviewRun) fixLeftOut() []string {
	if r.fix == nil {
		return nil
	}
	out := r.fix.LeftOut()
	for _, o := range out {
		fmt.Fprintf(r.e.stderr, "moot: warning: left out of the envelope: %s\n", termsafe.Line(o))
	}
	return out
}

// fixContract is the contract of a fix review: the intent is the plan's
// approved CHG items (or the diffs' names without a plan), the criteria
// what the fix reviewer checks; the expected behaviour and the effective
// spec join as context (bugContract).
func fixContract(fix *envelope.Fix) string {
	var items []string
	for _, it := range fix.Items {
		s := it.ID
		if meta := strings.Trim(it.Kind+", "+it.Artifact, ", "); meta != "" {
			s += " (" + meta + ")"
		}
		if it.Purpose != "" {
			s += ": " + it.Purpose
		}
		items = append(items, s)
	}
	if len(items) == 0 {
		items = fix.Diffs
	}
	intent := strings.ReplaceAll("Carry out the approved change set of a bug fix: "+strings.Join(items, "; "), "|", "/")
	return intent + " | Every approved CHG item is carried out within the fix's scope; the corrected behaviour is the expected behaviour and the effective specification given as context; the reproduction and regression tests go from red to green; no regression risk in ownership, lifetime, concurrency or error paths."
}

// traceTests are the bug's traceability.reproduction_tests and
// regression_tests entries (a scalar each, or a mapping's path:, file: or
// test:).
func traceTests(b *bugfolder.Bug) []string {
	tr := bugfolder.Lookup(b.Meta, "traceability")
	var out []string
	for _, key := range []string{"reproduction_tests", "regression_tests"} {
		n := bugfolder.Lookup(tr, key)
		if n == nil || n.Kind != yaml.SequenceNode {
			continue
		}
		for _, c := range n.Content {
			switch c.Kind {
			case yaml.ScalarNode:
				out = append(out, c.Value)
			case yaml.MappingNode:
				for _, k := range []string{"path", "file", "test"} {
					if v := bugfolder.Lookup(c, k); v != nil && v.Kind == yaml.ScalarNode {
						out = append(out, v.Value)
						break
					}
				}
			}
		}
	}
	return out
}

// bugContract is what joins the contract on a bug: what must be true —
// the bug's Expected Behavior and Acceptance Criteria sections and the
// effective spec sections P assembles (bugfolder.EffectiveSpec) — never
// its title, Summary or Actual Behavior, nor a debate's answer: prose
// about the old behaviour plants phantom defects. A spec locator that
// lands in a file of the bug register is left out, said in omitted.
func (r *reviewRun) bugContract() (parts []envelope.Part, omitted []string, _ error) {
	if r.bug == nil {
		return nil, nil, nil
	}
	b, err := r.bug.Full()
	if err != nil {
		return nil, nil, err
	}
	for _, s := range []struct{ en, pt, title string }{
		{"Expected Behavior", "Comportamento Esperado", "Expected behaviour"},
		{"Acceptance Criteria", "Critérios de Aceite", "Acceptance criteria"},
	} {
		text := strings.TrimSpace(b.Section(s.en))
		if text == "" {
			text = strings.TrimSpace(b.Section(s.pt))
		}
		text = strings.TrimSpace(withoutOldBehaviour(text))
		if text != "" {
			parts = append(parts, envelope.Part{Title: s.title, Body: text})
		}
	}
	spec, refused, err := bugfolder.EffectiveSpec(b)
	if err != nil {
		return nil, nil, err
	}
	for _, path := range refused {
		why := fmt.Sprintf("%s (a traceability.specs locator of %s): a record of the bug register, not a spec — a bug's own prose or a debate's or review's files never reach a juror", path, b.ID)
		fmt.Fprintf(r.e.stderr, "moot: warning: left out of the envelope: %s\n", termsafe.Line(why))
		omitted = append(omitted, why)
	}
	for _, p := range spec {
		if p.Text != "" {
			parts = append(parts, envelope.Part{Title: "Effective spec: " + p.Path, Body: p.Text})
		}
	}
	return parts, omitted, nil
}

// oldBehaviourHeadings are the headings, English and Portuguese, under
// which a bug record speaks of the code before the fix (lower case).
var oldBehaviourHeadings = []string{
	"summary", "actual behavior", "actual behaviour", "observed behavior", "observed behaviour", "current behavior",
	"current behaviour", "steps to reproduce", "evidence", "suspected area", "agent notes", "root cause",
	"resumo", "sumário", "sumario", "comportamento atual", "comportamento observado", "passos para reproduzir",
	"evidências", "evidencias", "área suspeita", "area suspeita", "notas do agente", "causa raiz",
}

// withoutOldBehaviour is a section's text without its sub-sections about
// the old behaviour (an "### Actual Behavior" under Expected Behavior):
// each is cut up to the next heading of its level or above.
func withoutOldBehaviour(text string) string {
	var b strings.Builder
	kept, cutLevel := 0, 0 // cutLevel 0: not cutting
	for _, h := range bugfolder.Headings(text) {
		if cutLevel > 0 && h.Level <= cutLevel {
			kept, cutLevel = h.Offset, 0
		}
		name := strings.ToLower(strings.TrimRight(strings.TrimSpace(h.Text), ":"))
		if cutLevel == 0 && slices.Contains(oldBehaviourHeadings, name) {
			b.WriteString(text[kept:h.Offset])
			cutLevel = h.Level
		}
	}
	if cutLevel == 0 {
		b.WriteString(text[kept:])
	}
	return b.String()
}

// fixIssue is one issue of a fix review, in the fix reviewer's terms.
type fixIssue struct {
	Severity string `json:"severity"`
	File     string `json:"file"`
	Claim    string `json:"claim"`
	Evidence string `json:"evidence"`
	Impact   string `json:"impact"`
	FollowUp string `json:"follow_up"`
	Lens     string `json:"lens"`
}

// fixVerdict is fix-review.json: the fix reviewer's one verdict.
type fixVerdict struct {
	BugID    string     `json:"bug_id"`
	Verdict  string     `json:"verdict"`
	Round    int        `json:"round"`
	Gate     string     `json:"gate"`
	Evidence []string   `json:"evidence_reviewed"`
	Issues   []fixIssue `json:"issues"`
	Residual []fixIssue `json:"residual_risk"`
}

// Files a fix review writes beside the tribunal's own, in its folder.
const (
	fixReviewMD   = "fix-review.md"
	fixReviewJSON = "fix-review.json"
)

// reportFix writes, after a round of a fix review, the fix reviewer's
// verdict in its own terms into the review's folder (never bug.md):
// approve only when the gate opened, else reject with every open issue
// (severity, file, evidence, impact, smallest follow-up) and each lens
// that held.
func (r *reviewRun) reportFix(res review.RunResult) {
	if r.folder == nil || !isFixReview(r.st) || res.Round == 0 {
		return
	}
	v := fixVerdict{BugID: r.st.BugID, Verdict: "reject", Round: res.Round, Gate: string(res.Gate.Outcome) + ": " + res.Gate.Reason, Issues: []fixIssue{}, Residual: []fixIssue{}}
	if res.Gate.Outcome == review.OutcomePass && r.st.Status == review.StatusPassed {
		v.Verdict = "approve"
	}
	if r.fix != nil {
		for _, d := range r.fix.Diffs {
			v.Evidence = append(v.Evidence, filepath.ToSlash(filepath.Join(envelope.FixDir, d)))
		}
		if r.fix.Plan {
			v.Evidence = append(v.Evidence, envelope.FixDir+"/"+envelope.PlanFile)
		}
	}
	for _, f := range r.st.Files { // only what the jurors read: a register's record was left out
		if !envelope.IsRecord(filepath.ToSlash(f), r.recordFolders()) {
			v.Evidence = append(v.Evidence, f)
		}
	}
	for _, s := range res.Seats {
		for _, f := range s.Findings {
			is := fixIssue{Severity: f.Severity, File: f.File, Claim: f.Claim, Evidence: f.Evidence, Impact: f.Impact, FollowUp: f.FollowUp, Lens: s.Lens}
			if review.Closes(f.Severity) {
				v.Issues = append(v.Issues, is)
			} else {
				v.Residual = append(v.Residual, is)
			}
		}
		if s.Outcome == review.OutcomeHold {
			v.Issues = append(v.Issues, fixIssue{Severity: review.SevBlocker, File: "(tribunal)", Claim: "lens " + s.Lens + " held: no juror could give it a verdict",
				Evidence: s.Reason, Impact: "the fix is not reviewed from this lens", FollowUp: "seat the lens (engines of another family than the builder's), then moot review " + r.st.BugID + " --resume " + r.folder.ID, Lens: s.Lens})
		}
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		err = r.folder.Write(fixReviewJSON, append(b, '\n'))
	}
	if err == nil {
		err = r.folder.Write(fixReviewMD, []byte(renderFixVerdict(v)))
	}
	if err != nil {
		fmt.Fprintf(r.e.stderr, "moot: the fix review's verdict could not be saved: %v\n", err)
		return
	}
	fmt.Fprintf(r.e.stdout, "fix review of %s: %s (%s)\n", r.st.BugID, strings.ToUpper(v.Verdict), filepath.Join(r.folder.Dir, fixReviewMD))
}

// renderFixVerdict writes fix-review.md.
func renderFixVerdict(v fixVerdict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Fix review of %s: %s\n\n", v.BugID, v.Verdict)
	fmt.Fprintf(&b, "Blind tribunal, round %d — gate %s\n\n## Evidence reviewed\n\n", v.Round, oneLineText(v.Gate))
	for _, e := range v.Evidence {
		fmt.Fprintf(&b, "- `%s`\n", e)
	}
	section := func(title string, list []fixIssue) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n## %s\n", title)
		for i, is := range list {
			fmt.Fprintf(&b, "\n### %d. [%s] %s\n\n", i+1, is.Severity, oneLineText(is.Claim))
			for _, kv := range [][2]string{{"File", is.File}, {"Evidence", is.Evidence}, {"Impact", is.Impact}, {"Smallest follow-up", is.FollowUp}, {"Lens", is.Lens}} {
				fmt.Fprintf(&b, "- %s: %s\n", kv[0], cmp.Or(oneLineText(kv[1]), "(not given)"))
			}
		}
	}
	if v.Verdict == "approve" {
		b.WriteString("\nNo blocking issue found.\n")
	}
	section("Issues", v.Issues)
	section("Non-blocking residual risk", v.Residual)
	b.WriteString("\nThis review changed no file of the bug: bug.md and the fix are the fixer's and the user's to follow up.\n")
	return b.String()
}
