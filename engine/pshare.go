package engine

import (
	"math"
	"os"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/reversa/moot/harness"
)

// pMark stands for P while a call's prompt is rendered: the prompt is cut
// there and P goes to the engine as one piece every call shares, so no
// call renders, holds or writes a copy of it.
const pMark = "\x00moot-P\x00"

// pShare is a debate's one copy of P outside the debate folder: the
// owner-only, read-only file the calls' scratch folders link (made while
// a new debate is set up, or at the first call of a resumed one; removed
// when the run ends).
type pShare struct {
	mu     sync.Mutex
	path   string
	remove func()
}

// file is the path of the debate's P file, written at its first use; ""
// when it cannot be written (each call then writes its own copy).
func (s *pShare) file(p string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.path == "" && s.remove == nil {
		path, remove, err := harness.NewPFile(p)
		if err != nil {
			s.remove = func() {}
			return ""
		}
		s.path, s.remove = path, remove
	}
	return s.path
}

// drop removes the P file.
func (s *pShare) drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.remove != nil {
		s.remove()
	}
	s.path, s.remove = "", nil
}

// renderPrompt renders a call's prompt in pieces: the protocol writes it
// with pMark for P, which is replaced by P itself (as the protocols write
// it: without its trailing newlines) as a piece of its own.
func (r *runner) renderPrompt(c Call) []string {
	c.P = pMark
	return r.splitAt(r.proto.Prompt(c), pMark)
}

// finalStep is the protocol's final step over in, whose prompts are
// rendered with pMark for P (cut there with splitAt): like a round's
// call, the final call's prompt holds no copy of P. The step reads P
// only as in.Frozen (what its protocol froze there); in itself keeps P
// for what is written after the call.
func (r *runner) finalStep(in FinalInput) Final {
	in.Frozen, in.P = in.P, pMark
	return r.proto.Final(in)
}

// splitAt cuts text at each occurrence of sep and puts P's body in its
// place; the other pieces are copied, so text itself is not kept.
func (r *runner) splitAt(text, sep string) []string {
	body := strings.TrimRight(r.p, "\n")
	var out []string
	for {
		before, after, ok := strings.Cut(text, sep)
		if !ok {
			return append(out, strings.Clone(text))
		}
		out = append(out, strings.Clone(before), body)
		text = after
	}
}

// promptLen is the length of a prompt in pieces.
func promptLen(parts []string) int {
	n := 0
	for _, s := range parts {
		n += len(s)
	}
	return n
}

// outsideHeap is what moot keeps resident besides the Go runtime's own
// memory (the binary's code and data pages): the soft memory limit leaves
// it room under the 2×|P| + 64 MB a debate may take.
const outsideHeap = 32 << 20

// limitMemory sets the Go runtime's soft memory limit to 2×|P| + 64 MB,
// less the process's memory outside the runtime's, for a large P, unless
// one is set already (GOMEMLIMIT): the garbage left by assembling,
// writing and reading P then makes the collector run rather than doubling
// the heap (P's strings hold no pointers, so those collections are
// cheap). The limit only ever rises; setting it returns the garbage of
// assembling P to the system.
func limitMemory(pBytes int) {
	want := int64(2*pBytes + 64<<20 - outsideHeap)
	cur := debug.SetMemoryLimit(-1)
	if cur != math.MaxInt64 && cur >= want || pBytes < 1<<20 {
		return
	}
	if cur == math.MaxInt64 && os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(want)
	// P was just assembled: the files as read are garbage beside it. Free
	// them now, so the heap grows from P alone, not from twice P.
	debug.FreeOSMemory()
}
