// Package input holds the one error type for bad input (a file, a
// field, a flag) that every layer returns and the front ends map to exit
// code 2. It sits below bugfolder and harness, so neither needs the other
// to report bad input.
package input

import (
	"bytes"
	"strings"

	"github.com/reversa/moot/internal/termsafe"
)

// Error is bad input on disk or on the command line: a file that cannot
// be read or parsed, a field with a wrong value, a folder that is locked. It
// names the file (and the field when there is one) and says what to do.
// Front ends map it to exit code 2.
type Error struct {
	// Path is the file or folder concerned.
	Path string
	// Field is the front-matter or config field concerned, if any.
	Field string
	// Msg says what is wrong and, where it can, how to fix it.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

func (e *Error) Error() string {
	s := e.Path
	if e.Field != "" {
		if s != "" {
			s += ": "
		}
		s += e.Field // a usage error has a field and no file
	}
	if s != "" {
		s += ": "
	}
	// a path or a field is a name the repository chose: the message is
	// printed, so it is text that cannot drive a terminal
	return termsafe.Text(s + e.Msg)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// NormalizeText drops a UTF-8 byte order mark and turns CRLF (and lone CR)
// line endings into LF: how every text file moot reads (front matter, the
// engines file, a cassette) is read.
func NormalizeText(b []byte) string {
	return NormalizeString(string(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))))
}

// NormalizeString is NormalizeText for text already read into a string:
// a string that needs no change is returned as is, not copied (a large
// evidence file is then held once).
func NormalizeString(s string) string {
	s = strings.TrimPrefix(s, "\xef\xbb\xbf")
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}
