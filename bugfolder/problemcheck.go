package bugfolder

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"github.com/reversa/moot/internal/lazyre"
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

// setupLine is problema.md's own digest line in its front matter.
var setupLine = lazyre.New(`(?m)^setup_sha256: ([0-9a-f]{64})\n`)

// SetupIntact reports whether a problema.md file still has the digest its
// front matter records over everything else in it (setup_sha256: mode,
// rounds, engines, rubric, P), so any edit of the locked setup is caught
// even without the event log. A file without setup_sha256 (written before
// it existed, or by hand) is not checked.
func SetupIntact(raw []byte) bool {
	text := []byte(NormalizeText(raw))
	fm := frontMatterBlock(text)
	m := setupLine.FindSubmatchIndex(fm)
	if m == nil {
		return true
	}
	// the block is a prefix of text after its first line
	start := bytes.IndexByte(text, '\n') + 1
	unsealed := append(append([]byte{}, text[:start+m[0]]...), text[start+m[1]:]...)
	return sha256Hex(unsealed) == string(fm[m[2]:m[3]])
}
