package bugfolder

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
)

// ProblemIntact reports whether the P of a problema.md file (the text
// after its "## P" heading, as RenderProblem writes it) still has the
// sha256 its own front matter records (p_sha256), so a changed P is
// caught even without the event log. A file without p_sha256 or without
// the heading (written by hand) is not checked.
func ProblemIntact(pf *ProblemFile, raw []byte) bool {
	if pf.PSHA256 == "" {
		return true
	}
	text := []byte(NormalizeText(raw))
	i := bytes.Index(text, []byte("\n"+SecProblem.Heading(PT)+"\n\n"))
	if i < 0 {
		return true
	}
	p := text[i+len(SecProblem.Heading(PT))+3:]
	sum := sha256.Sum256(p)
	return hex.EncodeToString(sum[:]) == pf.PSHA256
}
