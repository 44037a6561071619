package cli

import (
	"fmt"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/protocol/review"
)

// resolveBuilder settles who built the change before anything is called
// (review.ResolveBuilder: --builder, the change's trailers, the engines
// file's review.builder), records it and says where it came from; with
// none, exit 2 and nothing written.
func (r *reviewRun) resolveBuilder() error {
	var trailers []string
	if change, _ := r.change(); change != "" && r.f.builder == "" {
		got, err := envelope.BuilderTrailers(r.st.Repo, change)
		if err != nil {
			return usageErr("%v; nothing was called or written", err)
		}
		trailers = got
	}
	name, src, err := review.ResolveBuilder(review.BuilderInput{Config: r.cfg, Flag: r.f.builder, Trailers: trailers})
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
	if src != review.FromFlag {
		fmt.Fprintf(r.e.stderr, "moot: builder %s, from %s\n", name, src)
	}
	return nil
}
