package cli

import (
	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
)

// reviewElapsed is how long a review ran, in seconds, counted as a
// debate's elapsed time is (bugfolder.SessionsTotal over its event log);
// nil when its log records no time.
func reviewElapsed(evs []engine.Event) *float64 {
	for _, ev := range evs {
		if !ev.Time.IsZero() {
			return ptr(bugfolder.SessionsTotal(evs).Seconds())
		}
	}
	return nil
}
