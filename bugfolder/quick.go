package bugfolder

import (
	"bytes"
	"strings"
)

// quickFields reads top-level `key: value` lines of a front matter block
// (the text between its delimiters) for the keys asked. It is a fast path
// for listings: ok is false as soon as a wanted value is not a plain
// scalar on its own line (quoted, a flow or block collection, a block
// string, an anchor or alias, a tag), and the caller then parses the YAML
// in full. Keys may be written quoted ("n": 3).
func quickFields(fm []byte, keys ...string) (map[string]string, bool) {
	want := make(map[string]bool, len(keys))
	for _, k := range keys {
		want[k] = true
	}
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
				if want[k] {
					return nil, false // a nested value
				}
			}
			continue
		}
		k := strings.Trim(string(line[:colon]), `"`)
		if !want[k] {
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
