package cli

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/harness"
	"github.com/reversa/moot/persona"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/debate"
)

// Assets holds what moot demo needs — testdata/sample,
// testdata/demo/cassette.yaml (the debate) and
// testdata/demo/council-cassette.yaml (the council) — embedded in the
// binary by main.
var Assets fs.FS

// demoEngines is the engines file of the demo's copy of the register.
const demoEngines = `# moot demo: the replay engine plays a recorded debate with its timings.
engines:
  demo:
    kind: replay
    cassette: demo-cassette.yaml
    timeout: 9s
    context_tokens: 128000
    price: {input_per_mtok: 0.15, output_per_mtok: 0.60}
defaults:
  solver: demo
  judge: demo
`

// extractDemo copies the sample register and the cassette (a file of
// testdata/demo/) into a fresh temporary folder and returns it.
func extractDemo(cassette string) (string, error) {
	if Assets == nil {
		return "", fmt.Errorf("this build has no demo assets")
	}
	dir, err := os.MkdirTemp("", "moot-demo-")
	if err != nil {
		return "", fmt.Errorf("create a folder for the demo: %w", err)
	}
	sample, err := fs.Sub(Assets, "testdata/sample")
	if err != nil {
		return "", err
	}
	err = fs.WalkDir(sample, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(out, 0o700)
		}
		b, err := fs.ReadFile(sample, p)
		if err != nil {
			return err
		}
		perm := os.FileMode(0o600)
		if bytes.HasPrefix(b, []byte("#!")) {
			perm = 0o700 // the sample's scripted engine (embedding drops the exec bit)
		}
		return os.WriteFile(out, b, perm)
	})
	if err != nil {
		return "", fmt.Errorf("copy the sample register: %w", err)
	}
	cas, err := fs.ReadFile(Assets, "testdata/demo/"+cassette)
	if err != nil {
		return "", err
	}
	root := filepath.Join(dir, bugfolder.RootName)
	if err := os.WriteFile(filepath.Join(root, "demo-cassette.yaml"), cas, 0o600); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(root, "moot.yaml"), []byte(demoEngines), 0o600); err != nil {
		return "", err
	}
	return dir, nil
}

// demoSetup is the recorded run of a protocol: the debate (docs/protocols/debate.md, N=3,
// R=2, diagnosis) or the council (docs/protocols/council.md: security, performance and
// data-integrity, R=1, repair), and the cassette that plays it.
func demoSetup(protocol string, reg *bugfolder.Register, bug *bugfolder.Bug, cfg *harness.Config) (engine.Setup, error) {
	s := engine.Setup{Protocol: protocols[debate.Name], Bug: bug, Lang: reg.Lang, Mode: bugfolder.Diagnosis, N: 3, R: 2,
		Solvers: []string{"demo", "demo", "demo"}, Judge: "demo", Parallel: 3}
	if protocol != council.Name {
		return s, nil
	}
	s.Protocol, s.Mode, s.R = protocols[council.Name], bugfolder.Repair, 1
	cat, err := loadLenses(reg, cfg)
	if err != nil {
		return s, err
	}
	for _, name := range []string{"security", "performance", "data-integrity"} {
		l, err := cat.Resolve(name)
		if err != nil {
			return s, err
		}
		s.Lenses = append(s.Lenses, l)
	}
	// the council's packet, as moot run builds it: with it the setup is
	// whole and the demo opens on the cost screen, as the debate's does
	p, err := bugfolder.AssembleP(bug)
	if err != nil {
		return s, err
	}
	s.Problem = council.Protocol{}.Pack(s, p, nil)
	return s, nil
}

// demoCassettes are the recordings moot demo plays, by protocol.
var demoCassettes = map[string]string{debate.Name: "cassette.yaml", council.Name: "council-cassette.yaml"}

