package proc

import (
	"errors"
	"os"
	"strconv"
	"syscall"
)

// Tree reads root and every process below it, from the kernel's lists of
// each thread's children (/proc/PID/task/TID/children): for a job's few
// processes, far cheaper than reading the whole table as List does (on a
// busy machine, thousands of processes every sample). ok is false where
// the kernel keeps no such lists; List is the way there. A process that
// ends while it reads is left out, with what was below it.
func Tree(root int) (procs []Proc, ok bool, err error) {
	buf := make([]byte, 4096)
	seen := map[int]bool{}
	stack := []int{root}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		p, err := readStat(pid, buf)
		if err != nil {
			if pid == root {
				return nil, true, err
			}
			continue
		}
		procs = append(procs, p)
		kids, ok, err := childrenOf(pid, buf)
		switch {
		case !ok:
			return nil, false, nil
		case err != nil:
			continue // it ended meanwhile
		}
		stack = append(stack, kids...)
	}
	return procs, true, nil
}

// childrenOf lists a process's children: those of each of its threads.
func childrenOf(pid int, buf []byte) (kids []int, ok bool, err error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	d, err := os.Open(dir)
	if err != nil {
		return nil, true, ErrGone
	}
	tids, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, true, ErrGone
	}
	for _, tid := range tids {
		fd, err := syscall.Open(dir+tid+"/children", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if errors.Is(err, syscall.ENOENT) {
			if _, serr := os.Stat(dir + tid); serr == nil {
				return nil, false, nil // the thread is there, the list is not
			}
			continue // the thread ended
		}
		if err != nil {
			continue
		}
		var rest []byte
		for {
			n, err := syscall.Read(fd, buf)
			if err != nil || n <= 0 {
				break
			}
			rest = append(rest, buf[:n]...)
		}
		syscall.Close(fd)
		kids = appendPIDs(kids, rest)
	}
	return kids, true, nil
}

// appendPIDs appends the numbers of a space-separated list.
func appendPIDs(out []int, b []byte) []int {
	n, in := 0, false
	for _, c := range b {
		if c >= '0' && c <= '9' {
			n, in = n*10+int(c-'0'), true
			continue
		}
		if in {
			out = append(out, n)
		}
		n, in = 0, false
	}
	if in {
		out = append(out, n)
	}
	return out
}
