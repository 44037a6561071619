package testutil

import (
	"os/exec"
	"testing"
)

// DeadPID is the pid of a process that was killed with SIGKILL (kill -9)
// and reaped: a lock naming it names a writer that is gone.
func DeadPID(t testing.TB) int {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait() // reaped: the pid is free
	return pid
}