func newDemoCmd(e *env) *cobra.Command {
	var headless bool
	var protocol string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "A recorded debate, replayed in the TUI (no model, no network)",
		Long: `Copy the bundled sample register to a fresh temporary folder (it says where)
and run a debate on its bug BUG-20260715-A7K3 — N=3 solvers, R=2 rounds —
with the replay engine playing a recorded debate with its timings. Round 1
loses its quorum (one solver times out, one answers without the protocol's
sections), so the quorum menu appears; continuing runs it to the final
synthesis, which says it is degraded. Works from any folder with only the
binary.

With --protocol council it plays a recorded council (docs/protocols/council.md) on the same
bug instead: three members (security, performance, data-integrity), one
cross-rebuttal round and the synthesizer; the members disagree as often as
they agree, so the result is flagged escalate and waits for a human decision
(moot decide, in the printed folder).

With --headless (or without a terminal) the quorum menu is answered
"continue" and progress is printed instead.

--protocol argue plays a recorded argue (docs/protocols/argue.md) instead, headless: two
personas (pragmatist and skeptic) over "Should checkout cache coupon
lookups?", a round cap of 3; the scorer rates each round, the confidences
settle and the debate stops on convergence after round 2; the synthesizer
writes the eight sections. It prints where the question's folder is.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if protocol == argue.Name {
				return demoArgue(e)
			}
			cassette, ok := demoCassettes[protocol]
			if !ok {
				return usageErr("--protocol %q: moot demo plays debate, council or argue", protocol)
			}
			dir, err := extractDemo(cassette)
			if err != nil {
				return withCode(ExitInternal, err)
			}
			fmt.Fprintf(e.stdout, "moot demo: a recorded %s on a copy of the sample register in %s (its dollars are the recording's prices: nothing is charged)\n", protocol, dir)
			reg, bug, err := bugfolder.Resolve(dir, "BUG-20260715-A7K3")
			if err != nil {
				return withCode(ExitInternal, err)
			}
			cfg, err := harness.LoadConfig(filepath.Join(reg.Root, "moot.yaml"))
			if err != nil {
				return withCode(ExitInternal, err)
			}
			s, err := demoSetup(protocol, reg, bug, cfg)
			if err != nil {
				return withCode(ExitInternal, err)
			}
			if headless || !isTerminal(e.stdout) || !isTerminal(e.stdin) {
				pr := newProgress(e, reg, false, s.Protocol)
				res, err := engine.Start(context.Background(), s, engine.Options{
					Protocol: s.Protocol, Config: cfg, Harness: harnessOptions(cfg, reg), Supervisor: &engine.Policies{OnQuorumLoss: "continue"},
					Sink: pr.sink, Command: "moot demo", Version: version(),
				})
				defer fmt.Fprintf(e.stdout, "moot demo: its copy stays in %s; remove it with: rm -rf %s\n", dir, dir)
				return exitFor(e, reg, res, err)
			}
			opts := tuiOptions(e, reg, cfg)
			opts.Untrusted = nil // moot made this copy itself: nothing to trust
			opts.Bug, opts.Setup = bug, s
			// its money is the recording's prices: nothing is charged
			opts.Banner = "moot demo · recorded " + protocol + ": no model, no network, no charge · " + dir
			err = runProgram(e, reg, opts)
			fmt.Fprintf(e.stdout, "moot demo: its copy stays in %s; remove it with: rm -rf %s\n", dir, dir)
			return err
		},
	}
	cmd.Flags().BoolVar(&headless, "headless", false, "no TUI: print progress, answer the quorum menu with continue")
	cmd.Flags().StringVar(&protocol, "protocol", debate.Name, "the recording to play: debate (docs/protocols/debate.md), council (docs/protocols/council.md) or argue (docs/protocols/argue.md, headless)")
	return cmd
}

// demoQuestion is the recorded argue's question.
const demoQuestion = "Should checkout cache coupon lookups?"

// demoArgue plays the recorded argue over a question of the sample's copy,
// headless, and says where its files are.
func demoArgue(e *env) error {
	dir, err := extractDemo("argue-cassette.yaml")
	if err != nil {
		return withCode(ExitInternal, err)
	}
	fmt.Fprintf(e.stdout, "moot demo: a recorded argue (replay engine: no model, no network) on a copy of the sample register in %s\n", dir)
	reg, _, err := bugfolder.Resolve(dir, "BUG-20260715-A7K3")
	if err != nil {
		return withCode(ExitInternal, err)
	}
	cfg, err := harness.LoadConfig(filepath.Join(reg.Root, "moot.yaml"))
	if err != nil {
		return withCode(ExitInternal, err)
	}
	_, qdir := bugfolder.NewQuestionDir(dir, demoQuestion, time.Now())
	if err := os.MkdirAll(filepath.Dir(qdir), 0o700); err != nil {
		return withCode(ExitInternal, fmt.Errorf("create %s: %w", filepath.Dir(qdir), err))
	}
	bug := bugfolder.QuestionBug(dir, qdir, nil)
	bug.Register, bug.Title = &bugfolder.Register{Root: reg.Root, Project: dir, Lang: bugfolder.EN}, demoQuestion
	p, err := bugfolder.AssembleQuestionP(dir, demoQuestion, nil, bugfolder.EN)
	if err != nil {
		return withCode(ExitInternal, err)
	}
	af := argueFlags{}
	var lenses []bugfolder.Lens
	for i, name := range []string{"pragmatist", "skeptic"} {
		pe, err := persona.Load("")
		if err != nil {
			return withCode(ExitInternal, err)
		}
		pp, err := pe.Get(name)
		if err != nil {
			return withCode(ExitInternal, err)
		}
		lenses = append(lenses, pp.Lens(af.part(argue.Adversarial, name, i, 2)))
	}
	s := engine.Setup{Protocol: protocols[argue.Name], Bug: bug, Lang: bugfolder.EN, N: 2, R: 3, Question: demoQuestion, Problem: p,
		Solvers: []string{"demo", "demo"}, Critics: []string{"demo"}, Judge: "demo", Parallel: 2, Lenses: lenses}
	pr := newProgress(e, reg, false, s.Protocol)
	pr.bugDir = qdir
	res, err := engine.Start(context.Background(), s, engine.Options{
		Protocol: s.Protocol, Config: cfg, Harness: harnessOptions(cfg, reg), Supervisor: &engine.Policies{OnQuorumLoss: "continue"},
		Sink: pr.sink, Command: "moot demo", Version: version(), ResumeTarget: bug.ID,
	})
	if err == nil && res != nil && res.Outcome == engine.OutcomeDone {
		fmt.Fprintf(e.stdout, "written: %s (resposta-final.md, transcript.md, scoring/, personas/)\n", qdir)
	}
	fmt.Fprintf(e.stdout, "moot demo: its copy stays in %s; remove it with: rm -rf %s\n", dir, dir)
	return exitFor(e, reg, res, err)
}
