package bugfolder

import (
	"bytes"
	"slices"
	"strings"
)

// quickFields reads top-level `key: value` lines of a front matter block
// (the text between its delimiters) for the keys asked. It is a fast path
// for listings: ok is false as soon as a wanted value is not a plain
// scalar on its own line (quoted, a flow or block collection, a block
// string, an anchor or alias, a tag), and the caller then parses the YAML
// in full. Keys may be written quoted ("n": 3).
func quickFields(fm []byte, keys ...string) (map[string]string, bool) {
	out := make(map[string]string, len(keys))
	for len(fm) > 0 {
		var line []byte
		if i := bytes.IndexByte(fm, '\n'); i >= 0 {
			line, fm = fm[:i], fm[i+1:]
		} else {
			line, fm = fm, nil
		}
		if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' {
			continue // blank, nested, comment or list line: not a top-level key
		}
		colon := bytes.Index(line, []byte(": "))
		if colon < 0 {
			if bytes.HasSuffix(bytes.TrimRight(line, " \r"), []byte(":")) {
				k := strings.Trim(string(bytes.TrimRight(line, ": \r")), `"`)
				if slices.Contains(keys, k) {
					return nil, false // a nested value
				}
			}
			continue
		}
		k := strings.Trim(string(line[:colon]), `"`)
		if !slices.Contains(keys, k) {
			continue
		}
		v := strings.TrimSpace(string(bytes.TrimRight(line[colon+2:], "\r")))
		if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		if v == "" || strings.ContainsAny(v[:1], `"'{[|>&*!%@`+"`") || strings.Contains(v, ": ") {
			return nil, false
		}
		if v == "~" || v == "null" {
			v = ""
		}
		out[k] = v
	}
	return out, true
}

// frontMatterBlock returns the text between a document's --- delimiters
// (nil when it has none or it is not closed).
func frontMatterBlock(raw []byte) []byte {
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(raw, []byte("---\n")) && !bytes.HasPrefix(raw, []byte("---\r\n")) {
		return nil
	}
	rest := raw[bytes.IndexByte(raw, '\n')+1:]
	for off := 0; off < len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if end >= 0 {
			line = rest[off : off+end]
		}
		if t := bytes.TrimRight(line, " \t\r"); bytes.Equal(t, []byte("---")) || bytes.Equal(t, []byte("...")) {
			return rest[:off]
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return nil
}

// mappingOrAbsent reports whether a top-level key of a plain front matter
// (plainFrontMatter) is absent, null, or a block mapping — the value the
// full reader takes without a warning (bug.md's traceability:); anything
// else (a scalar, a list) is for the full reader to judge.
func mappingOrAbsent(fm []byte, key string) bool {
	lines := bytes.Split(fm, []byte("\n"))
	for i, line := range lines {
		l := bytes.TrimRight(line, " \r")
		k, v, ok := bytes.Cut(l, []byte(":"))
		if !ok || string(bytes.Trim(k, `"`)) != key {
			continue
		}
		if v = bytes.TrimSpace(v); len(v) > 0 {
			return string(v) == "~" || string(v) == "null"
		}
		for _, next := range lines[i+1:] {
			t := bytes.TrimLeft(next, " ")
			if len(bytes.TrimSpace(t)) == 0 || t[0] == '#' {
				continue
			}
			// indented key: value lines are a mapping; back at the top, the value was null
			return len(t) == len(next) || t[0] != '-' && bytes.Contains(t, []byte(":"))
		}
		return true
	}
	return true
}
