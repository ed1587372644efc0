package proc

import (
	"golang.org/x/sys/unix"

	"jobtop/jobs/proc/psutil"
)

// FreeBSD's process table is read through gopsutil (jobs/proc/psutil):
// sysctl kern.proc, no procfs needed. gopsutil reads no environment there
// (its Environ answers "not implemented").

// List reads every process in the table. Processes that end while it
// reads are left out.
func List() ([]Proc, error) {
	ps, err := psutil.List()
	if err != nil {
		return nil, err
	}
	out := make([]Proc, len(ps))
	for i, p := range ps {
		out[i] = fromPsutil(p)
	}
	return out, nil
}

// PIDs lists the processes in the table.
func PIDs() ([]int, error) { return psutil.PIDs() }

// Get reads one process (Start: its creation time in milliseconds since
// the epoch).
func Get(pid int) (Proc, error) {
	p, err := psutil.Get(pid)
	if err != nil {
		return Proc{}, ErrGone
	}
	return fromPsutil(p), nil
}

func fromPsutil(p psutil.Process) Proc {
	return Proc{PID: p.PID, PPID: p.PPID, PGID: p.PGID, SID: p.SID, Start: p.Start,
		Zombie: p.Zombie, Stopped: p.Stopped, CPU: p.CPU, RSS: p.RSS}
}

// environ reads the environment the process started with (sysctl
// kern.proc.env).
func environ(pid int) ([]string, error) {
	b, err := unix.SysctlRaw("kern.proc.env", pid)
	if err != nil {
		return nil, err
	}
	return splitNUL(b), nil
}

// Entries lists the processes in the table, with no generation (Entry).
func Entries() ([]Entry, error) { return entriesOf(PIDs()) }
