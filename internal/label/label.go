// Package label names anonymized proposals in the UI's language, the same
// way in the command line and the TUI: "proposal B (agente-2)". Documents
// keep their own words ("Proposta B"); solver ids are file names and stay.
package label

import "strings"

// Letter is the letter of a label, full ("Proposta B", "Proposal B") or
// bare ("B"); "" when label is no proposal label (a solver id).
func Letter(label string) string {
	f := strings.Fields(label)
	if len(f) == 0 || len(f) > 2 {
		return ""
	}
	l := f[len(f)-1]
	if len(l) > 2 || strings.Trim(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return ""
	}
	return l
}

// Proposal names a proposal by its label: "proposal B"; "—" for none; a
// text that is no label (a solver id a hand-run judge named) as it is.
func Proposal(label string) string {
	if l := Letter(label); l != "" {
		return "proposal " + l
	}
	if strings.TrimSpace(label) == "" {
		return "—"
	}
	return label
}

// Winner names a winning proposal and the solver who wrote it, when known:
// "proposal B (agente-2)"; the solver alone when no label is recorded.
func Winner(label, solver string) string {
	switch {
	case Letter(label) == "" && solver != "":
		return solver
	case solver != "" && solver != label:
		return Proposal(label) + " (" + solver + ")"
	}
	return Proposal(label)
}

// Synthesis names a judge's outcome that is a synthesis of the proposals
// rather than one of them (a host's "Vencedora (Síntese da Convergência)").
const Synthesis = "a synthesis of the proposals, no single winner"

// Unread is what the winner is called when the judge's file names none
// that moot can read: the command line and the TUI say the same.
const Unread = "unknown: the judge's file names no winner moot can read"
