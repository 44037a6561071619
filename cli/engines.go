package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/internal/digits"
	"github.com/reversa/moot/internal/termsafe"
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
	Family        string         `json:"family,omitempty"`
	Price         *harness.Price `json:"price,omitempty"`
	Defaults      []string       `json:"defaults,omitempty"`
	// Probe is set with --probe.
	Probe *harness.ProbeResult `json:"probe,omitempty"`
}

func newEnginesCmd(e *env) *cobra.Command {
	var asJSON, probe, refresh bool
	var config string
	cmd := &cobra.Command{
		Use:   "engines [--probe [--refresh]] [--json]",
		Short: "List the configured engines; --probe checks each one",
		Long: `List the engines of the engines file (moot.yaml in the _reversa_bugs/ root,
then $XDG_CONFIG_HOME/moot/moot.yaml). Without a file: the built-in local
engine (OpenAI-compatible, Ollama's default address) and every vendor CLI
found on PATH (codex, claude, gemini, opencode, qwen).

--probe checks every engine without a model call: the tool's version, that
its non-interactive flags exist, its auth (the api_key_env variable is set;
else the vendor's key variable or stored credentials — codex login status,
claude auth status, opencode providers list; for HTTP engines a model-list
request), and its context window (unknown is a warning). A failed engine
says what to do. Results are cached for an hour in
$XDG_CACHE_HOME/moot/probe.json (failures for six minutes); --refresh probes
again. moot run and moot plan refuse an engine that failed its probe.

The engines file:

  engines:
    local:
      kind: openai                 # any OpenAI-compatible server (Ollama: num_ctx sized to fit)
      base_url: http://127.0.0.1:11434/v1
      model: qwen3:8b
    codex:
      kind: codex                  # the vendor CLI, non-interactive and read-only
      model: gpt-5.6-sol
      api_key_env: OPENAI_API_KEY  # the NAME of the variable, never the key
    mine:
      kind: command                # prompt on stdin, answer on stdout
      command: ["./my-llm", "--role", "{role}"]
      external: false
  defaults: {solver: local, judge: local}

Kinds: command, codex, claude, gemini, opencode, qwen, openai, anthropic,
replay. Fields: kind (required), model, base_url (the endpoint the CLI or
client calls), api_key_env, timeout, context_tokens, max_output_tokens,
price {input_per_mtok, output_per_mtok, and the prompt cache's
cache_read_per_mtok, cache_write_per_mtok}, external, project_access (none, or
read-only for codex, whose OS sandbox makes it verifiable), parallel, env,
env_passthrough (command only), command, cassette, family (the vendor:
anthropic, openai, google, alibaba…; else from the kind or the model's
name, unknown for a bare command). Context windows, output sizes and prices
not given come from charm.land/catwalk's model data. At the top of the file,
budget: {max_usd: 2.50, max_tokens: 400000} caps every debate's spend
(--max-usd and --max-tokens override it; see moot help run).

moot review seats each lens's juror from a ladder of engines:

  review:
    ladders:
      security: [claude, codex, local]   # this lens's own ladder, tried in order
      default: [codex, claude, local]    # every other lens

Without review: every engine of the file (replays aside), external before
local, the larger known context window first, then the file's order.

Vendor CLIs run in a private folder holding a copy of P, with their own HOME
and TMPDIR and a minimal environment (PATH, locale, proxies, their key);
stored credentials (codex, claude, gemini, qwen, opencode logins) are copied
in when no api_key_env is named. command engines get a minimal environment
too (PATH, locale, proxies, certificates, HOME, USER, SHELL, TMPDIR, TERM,
their api_key_env, the MOOT_* variables and their env:); env_passthrough:
[NAME, "PREFIX*"] widens it. Every variable whose name looks secret (*KEY*,
*TOKEN*, *SECRET*, *PASSWORD*, *CREDENTIAL*, *_PAT, cloud credentials) and
every engine's api_key_env is redacted: secrets never reach raw output,
logs or the screen.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, _ := findRegister(e) // engines can be listed outside a register
			cfg, err := loadConfig(config, reg)
			var ue *untrustedError
			if errors.As(err, &ue) && !probe {
				// listing runs nothing: show the file, and say it needs trust
				fmt.Fprintf(e.stderr, "moot: warning: %s\n", termsafe.Text(ue.Error()))
				err = nil
			}
			if err != nil {
				return err
			}
			var probes []harness.ProbeResult
			if probe {
				ctx, cancel := signalContext()
				defer cancel()
				if !asJSON && isTerminal(e.stderr) {
					fmt.Fprintln(e.stderr, "probing engines…")
				}
				probes = harness.ProbeEngines(ctx, cfg, cfg.Order, harnessOptions(cfg, reg), harness.DefaultProbeCache(), refresh)
			}
			var out []engineJSON
			for i, name := range cfg.Order {
				ec := cfg.Engines[name]
				lim := harness.LimitsOf(ec)
				j := engineJSON{Name: name, Kind: string(ec.Kind), Model: ec.Model, BaseURL: ec.BaseURL, APIKeyEnv: ec.APIKeyEnv,
					External: ec.External, ProjectAccess: ec.ProjectAccess, ContextTokens: lim.ContextTokens, Family: ec.Family(), Price: lim.Price}
				if ec.Timeout > 0 {
					j.Timeout = ec.Timeout.String()
				}
				if cfg.Defaults.Solver == name {
					j.Defaults = append(j.Defaults, "solver")
				}
				if cfg.Defaults.Judge == name {
					j.Defaults = append(j.Defaults, "judge")
				}
				if probes != nil {
					j.Probe = &probes[i]
					if j.ContextTokens == 0 {
						j.ContextTokens = probes[i].ContextTokens
					}
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
			if probes != nil {
				return printProbes(e, out)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tKIND\tMODEL\tFAMILY\tEXTERNAL\tTIMEOUT\tCONTEXT\tDEFAULT FOR")
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
					ctx = digits.Grouped(j.ContextTokens)
				}
				def := "—"
				if len(j.Defaults) > 0 {
					def = strings.Join(j.Defaults, ", ")
				}
				fam := j.Family // the judge family rule's word: unknown never clashes
				if fam == "" {
					fam = "unknown"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", j.Name, j.Kind, termsafe.Line(orDash(j.Model)), fam, ext, to, ctx, def)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	cmd.Flags().BoolVar(&probe, "probe", false, "check each engine: version, non-interactive mode, auth, context window")
	cmd.Flags().BoolVar(&refresh, "refresh", false, "with --probe: ignore cached results")
	cmd.Flags().StringVar(&config, "config", "", "engines file")
	return cmd
}

// printProbes writes the probe table, then what failed and what to do.
func printProbes(e *env, out []engineJSON) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tSTATUS\tVERSION\tAUTH\tCONTEXT")
	failed := 0
	for _, j := range out {
		p := j.Probe
		status := "ok"
		if !p.OK {
			status = "FAILED"
			failed++
		} else if len(p.Warnings) > 0 {
			status = "ok (warning)"
		}
		if p.Cached {
			status += " ·cached"
		}
		ctx := "?"
		if j.ContextTokens > 0 {
			ctx = digits.Grouped(j.ContextTokens)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", j.Name, j.Kind, status, termsafe.Line(orDash(p.Version)), termsafe.Line(orDash(p.Auth)), ctx)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, j := range out {
		for _, x := range j.Probe.Problems {
			fmt.Fprintf(e.stdout, "\n✗ %s: %s", j.Name, termsafe.Text(x))
		}
		for _, x := range j.Probe.Warnings {
			fmt.Fprintf(e.stdout, "\n! %s: %s", j.Name, termsafe.Text(x))
		}
	}
	if failed > 0 {
		fmt.Fprintf(e.stdout, "\n\n%d of %d engines failed their probe; moot run refuses them until fixed (then: moot engines --probe --refresh).\n", failed, len(out))
	} else {
		fmt.Fprintln(e.stdout)
	}
	return nil
}
