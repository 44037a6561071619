package cli

import (
	"fmt"
	"strings"

	"github.com/reversa/moot/protocol/review"
)

// announceRules prints, with the plan and before any call, what the
// tribunal's rules make of the routes: the lenses whose ladder has no
// local survival rung to fall back on.
func (r *reviewRun) announceRules(routes []review.Route) {
	if none := review.NoSurvival(routes); len(none) > 0 {
		fmt.Fprintf(r.e.stderr, "moot: warning: no local survival rung: %s (no local engine may sit on these ladders: when every cloud rung fails, the lens holds; add a local engine, external: false, to the engines file)\n", strings.Join(none, ", "))
	}
}
