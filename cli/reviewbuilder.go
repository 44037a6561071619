package cli

import (
	"fmt"
	"strings"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/termsafe"
	"github.com/reversa/moot/protocol/review"
)

// resolveBuilder settles who built the change before anything is called
// (review.ResolveBuilder: --builder, the change's trailers, the engines
// file's review.builder), records it and says where it came from; with
// none, exit 2 and nothing written. A --builder whose family the change's
// own trailers contradict is taken, with a warning (builderContradiction).
func (r *reviewRun) resolveBuilder() error {
	var trailers []string
	if change, _ := r.change(); change != "" {
		got, err := envelope.BuilderTrailers(r.st.Repo, change)
		if err != nil && r.f.builder == "" {
			return usageErr("%v; nothing was called or written", err)
		}
		trailers = got
	}
	flagOnly := trailers
	if r.f.builder != "" {
		flagOnly = nil // --builder decides; the trailers are only checked against it
	}
	name, src, err := review.ResolveBuilder(review.BuilderInput{Config: r.cfg, Flag: r.f.builder, Trailers: flagOnly})
	if err != nil {
		return usageErr("%v; nothing was called or written", err)
	}
	r.st.Builder = name
	if review.BuilderUnknown(r.st) {
		r.st.BuilderFamily = ""
		fmt.Fprintf(r.e.stderr, "moot: warning: %s; the gate will be labelled weakened\n", review.UnknownBuilderNote)
		return nil
	}
	r.st.BuilderFamily = review.BuilderFamily(r.cfg, name)
	r.st.BuilderEngine = review.BuilderEngine(r.cfg, name)
	r.st.BuilderFamilyUnknown = review.BuilderIsEngineOfUnknownFamily(r.cfg, name)
	if src != review.FromFlag {
		fmt.Fprintf(r.e.stderr, "moot: builder %s, from %s\n", name, src)
	}
	if w := r.builderContradiction(trailers); w != "" {
		fmt.Fprintf(r.e.stderr, "moot: warning: %s\n", termsafe.Line(w))
		r.warnings = append(r.warnings, w)
	}
	return nil
}

// builderContradiction is the warning when --builder names one family
// and the change's commit trailers (Model:, Co-authored-by: …) name
// another ("" when they agree or name none): --builder is taken, for the
// builder may write its own trailers, but the user should know.
func (r *reviewRun) builderContradiction(trailers []string) string {
	if r.f.builder == "" || len(trailers) == 0 {
		return ""
	}
	named, _ := review.TrailerBuilders(r.cfg, trailers)
	var other []string
	for _, n := range named {
		if f := review.BuilderFamily(r.cfg, n); !engine.SameFamily(f, r.st.BuilderFamily) {
			other = append(other, fmt.Sprintf("%s (family %s)", n, f))
		}
	}
	if len(other) == 0 {
		return ""
	}
	return fmt.Sprintf("--builder %s (family %s), but the change's commit trailers name %s: --builder is taken and only its family is excluded; if the trailers are right, review again with --builder naming that builder",
		r.st.Builder, r.st.BuilderFamily, strings.Join(other, ", "))
}
