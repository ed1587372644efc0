package jobs

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// signalTree sends sig to the process group pgid and to every descendant
// of its leader that moved to another group or session (setsid), found
// through /proc. Errors are ignored: processes may be gone already.
func signalTree(pgid int, sig syscall.Signal) {
	for _, pid := range descendants(pgid) {
		syscall.Kill(pid, sig) //nolint:errcheck // may have exited
	}
	syscall.Kill(-pgid, sig) //nolint:errcheck // may have exited
}

// descendants lists the PIDs below root in the process tree.
func descendants(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := make(map[int][]int)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid := parentPID(pid); ppid > 0 {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	stack := []int{root}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range children[pid] {
			out = append(out, c)
			stack = append(stack, c)
		}
	}
	return out
}

// parentPID reads the PPid field of /proc/PID/stat.
func parentPID(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name is in parentheses and may contain spaces; the
	// fields after the last ')' are: state ppid ...
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}
