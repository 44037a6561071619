package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// geminiSystemVar names the file the gemini CLI reads its system prompt
// from instead of its own.
const geminiSystemVar = "GEMINI_SYSTEM_MD"

// splitShared cuts a call's prompt pieces after its shared block
// (req.CachePrefix bytes): the block every call of the run begins with,
// then the call's own part. ok is false when the prompt has no shared
// block, or nothing after it.
func splitShared(req Request) (shared, own []string, ok bool) {
	n := req.CachePrefix
	if n <= 0 {
		return nil, nil, false
	}
	pieces := req.promptPieces()
	for i, s := range pieces {
		if n > len(s) {
			shared = append(shared, s)
			n -= len(s)
			continue
		}
		shared = append(shared, s[:n])
		if n < len(s) {
			own = append(own, s[n:])
		}
		own = append(own, pieces[i+1:]...)
		break
	}
	for _, s := range own {
		if s != "" {
			return shared, own, true
		}
	}
	return nil, nil, false
}

// substitutes reports whether text, in pieces, holds "${": the gemini CLI
// replaces ${Name} placeholders of a system prompt file with its own
// lists, so such a block would not reach the model as moot wrote it.
func substitutes(pieces []string) bool {
	prev := byte(0)
	for _, s := range pieces {
		if s == "" {
			continue
		}
		if strings.Contains(s, "${") || (prev == '$' && s[0] == '{') {
			return true
		}
		prev = s[len(s)-1]
	}
	return false
}

// sharedAsSystemPrompt moves a gemini call's shared block (P and what
// every call of the run reads the same) into the system prompt, and
// returns what goes on stdin: the call's own part. The gemini CLI opens
// every request with a session context that names the call's private
// folders, so a shared block sent after it is never a prefix two requests
// share; the system prompt comes before it, byte for byte the same in
// every call, and Gemini's implicit cache serves it from the second call
// on (docs/engines.md#prompt-caching). The file is the call's own,
// owner-only and read-only, outside the folder the CLI works in. A prompt
// with no shared block, or one the CLI would rewrite, goes on stdin whole
// under the CLI's own system prompt.
func (c *callSetup) sharedAsSystemPrompt(req Request) ([]string, error) {
	shared, own, ok := splitShared(req)
	if !ok || substitutes(shared) {
		return req.promptPieces(), nil
	}
	name := filepath.Join(c.dirs.root, "shared.md")
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o400)
	if err != nil {
		return nil, fmt.Errorf("write the shared block: %w", err)
	}
	for _, s := range shared {
		if _, err = f.WriteString(s); err != nil {
			break
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", name, err)
	}
	c.setenv(geminiSystemVar, name)
	return own, nil
}
