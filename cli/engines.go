package cli

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/harness"
)

// engineJSON is one engine in `moot engines --json`.
type engineJSON struct {
	Name          string         `json:"name"`
	Kind          string         `json:"kind"`
	Model         string         `json:"model,omitempty"`
	BaseURL       string         `json:"base_url,omitempty"`
	APIKeyEnv     string         `json:"api_key_env,omitempty"`
	External      bool           `json:"external"`
	ProjectAccess string         `json:"project_access"`
	Timeout       string         `json:"timeout,omitempty"`
	ContextTokens int            `json:"context_tokens,omitempty"`
	Price         *harness.Price `json:"price,omitempty"`
	Defaults      []string       `json:"defaults,omitempty"`
}

func newEnginesCmd(e *env) *cobra.Command {
	var asJSON bool
	var config string
	cmd := &cobra.Command{
		Use:   "engines [--json]",
		Short: "List the configured engines",
		Long: `List the engines of the engines file (moot.yaml in the _reversa_bugs/ root,
then $XDG_CONFIG_HOME/moot/moot.yaml), or the built-in local engine when there
is no file.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, _ := findRegister(e) // engines can be listed outside a register
			cfg, err := loadConfig(config, reg)
			if err != nil {
				return err
			}
			var out []engineJSON
			for _, name := range cfg.Order {
				ec := cfg.Engines[name]
				lim := harness.LimitsOf(ec)
				j := engineJSON{Name: name, Kind: string(ec.Kind), Model: ec.Model, BaseURL: ec.BaseURL, APIKeyEnv: ec.APIKeyEnv,
					External: ec.External, ProjectAccess: ec.ProjectAccess, ContextTokens: lim.ContextTokens, Price: lim.Price}
				if ec.Timeout > 0 {
					j.Timeout = ec.Timeout.String()
				}
				if cfg.Defaults.Solver == name {
					j.Defaults = append(j.Defaults, "solver")
				}
				if cfg.Defaults.Judge == name {
					j.Defaults = append(j.Defaults, "judge")
				}
				out = append(out, j)
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			}
			src := cfg.Path
			if src == "" {
				src = "built-in (no engines file found)"
			}
			fmt.Fprintf(e.stdout, "Engines from %s\n\n", src)
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tKIND\tMODEL\tEXTERNAL\tTIMEOUT\tCONTEXT\tDEFAULT FOR")
			for _, j := range out {
				ext := "no"
				if j.External {
					ext = "yes"
				}
				to := j.Timeout
				if to == "" {
					to = "(" + (10 * time.Minute).String() + ")"
				}
				ctx := "?"
				if j.ContextTokens > 0 {
					ctx = thousands(j.ContextTokens)
				}
				def := "—"
				if len(j.Defaults) > 0 {
					def = fmt.Sprint(j.Defaults)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", j.Name, j.Kind, orDash(j.Model), ext, to, ctx, def)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	cmd.Flags().StringVar(&config, "config", "", "engines file")
	return cmd
}
