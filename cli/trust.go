package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/termsafe"
)

func newTrustCmd(e *env) *cobra.Command {
	var revoke bool
	var config string
	cmd := &cobra.Command{
		Use:   "trust [--revoke]",
		Short: "Trust the project's engines file (its sha256 is remembered)",
		Long: `A project's engines file (_reversa_bugs/moot.yaml, or any engines file
inside the project) came with the repository: moot does not let it run
commands, send calls to another endpoint (base_url; on this machine too
when a key or login would go with them), read a key from an environment
variable (api_key_env), set a child's environment (env, env_passthrough)
or set its own prices until you trust it; its budget: never loosens your
own engines file's caps (see docs/security.md). moot trust prints
what the file would be allowed to do, then remembers its sha256 in
$XDG_CONFIG_HOME/moot/trusted.json, with the sha256 of every program
inside the project its command engines run; a changed file or program
needs trust again. What those programs source, import or read (a
tools/lib.sh, a module) is not hashed: a change there runs without
asking again.
--revoke forgets it. Your own engines file ($XDG_CONFIG_HOME/moot/moot.yaml)
is always trusted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, err := findRegister(e)
			if err != nil {
				return err
			}
			path := harness.FindConfig(config, reg.Root)
			if path == "" || !projectFile(reg, path) {
				return &bugfolder.InputError{Path: reg.Root, Msg: "has no engines file of the project (moot.yaml) to trust; your own engines file is trusted already"}
			}
			store := harness.DefaultTrustStore()
			if revoke {
				was, err := store.Revoke(path)
				if err != nil {
					return err
				}
				if was {
					fmt.Fprintf(e.stdout, "%s is no longer trusted\n", reg.Rel(absPath(path)))
				} else {
					fmt.Fprintf(e.stdout, "%s was not trusted\n", reg.Rel(absPath(path)))
				}
				return nil
			}
			cfg, err := harness.LoadConfig(path)
			if err != nil {
				return err
			}
			if err := store.Trust(path, harness.TrustSum(cfg, reg.Project)); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "trusted %s (sha256 %s)\n", reg.Rel(absPath(path)), cfg.SHA256)
			for _, r := range harness.TrustReasons(cfg, reg.Project) {
				fmt.Fprintf(e.stdout, "  - %s\n", termsafe.Line(r))
			}
			fmt.Fprintln(e.stdout, "not covered: files those programs source, import or read are not hashed; a change to them runs without asking again (docs/security.md)")
			return nil
		},
	}
	cmd.Flags().BoolVar(&revoke, "revoke", false, "forget the trust given to the project's engines file")
	cmd.Flags().StringVar(&config, "config", "", "the engines file to trust (default: moot.yaml in the _reversa_bugs/ root)")
	return cmd
}
