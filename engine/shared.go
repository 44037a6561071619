package engine

import "strings"

// SharedEnd ends the block every prompt of a run begins with: P under its
// protocol's title (and whatever else every call of the run reads the
// same), byte for byte the same in every call, so a provider's prompt
// cache serves it after the first call (docs/engines.md#prompt-caching).
// What follows it is the call's own: its role's instructions, its lens or
// persona, the snapshot in its reading order.
const SharedEnd = "\n----- end of the shared part: what follows is this call's own -----\n\n"

// WriteShared writes the shared block a prompt begins with: the protocol's
// title for P (its own line, in the run's language), P as WriteP writes
// it, and SharedEnd. Nothing that differs between the calls of a run (an
// id, a round, a lens, a nonce, an order) may go into it.
func WriteShared(w *strings.Builder, title, p string, after int) {
	w.WriteString(title)
	WriteP(w, p, after)
	w.WriteString(SharedEnd)
}

// SharedPrefix is the length in bytes of a prompt's shared block, ending
// with SharedEnd (0 when the prompt has none), given in the pieces the
// runner renders it in (P at the odd indexes, never searched: when P
// itself holds the marker, the block ends at P's end the same in every
// call) or as one piece.
func SharedPrefix(parts []string) int {
	n := 0
	for i, s := range parts {
		if i%2 == 0 {
			if j := strings.Index(s, SharedEnd); j >= 0 {
				return n + j + len(SharedEnd)
			}
		}
		n += len(s)
	}
	return 0
}
