package bugfolder

import (
	"errors"
	"fmt"
	"strings"

	"github.com/reversa/moot/internal/input"
	"github.com/reversa/moot/internal/safefs"
)

// InputError is bad input on disk or on the command line (see
// input.Error): it names the file (and the field when there is one) and
// says what to do. Front ends map it to exit code 2.
type InputError = input.Error

// inputErr builds an InputError with a formatted message.
func inputErr(path, field, format string, args ...any) *InputError {
	return &InputError{Path: path, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// IsInputError reports whether err is (or wraps) an InputError.
func IsInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// ErrLocked is returned when a bug folder holds DONE.md.
var ErrLocked = errors.New("the bug is closed (DONE.md) and read-only")

// outsideError turns a refusal of the safe file layer (a symlink, a FIFO, a
// device, a hard link, a path leaving its folder) into an InputError that
// names path; other errors pass through.
func outsideError(path string, err error) error {
	switch {
	case errors.Is(err, safefs.ErrEscape):
		return &InputError{Path: path, Msg: "leads outside the bug folder or through a symlink; moot never writes outside " + RootName + "/ nor through a link: replace it with a real folder or file", Err: err}
	case errors.Is(err, safefs.ErrNotRegular), errors.Is(err, safefs.ErrLinked):
		why := strings.TrimPrefix(err.Error(), path+": ")
		return &InputError{Path: path, Msg: fmt.Sprintf("cannot be read or written: %s; moot uses only regular files with one link here (a link, FIFO or device could lead outside the register or hang): replace it with a regular file", why), Err: err}
	case errors.Is(err, safefs.ErrTooLarge):
		return &InputError{Path: path, Msg: "cannot be read: " + strings.TrimPrefix(err.Error(), path+": "), Err: err}
	}
	return err
}
