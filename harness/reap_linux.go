package harness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// BecomeSubreaper makes moot the reaper of its orphaned descendants
// (PR_SET_CHILD_SUBREAPER): an engine's grandchild that daemonizes with
// setsid is reparented to moot instead of init, so KillChildren can end it
// whatever its session or process group.
func BecomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// killTagged kills every descendant of moot whose environment holds tag
// (the call's MOOT_CALL=… marker, inherited by all its descendants, setsid
// or not: as moot is their subreaper, they stay moot's descendants), waits
// until each has ended and reaps those that were reparented to moot, so
// none still runs when the call returns. A SIGKILL takes effect only when
// the process is next scheduled (late on a loaded machine), hence the
// wait; within bounds only a process stuck in the kernel. It lists again
// until none is left, for one forked while the others were killed. Only
// moot's descendants are read, so the cost does not grow with the
// machine's other processes.
func killTagged(tag string, within time.Duration) {
	deadline := time.Now().Add(within)
	me := os.Getpid()
	for {
		pids := tagged(tag, me)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		// parents first (descendants lists breadth first): a parent's end
		// hands its children to moot, which can then reap them
		for _, pid := range pids {
			awaitEnd(pid, me, deadline)
		}
		if !time.Now().Before(deadline) {
			return
		}
	}
}

// tagged lists moot's descendants whose environment holds tag, parents
// first; a process that has already ended (its environment is gone) is
// not listed.
func tagged(tag string, me int) []int {
	needle := []byte(tag + "\x00")
	var out []int
	for _, pid := range descendantsExcept(me, callsInFlight()) {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err == nil && (bytes.HasPrefix(env, needle) || bytes.Contains(env, append([]byte{0}, needle...))) {
			out = append(out, pid)
		}
	}
	return out
}

// awaitEnd waits, until deadline, for a killed process to end (its pidfd
// becomes readable when it exits, whoever its parent is), then reaps it
// when it is moot's child.
func awaitEnd(pid, me int, deadline time.Time) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err == nil {
		for {
			ms := int(time.Until(deadline).Milliseconds())
			if ms <= 0 {
				break
			}
			n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, ms)
			if n > 0 || (err != nil && err != unix.EINTR) {
				break
			}
		}
		unix.Close(fd)
	}
	if parentOf(pid) == me {
		opts := unix.WNOHANG
		if errors.Is(err, unix.ENOSYS) {
			opts = 0 // no pidfd (Linux < 5.3): wait for it as a child
		}
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, opts, nil)
	}
}

// descendantsExcept lists the processes below pid, read from each
// thread's children list (/proc/PID/task/TID/children), so only pid's own
// subtree is visited (the whole process table is scanned only on kernels
// without it), less the subtrees rooted at skip (other calls in flight:
// whatever runs under them is theirs, and reading their /proc entries
// would only make reaping them dearer).
func descendantsExcept(pid int, skip map[int]bool) []int {
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		kids, ok := childrenOf(p)
		if !ok {
			return descendantsByScan(pid, skip)
		}
		for _, k := range kids {
			if !skip[k] {
				out = append(out, k)
				queue = append(queue, k)
			}
		}
	}
	return out
}

// childrenOf lists a process's children; false when the kernel does not
// publish children lists.
func childrenOf(pid int) ([]int, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tids, err := os.ReadDir(dir)
	if err != nil {
		return nil, !errors.Is(err, fs.ErrNotExist) || pid != os.Getpid()
	}
	var out []int
	for _, t := range tids {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if errors.Is(err, fs.ErrNotExist) && pid == os.Getpid() {
			return nil, false
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out, true
}

// descendantsByScan is descendants from the whole process table.
func descendantsByScan(pid int, skip map[int]bool) []int {
	children := map[int][]int{}
	for _, p := range procPIDs() {
		if pp := parentOf(p); pp > 0 {
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, k := range children[p] {
			if !skip[k] {
				out = append(out, k)
				queue = append(queue, k)
			}
		}
	}
	return out
}

// KillChildren kills every process left as moot's child (descendants of
// finished calls reparented to moot as its subreaper, or calls still
// running when moot leaves): nothing an engine started outlives moot.
func KillChildren() {
	me := os.Getpid()
	kids, ok := childrenOf(me)
	if !ok {
		for _, pid := range procPIDs() {
			if parentOf(pid) == me {
				kids = append(kids, pid)
			}
		}
	}
	for _, pid := range kids {
		killAndReap(pid, me)
	}
}

// killAndReap kills pid and, when it is moot's child, waits for it so no
// zombie stays behind.
func killAndReap(pid, me int) {
	_ = syscall.Kill(pid, syscall.SIGKILL)
	if parentOf(pid) == me {
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, 0, nil)
	}
}

// procPIDs lists the processes of /proc.
func procPIDs() []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	var out []int
	for _, n := range names {
		if pid, err := strconv.Atoi(n); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// parentOf is a process's parent pid (0 when unknown).
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// pid (comm) state ppid …: comm may hold spaces and parentheses
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// groupTags are the environment entries that tie a call's processes to
// its group and to this moot (pid and start time, so a reused pid is not
// taken for it).
func groupTags(group string) []string {
	return []string{groupKey(group), ownerTag()}
}

// ownerTag is the MOOT_OWNER=pid:starttime entry naming this moot: read
// once (a process's start never changes), not at every call.
var ownerTag = sync.OnceValue(func() string {
	me := os.Getpid()
	return fmt.Sprintf("MOOT_OWNER=%d:%s", me, startTime(me))
})

// groupKey is the MOOT_GROUP=… entry of a group (a digest: a path stays
// out of the environment).
func groupKey(group string) string {
	sum := sha256.Sum256([]byte(group))
	return "MOOT_GROUP=" + hex.EncodeToString(sum[:12])
}

// startTime is a process's start time in clock ticks since boot ("" when
// unknown).
func startTime(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return ""
	}
	return f[19] // field 22 of stat: starttime
}

// ReapOrphans kills the processes of group that a moot no longer running
// left behind (it was killed with SIGKILL, so it could not end its calls):
// every process of this user whose environment carries the group's marker
// and whose owner is gone. It returns the pids it killed.
func ReapOrphans(group string) []int {
	key := []byte(groupKey(group) + "\x00")
	uid := os.Getuid()
	var killed []int
	for _, pid := range procPIDs() {
		if pid == os.Getpid() {
			continue
		}
		var st unix.Stat_t
		if unix.Stat("/proc/"+strconv.Itoa(pid), &st) != nil || int(st.Uid) != uid {
			continue
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err != nil {
			continue
		}
		env = append([]byte{0}, env...)
		if !bytes.Contains(env, append([]byte{0}, key...)) || ownerAlive(env) {
			continue
		}
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed = append(killed, pid)
		}
	}
	return killed
}

// ownerAlive reports whether the moot named by an environment's
// MOOT_OWNER=pid:starttime still runs.
func ownerAlive(env []byte) bool {
	_, rest, ok := bytes.Cut(env, []byte("\x00MOOT_OWNER="))
	if !ok {
		return true // not ours to judge
	}
	v, _, _ := bytes.Cut(rest, []byte{0})
	pid, start, _ := strings.Cut(string(v), ":")
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return true
	}
	if start == "" {
		return syscall.Kill(n, 0) == nil
	}
	return startTime(n) == start
}
