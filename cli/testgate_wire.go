//go:build wiretestgate

// Remove the build line above when internal/testgate (r16a) is merged:
// this file then plugs moot's test gate into moot review (--test-cmd,
// --red), and README's "This build has no test gate yet" sentence goes.

package cli

import (
	"context"

	"github.com/reversa/moot/bugfolder/envelope"
	"github.com/reversa/moot/internal/testgate"
)

func init() {
	runTestGate = func(ctx context.Context, o TestGateOptions) ([]envelope.TestCheck, error) {
		return testgate.Run(ctx, testgate.Options(o))
	}
}
