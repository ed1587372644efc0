// Package proc reads the system's process table: who is whose parent,
// which process group and session each process is in, when it started
// (which, with the PID, names a process for good: a PID is reused, a PID
// with its start time never is), and its CPU time and resident memory.
//
// It is the one place jobtop reads /proc (or, on other systems, their
// equivalent). It imports nothing of jobtop's but, on macOS and FreeBSD,
// its psutil package (gopsutil, which jobtop on Linux does not link).
package proc

import "errors"

// Proc is one process as the process table shows it.
type Proc struct {
	PID  int
	PPID int
	PGID int
	SID  int
	// Start is when the process started: in clock ticks since boot on
	// Linux, in microseconds (macOS) or milliseconds (elsewhere) since the
	// epoch. Only its order means anything across systems. A PID and its
	// Start together identify a process even after the PID has been
	// reused.
	Start uint64
	// Zombie is true for a process that exited and was not reaped yet.
	Zombie bool
	// Stopped is true for a process stopped by a signal (SIGSTOP, SIGTSTP)
	// or a tracer.
	Stopped bool
	// CPU is the CPU time used by the process (on Linux, and its reaped
	// children too), in clock ticks (TicksPerSecond a second).
	CPU uint64
	// RSS is its resident memory in bytes.
	RSS int64
}

// TicksPerSecond is the unit of Proc.CPU (and of Proc.Start on Linux):
// Linux reports them in USER_HZ, 100 a second on every architecture Go
// supports; the other systems' readers convert to it.
const TicksPerSecond = 100

// ErrGone is returned for a process that does not exist (any more).
var ErrGone = errors.New("no such process")

// Children maps each PID in procs to the indexes of its children.
func Children(procs []Proc) map[int][]int {
	kids := make(map[int][]int, len(procs))
	for i, p := range procs {
		kids[p.PPID] = append(kids[p.PPID], i)
	}
	return kids
}

// Descendants returns the indexes (into procs) of every process below root,
// parents before their children. kids is Children(procs).
func Descendants(procs []Proc, kids map[int][]int, root int) []int {
	var out []int
	stack := append([]int(nil), kids[root]...)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, i)
		stack = append(stack, kids[procs[i].PID]...)
	}
	return out
}

// Entry is a process as the table lists it. Gen tells it from another
// process that had its PID before, where the system says so in the same
// read (Linux); 0 where it does not.
type Entry struct {
	PID int
	Gen uint64
}
