package bugfolder

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/reversa/moot/internal/input"
)

// Document is a Markdown file split into its YAML front matter and body.
// The text is normalised for reading: a UTF-8 BOM is dropped and CRLF line
// endings become LF.
type Document struct {
	// Meta is the front matter's top-level mapping (nil when the file has none).
	Meta *yaml.Node
	// MetaLine is the 1-based line of the first front-matter key.
	MetaLine int
	// Body is everything after the closing delimiter.
	Body string
	// BodyLine is the 1-based line where Body starts in the file.
	BodyLine int
}

// ErrUnclosedFrontMatter is returned when a file opens a front matter block
// with "---" and never closes it.
var ErrUnclosedFrontMatter = errors.New("front matter opened with --- on line 1 is never closed with a --- line")

// NormalizeText drops a UTF-8 byte order mark and turns CRLF (and lone CR)
// line endings into LF.
func NormalizeText(b []byte) string { return input.NormalizeText(b) }

// ParseDocument splits raw file bytes into front matter and body. A file
// without a leading "---" line has no front matter. The error, when not nil,
// describes what is wrong in terms a person can fix (line numbers included).
func ParseDocument(raw []byte) (*Document, error) {
	return parseDocumentText(NormalizeText(raw))
}

// parseDocumentText is ParseDocument of text already normalized.
func parseDocumentText(text string) (*Document, error) {
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return &Document{Body: text, BodyLine: 1}, nil
	}
	// find the closing delimiter
	line := 2
	pos := 0
	for {
		nl := strings.IndexByte(rest[pos:], '\n')
		var l string
		if nl < 0 {
			l = rest[pos:]
		} else {
			l = rest[pos : pos+nl]
		}
		t := strings.TrimRight(l, " \t")
		if t == "---" || t == "..." {
			yamlText := rest[:pos]
			body := ""
			if nl >= 0 {
				body = rest[pos+nl+1:]
			}
			doc := &Document{Body: body, BodyLine: line + 1, MetaLine: 2}
			if strings.TrimSpace(yamlText) == "" {
				return doc, nil
			}
			var root yaml.Node
			if err := yaml.Unmarshal([]byte(yamlText), &root); err != nil {
				return nil, fmt.Errorf("front matter is not valid YAML: %s", yamlError(err, 1))
			}
			if len(root.Content) == 0 {
				return doc, nil
			}
			m := root.Content[0]
			if m.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("front matter must be a YAML mapping of key: value lines (line 2)")
			}
			doc.Meta = m
			return doc, nil
		}
		if nl < 0 {
			return nil, ErrUnclosedFrontMatter
		}
		pos += nl + 1
		line++
	}
}

// yamlError rewrites a yaml.v3 error so its line numbers refer to the file
// (the front matter starts on line 2) rather than to the YAML fragment.
func yamlError(err error, offset int) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	if strings.HasPrefix(msg, "line ") {
		rest := msg[len("line "):]
		i := strings.IndexByte(rest, ':')
		if i > 0 {
			if n, e := strconv.Atoi(rest[:i]); e == nil {
				return fmt.Sprintf("line %d:%s", n+offset, rest[i+1:])
			}
		}
	}
	return msg
}

// Lookup returns the value node of key in a mapping node, or nil.
func Lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// Keys lists the keys of a mapping node in file order.
func Keys(m *yaml.Node) []string {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]string, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		out = append(out, m.Content[i].Value)
	}
	return out
}

// scalar returns the scalar value of key, or "" when absent, null or not a scalar.
func scalar(m *yaml.Node, key string) string {
	n := Lookup(m, key)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return ""
	}
	return n.Value
}

// intField reads an integer field leniently ("3", 3, "3.0"). ok is false
// when the field is absent; err is set when it is present but not a number.
func intField(m *yaml.Node, key string) (v int, ok bool, err error) {
	s := strings.TrimSpace(scalar(m, key))
	if s == "" {
		return 0, false, nil
	}
	if n, e := strconv.Atoi(s); e == nil {
		return n, true, nil
	}
	if f, e := strconv.ParseFloat(s, 64); e == nil && f == float64(int(f)) {
		return int(f), true, nil
	}
	return 0, true, fmt.Errorf("%s: %q is not a whole number", key, s)
}

// floatField reads a number field leniently; absent or malformed is 0.
func floatField(m *yaml.Node, key string) float64 {
	f, _ := strconv.ParseFloat(strings.TrimSpace(scalar(m, key)), 64)
	return f
}

