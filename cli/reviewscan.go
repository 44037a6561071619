package cli

import (
	"fmt"
	"slices"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/protocol/review"
)

// scan refuses (exit 2, before any call) a prompt that leaks identity:
// the envelope and every lens text the prompt adds to it, scanned in one
// pass for who wrote the change (git's authors, committers and trailers)
// and who built or judges it (the builder and the panel's engines: their
// names and model ids, review.EngineLabels).
func (r *reviewRun) scan(env *envelope.Envelope) error {
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
// touched them.
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
