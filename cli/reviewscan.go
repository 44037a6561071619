package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/protocol/review"
)

// scan refuses (exit 2, before any call) a prompt that leaks identity:
// the envelope and every lens text the prompt adds to it, scanned in one
// pass for who wrote the change (git's authors, committers and trailers)
// and who built or judges it (the builder and the panel's engines: their
// names and model ids, engineLabels).
func (r *reviewRun) scan(env *envelope.Envelope) error {
	people, err := r.people(env)
	if err != nil {
		return err
	}
	who := envelope.Who{People: people, Labels: engineLabels(r.cfg, r.st.Builder, r.panel())}
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

// engineLabels are the engine names and model ids a juror must not read:
// the builder (an engine: its name and model; a model's name; a bare
// family is no label) and every engine of the panel (its name and model).
// An engine's name that is a plain word (plainEngineName) is left out:
// code says "local" and "openai" without naming anyone.
func engineLabels(cfg *harness.Config, builder string, panel []string) []string {
	var out []string
	engine := func(n string) {
		if !plainEngineName(n) {
			out = append(out, n)
		}
		if ec := cfg.Engines[n]; ec != nil && ec.Model != "" {
			out = append(out, ec.Model)
		}
	}
	switch b := strings.TrimSpace(builder); {
	case b == "":
	case cfg.Engines[b] != nil:
		engine(b)
	case harness.ModelFamily(b) != "" && !strings.EqualFold(harness.ModelFamily(b), b):
		out = append(out, b) // a model's name, not a bare family
	}
	for _, n := range panel {
		engine(n)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// commonEngineWords are the words people name engines by their role or
// place: ordinary words of code and prose, so no sign of who built it.
var commonEngineWords = map[string]bool{
	"local": true, "remote": true, "default": true, "main": true, "primary": true, "secondary": true,
	"backup": true, "fallback": true, "fast": true, "slow": true, "cheap": true, "small": true,
	"medium": true, "large": true, "mini": true, "test": true, "mock": true, "fake": true,
	"model": true, "engine": true, "judge": true, "juror": true, "review": true, "reviewer": true,
	"builder": true, "strong": true, "weak": true, "best": true, "free": true, "cloud": true,
	"home": true, "work": true, "mine": true, "server": true, "api": true, "chat": true,
}

// plainEngineName says whether an engine's name is no sign of who built
// the change, and so not scanned for: a plain word of the trade
// (commonEngineWords, a review lens's name: lens texts are scanned too),
// a kind ("claude", "command"), a family
// ("openai") or a model family's word ("gpt5", "llama3": vendors' words
// code mentions). The scan itself leaves out a label of fewer than four
// letters and digits ("loc").
func plainEngineName(n string) bool {
	l := strings.ToLower(strings.TrimSpace(n))
	return commonEngineWords[l] || slices.Contains(review.DefaultLenses, l) || slices.Contains(harness.Kinds, harness.Kind(l)) ||
		slices.Contains(harness.KnownFamilies(), l) || harness.ModelFamily(l) != ""
}
