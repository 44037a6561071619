package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/internal/humantime"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/debate"
	"github.com/reversa/moot/protocol/review"
	"github.com/reversa/moot/protocol/tradeoff"
)

// protocols are the protocols moot runs, by the name --protocol takes.
var protocols = map[string]engine.Protocol{debate.Name: debate.Protocol{}, council.Name: council.Protocol{}, tradeoff.Name: tradeoff.Protocol{}, argue.Name: argue.Protocol{}}

// seatedKinds are the seated protocols' folders moot resumes: engine.Resume
// reopens a folder one of them owns (a review's), so moot resume has one
// entry whatever the folder is.
var seatedKinds = []engine.SeatedKind{review.Kind{}}

// protocolNames lists them, sorted, for messages and help.
func protocolNames() string {
	names := make([]string, 0, len(protocols))
	for n := range protocols {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// protocolList lists those that run on a bug, for the wizard: the default
// (debate) first, then the others by name (argue debates a question only:
// moot ask).
func protocolList() []engine.Protocol {
	out := []engine.Protocol{protocols[bugfolder.DefaultProtocol]}
	for _, n := range strings.Split(protocolNames(), ", ") {
		if n != bugfolder.DefaultProtocol && n != argue.Name {
			out = append(out, protocols[n])
		}
	}
	return out
}

// allProtocols are every protocol moot runs, the default first, then by
// name: what a debate on disk may run (the TUI's Known).
func allProtocols() []engine.Protocol {
	out := []engine.Protocol{protocols[bugfolder.DefaultProtocol]}
	for _, n := range strings.Split(protocolNames(), ", ") {
		if n != bugfolder.DefaultProtocol {
			out = append(out, protocols[n])
		}
	}
	return out
}

// bugProtocols names the protocols that run on a bug (protocolList's).
func bugProtocols() []string {
	var out []string
	for _, p := range protocolList() {
		out = append(out, p.Name())
	}
	return out
}

// pickProtocol is the protocol --protocol names (a usage error otherwise).
func pickProtocol(name string) (engine.Protocol, error) {
	if p, ok := protocols[strings.TrimSpace(name)]; ok {
		return p, nil
	}
	return nil, usageErr("--protocol %q: moot runs %s", name, protocolNames())
}

// protocolOf is the protocol of a debate on disk: the one problema.md
// names in its protocol field, and the debate protocol (docs/protocols/debate.md) when it names none
// (every debate moot wrote so far, and every hand-run one).
func protocolOf(d *bugfolder.Debate) (engine.Protocol, error) {
	if d.Problem == nil {
		return protocols[bugfolder.DefaultProtocol], nil
	}
	name := d.Problem.ProtocolName()
	if p, ok := protocols[name]; ok {
		return p, nil
	}
	return nil, &bugfolder.InputError{Path: d.Problem.Path, Field: "protocol", Msg: fmt.Sprintf("%q is not a protocol this moot runs (%s): resume it with a moot that runs it", name, protocolNames())}
}

// protocolFlags is which protocols take each protocol's own flag (docs/cli.md,
// "Protocols on run, plan and ask"): one table, checked by checkFlags for
// run, plan and ask alike, so a flag the chosen protocol does not use is
// exit 2 naming it and the protocols that take it, never silently
// ignored. A flag a command does not have (argue's on run and plan) is
// cobra's unknown flag.
var protocolFlags = []struct {
	flag      string
	protocols []string
}{
	{"lens", []string{debate.Name, council.Name}},
	{"critic", []string{debate.Name}},
	{"verify-judge", []string{debate.Name}},
	{"option-a", []string{tradeoff.Name}},
	{"option-b", []string{tradeoff.Name}},
	{"criteria", []string{council.Name, tradeoff.Name}},
	{"value-at-risk", []string{council.Name}},
	{"irreversible", []string{council.Name}},
	{"synthesizer", []string{council.Name, tradeoff.Name, argue.Name}},
	{"persona", []string{argue.Name}},
	{"style", []string{argue.Name}},
	{"questioner", []string{argue.Name}},
	{"defender", []string{argue.Name}},
	{"advocate", []string{argue.Name}},
	{"scorer", []string{argue.Name}},
}

// checkFlags refuses the protocol flags given that protocol does not take
// (docs/cli.md: exit 2, nothing written). The flags that share the first such
// flag's protocols are named together ("--option-a and --option-b apply
// to --protocol tradeoff"); explicit says whether --protocol was given,
// so a default protocol is named as such, with the first of the command's
// protocols (offered) that takes the flag.
func checkFlags(cmd *cobra.Command, protocol string, explicit bool, offered []string) error {
	var bad []string
	var takers []string
	for _, pf := range protocolFlags {
		f := cmd.Flags().Lookup(pf.flag)
		if f == nil || !f.Changed || slices.Contains(pf.protocols, protocol) {
			continue
		}
		if takers == nil {
			takers = pf.protocols
		}
		if slices.Equal(takers, pf.protocols) {
			bad = append(bad, "--"+pf.flag)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	verb := "applies"
	if len(bad) > 1 {
		verb = "apply"
	}
	this := protocol
	if i := slices.IndexFunc(takers, func(p string) bool { return slices.Contains(offered, p) }); !explicit && i >= 0 {
		this += " (the default; give --protocol " + takers[i] + " to use it)"
	} else if !explicit {
		this += " (the default)"
	}
	return usageErr("%s %s to --protocol %s, not %s; nothing was written", joinAnd(bad), verb, joinAnd(takers), this)
}

// joinAnd joins words as prose: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// timeoutFlags are the time limits run, plan, ask and resume take (those
// a command has): each, when given, must be a positive duration.
var timeoutFlags = []struct{ flag, example, without string }{
	{"timeout", "90s, 10m", "each engine's own limit, else 10m"},
	{"round-timeout", "2m", "no limit per round"},
	{"debate-timeout", "30m", "no limit for the run"},
}

// checkTimeouts refuses a time limit given as zero or negative, naming
// that flag (exit 2): leaving it out is how to have none.
func checkTimeouts(cmd *cobra.Command) error {
	for _, tf := range timeoutFlags {
		f := cmd.Flags().Lookup(tf.flag)
		if f == nil || !f.Changed {
			continue
		}
		if d, err := cmd.Flags().GetDuration(tf.flag); err == nil && d <= 0 {
			return usageErr("--%s %s: give a positive duration (e.g. %s), or leave --%s out for %s; nothing was written", tf.flag, humantime.Duration(d), tf.example, tf.flag, tf.without)
		}
	}
	return nil
}
