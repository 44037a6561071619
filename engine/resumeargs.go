package engine

import (
	"strings"

	"github.com/reversa/moot/internal/shellword"
)

// ResumeArgs are the words that follow `moot resume` in every printed hint
// (the CLI's exit lines, the TUI's leave dialog, moot show's next row, the
// final step's advice): the target, quoted for a shell, and, when the
// debate runs on an engines file given with --config, that file, so the
// hint works as printed. enginesFile should be absolute, so the hint works
// from anywhere.
func ResumeArgs(target, enginesFile string) string {
	parts := []string{shellword.Quote(target)}
	if enginesFile != "" {
		parts = append(parts, "--config", shellword.Quote(enginesFile))
	}
	return strings.Join(parts, " ")
}
