package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reversa/moot/bugfolder"
	"github.com/reversa/moot/engine"
	"github.com/reversa/moot/protocol/argue"
	"github.com/reversa/moot/protocol/council"
	"github.com/reversa/moot/protocol/debate"
	"github.com/reversa/moot/protocol/tradeoff"
)

// protocols are the protocols moot runs, by the name --protocol takes.
var protocols = map[string]engine.Protocol{debate.Name: debate.Protocol{}, council.Name: council.Protocol{}, tradeoff.Name: tradeoff.Protocol{}, argue.Name: argue.Protocol{}}

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

// pickProtocol is the protocol --protocol names (a usage error otherwise).
func pickProtocol(name string) (engine.Protocol, error) {
	if p, ok := protocols[strings.TrimSpace(name)]; ok {
		return p, nil
	}
	return nil, usageErr("--protocol %q: moot runs %s", name, protocolNames())
}

// protocolOf is the protocol of a debate on disk: the one problema.md
// names in its protocol field, and seed 000's debate when it names none
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
