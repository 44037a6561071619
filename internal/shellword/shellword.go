// Package shellword quotes words for a POSIX shell, so that a command moot
// prints (a resume hint, a moot ask to run again) runs as printed.
package shellword

import "strings"

// Quote quotes s for a POSIX shell when it needs it: a word of letters,
// digits and -_./:@+=, stays as is, anything else goes in single quotes.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
