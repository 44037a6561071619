// Package whoami names the person at the keyboard for the records moot
// keeps of human decisions: git's user.name and user.email, else $USER.
package whoami

import (
	"context"
	"strings"
	"time"

	"github.com/reversa/moot/internal/gitcmd"
)

// gitTimeout bounds each git config lookup: a broken git must not hang a
// command that only records a decision.
const gitTimeout = 10 * time.Second

// Name returns "Name <email>" from git's configuration as seen from dir,
// the part of it that is set, else $USER (read through getenv), else
// "unknown".
func Name(ctx context.Context, dir string, getenv func(string) string) string {
	name, email := gitConfig(ctx, dir, "user.name"), gitConfig(ctx, dir, "user.email")
	switch {
	case name != "" && email != "":
		return name + " <" + email + ">"
	case name != "":
		return name
	case email != "":
		return "<" + email + ">"
	}
	if u := strings.TrimSpace(getenv("USER")); u != "" {
		return u
	}
	return "unknown"
}

// gitConfig reads one git configuration value ("" when git is missing,
// the key is unset or git fails).
func gitConfig(ctx context.Context, dir, key string) string {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	out, err := gitcmd.Output(ctx, dir, "config", "--get", key)
	if err != nil {
		return ""
	}
	return strings.Join(strings.Fields(string(out)), " ")
}