// boolField reads a boolean field leniently; absent or malformed is false.
func boolField(m *yaml.Node, key string) bool {
	b, _ := strconv.ParseBool(strings.TrimSpace(scalar(m, key)))
	return b
}

// timeField reads an ISO 8601 timestamp; absent or malformed is the zero time.
func timeField(m *yaml.Node, key string) time.Time {
	return parseTime(scalar(m, key))
}

// timeLayouts are the timestamp forms registers hold: RFC 3339 and the
// forms YAML and people write (a space for the T, an offset with or without
// its colon, hours only, or no offset, read as UTC).
var timeLayouts = []string{
	time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05Z07", "2006-01-02T15:04Z07:00",
	"2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 Z07:00", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 -07",
	"2006-01-02 15:04:05.999999999 -07:00", "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02",
}

// parseTime reads a timestamp in any of timeLayouts and returns it in UTC
// (an offset is applied, never dropped); unreadable is the zero time.
func parseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// TimeForm is how much of a time a file wrote: moot shows a time with
// the precision it was written with, never more.
type TimeForm uint8

const (
	// TimeZoned is a date and a time of day with its offset (or Z).
	TimeZoned TimeForm = iota
	// TimeDay is a date alone (2026-10-04): its midnight UTC is a
	// convention, not a time of day.
	TimeDay
	// TimeNoZone is a date and a time of day without an offset
	// (2026-10-04T10:00:00): the writer's wall clock in a zone it did
	// not name, kept as written (read as UTC only to be ordered).
	TimeNoZone
)

// zoneLessLayouts are the timeLayouts that carry no offset.
var zoneLessLayouts = []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04"}

// parseForm is parseTime, and how much of a time the text wrote.
func parseForm(s string) (time.Time, TimeForm) {
	t := parseTime(s)
	if t.IsZero() {
		return t, TimeZoned
	}
	s = strings.TrimSpace(s)
	if _, err := time.Parse("2006-01-02", s); err == nil {
		return t, TimeDay
	}
	for _, layout := range zoneLessLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return t, TimeNoZone
		}
	}
	return t, TimeZoned
}

// formField is parseForm of a front-matter field.
func formField(m *yaml.Node, key string) (time.Time, TimeForm) {
	return parseForm(scalar(m, key))
}

// stringList reads a sequence of scalars, or a single scalar as a list of one.
func stringList(m *yaml.Node, key string) []string {
	n := Lookup(m, key)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" || strings.TrimSpace(n.Value) == "" {
			return nil
		}
		return []string{n.Value}
	case yaml.SequenceNode:
		var out []string
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode && strings.TrimSpace(c.Value) != "" {
				out = append(out, c.Value)
			}
		}
		return out
	}
	return nil
}

// stringMap reads a mapping of scalars in file order.
func stringMap(m *yaml.Node, key string) []KV {
	n := Lookup(m, key)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out []KV
	for i := 0; i+1 < len(n.Content); i += 2 {
		v := n.Content[i+1]
		if v.Kind == yaml.ScalarNode {
			out = append(out, KV{n.Content[i].Value, v.Value})
		}
	}
	return out
}

// KV is one key/value pair of an ordered mapping.
type KV struct {
	Key, Value string
}

// marshalFrontMatter renders v (a struct with yaml tags, fields in the order
// they are to be written) as a front matter block followed by body.
func marshalFrontMatter(v any, body string) ([]byte, error) {
	front, err := frontMatter(v, len(body))
	if err != nil {
		return nil, err
	}
	front.WriteString(body)
	return front.Bytes(), nil
}

// frontMatter renders v between its "---" lines, in a buffer with room
// for a body of extra bytes after it.
func frontMatter(v any, extra int) (*bytes.Buffer, error) {
	var buf bytes.Buffer
	buf.Grow(extra + 4096) // one allocation for a large body
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode front matter: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode front matter: %w", err)
	}
	buf.WriteString("---\n")
	return &buf, nil
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// SHA256String is the hex sha256 of s, hashed in small pieces: a large P
// is not copied into a byte slice to be hashed.
func SHA256String(s ...string) string {
	h := sha256.New()
	buf := make([]byte, 32<<10)
	for _, part := range s {
		for len(part) > 0 {
			n := copy(buf, part)
			h.Write(buf[:n])
			part = part[n:]
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
