package testgate

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// killTagged kills every process of the user whose environment holds tag
// (the run's marker, inherited by all its descendants): one that left the
// test command's process group (setsid) is found too. It lists again
// until none is left or within has passed.
func killTagged(tag string, within time.Duration) {
	needle := []byte(tag + "\x00")
	deadline := time.Now().Add(within)
	for {
		found := false
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err != nil || !(bytes.HasPrefix(env, needle) || bytes.Contains(env, append([]byte{0}, needle...))) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				found = true
			}
		}
		if !found || time.Now().After(deadline) {
			return
		}
		time.Sleep(10 * time.Millisecond) // a SIGKILL lands when the process is next scheduled
	}
}
