package harness

import (
	"errors"

	"github.com/reversa/moot/internal/input"
)

// statusOf is the status a caller makes of a Result: ok when the engine
// answered, timeout, else error.
func statusOf(r Result) string {
	switch r.Failure {
	case FailNone:
		return "ok"
	case FailTimeout:
		return "timeout"
	}
	return "error"
}

// isInputError reports whether err is (or wraps) bad input (exit 2).
func isInputError(err error) bool {
	var ie *input.Error
	return errors.As(err, &ie)
}
