package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/protocol/review"
)

// scan readies the envelope for the jurors before any call: it adds
// moot's own checks of a fix review's change set (fixChecks), replaces
// the secret values of moot's environment in it (redact: named in the
// plan), then refuses (exit 2) a prompt that leaks identity: the envelope
// and every lens text the prompt adds to it, scanned in one pass for who
// wrote the change (git's authors, committers and trailers) and who built
// or judges it (the builder and the panel's engines: their names and
// model ids, review.EngineLabels).
func (r *reviewRun) scan(env *envelope.Envelope) error {
	r.fixChecks(env)
	r.redact(env)
	people, err := r.people(env)
	if err != nil {
		return err
	}
	who := envelope.Who{People: people, Labels: review.EngineLabels(r.cfg, r.st.Builder, r.panel())}
	if leaks := envelope.Scan(env, who, review.PromptParts(r.st.Lenses)...); len(leaks) > 0 {
		return withCode(ExitUsage, fmt.Errorf("refused before any call, nothing written: %w", &envelope.LeakError{Leaks: leaks}))
	}
	return nil
}

// people are the names and emails git knows of the change: of the range's
// commits, or for --files of the last envelope.MaxFileCommits commits that
// touched them and the git user about to commit them.
func (r *reviewRun) people(env *envelope.Envelope) ([]string, error) {
	if change, _ := r.change(); change != "" {
		got, err := envelope.Identities(r.st.Repo, change)
		if err != nil {
			return nil, usageErr("identities of %s: %v", change, err)
		}
		return got, nil
	}
	var files []string
	for _, f := range env.Files {
		if !f.Test && !f.Deleted {
			files = append(files, f.Path)
		}
	}
	got, err := envelope.IdentitiesOfFiles(r.st.Repo, files)
	if err != nil {
		return nil, usageErr("identities of --files: %v", err)
	}
	return got, nil
}

// panel lists the engines on the ladders of the review's lenses, once each.
func (r *reviewRun) panel() []string {
	var out []string
	for _, l := range r.st.Lenses {
		for _, n := range review.LadderOf(r.cfg, l.Name) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// redact replaces, in the envelope and the lens texts, every secret value
// of moot's environment (harness.SecretValues: the *_KEY, *TOKEN*,
// *SECRET*, *PASSWORD* variables and the engines' api_key_env) before any
// juror reads them or any file is written, and names in the plan where it
// found one.
func (r *reviewRun) redact(env *envelope.Envelope) {
	red := harness.NewRedactor(harness.SecretValues(nil)...)
	if red.Empty() {
		return
	}
	where := env.Redact(red.String)
	for i, l := range r.st.Lenses {
		if t := red.String(l.Text); t != l.Text {
			r.st.Lenses[i].Text = t
			where = append(where, "(lens "+l.Name+")")
		}
	}
	if len(where) > 0 {
		fmt.Fprintf(r.e.stderr, "moot: warning: %s hold(s) a secret value of your environment (a *_KEY, *TOKEN*, *SECRET*, *PASSWORD* variable): it is replaced by %s in the envelope, which is written and sent without it; remove it from the file\n",
			termsafe.Line(strings.Join(where, ", ")), harness.Redacted)
	}
}
