package harness

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

// TestChildrenOfListsEveryChild: the children moot started, from whichever
// of its threads, are all in its children list (the list killTagged reads
// after every call to find what an engine left running).
func TestChildrenOfListsEveryChild(t *testing.T) {
	var cmds []*exec.Cmd
	for range 3 {
		c := exec.Command("sleep", "30")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	t.Cleanup(func() {
		for _, c := range cmds {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	})
	kids, ok := childrenOf(os.Getpid())
	if !ok {
		t.Skip("this kernel publishes no children lists")
	}
	for _, c := range cmds {
		if !slices.Contains(kids, c.Process.Pid) {
			t.Errorf("child %d is not in the children list %v", c.Process.Pid, kids)
		}
	}
	if _, ok := childrenOf(1 << 30); !ok {
		t.Errorf("a process that does not exist should read as having no children, not as a kernel without children lists")
	}
}
