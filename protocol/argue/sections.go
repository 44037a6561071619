package argue

import (
	"github.com/reversa/moot/protocol/sections"
)

// heading is one required section (the shared checker's).
type heading = sections.Heading

// checkSections, match and t are the shared checker's.
var (
	checkSections = sections.Check
	match         = sections.Match
	t             = sections.T
)
