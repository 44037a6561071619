package engine

import (
	"testing"

	"github.com/reversa/moot/bugfolder"
)

// TestDegradedLineSpeaksTheProtocol: seed 000's debate keeps its degraded
// line byte for byte (a contract); a named protocol says it with its own
// members, in Portuguese and in English.
func TestDegradedLineSpeaksTheProtocol(t *testing.T) {
	council := Inputs{Named: true, Members: "members", MembersPT: "membros"}
	for _, tc := range []struct {
		in   Inputs
		lang bugfolder.Lang
		want string
	}{
		{Describe(nil), bugfolder.PT, "> Debate degradado: 1 de 2 debatedores participaram.\n\n"},
		{Describe(nil), bugfolder.EN, "> Degraded debate: 1 of 2 debaters took part.\n\n"},
		{council, bugfolder.PT, "> Degradado: 1 de 2 membros participaram.\n\n"},
		{council, bugfolder.EN, "> Degraded: 1 of 2 members took part.\n\n"},
	} {
		if got := degradedLine(tc.lang, tc.in, 1, 2); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.in.Members, tc.lang, got, tc.want)
		}
	}
}
