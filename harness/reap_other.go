//go:build !linux

package harness

import "time"

// BecomeSubreaper is a no-op where the kernel has no child subreaper.
func BecomeSubreaper() error { return nil }

// killTagged is a no-op without /proc: the process group is still killed.
func killTagged(string, time.Duration) {}

// KillChildren is a no-op without /proc.
func KillChildren() {}

// groupTags marks nothing without /proc.
func groupTags(string) []string { return nil }

// ReapOrphans finds nothing without /proc.
func ReapOrphans(string) []int { return nil }
