package cli

import (
	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
)

// runTUI runs a debate in the terminal UI.
func runTUI(e *env, reg *bugfolder.Register, bug *bugfolder.Bug, cfg *harness.Config, s engine.Setup, sf setupFlags, cmd *cobra.Command) error {
	return usageErr("the terminal UI is not part of this build yet: pass --headless")
}

// resumeTUI resumes a debate in the terminal UI.
func resumeTUI(e *env, reg *bugfolder.Register, bug *bugfolder.Bug, cfg *harness.Config, pol *engine.Policies) error {
	return usageErr("the terminal UI is not part of this build yet: pass --headless")
}
