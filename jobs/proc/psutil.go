//go:build unix

package proc

import (
	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// This file reads the process table through gopsutil, the way the BSDs
// do (proc_freebsd.go; proc_darwin.go for CPU and memory). gopsutil reads no
// environment on either (its Environ answers "not implemented" there).
// It builds on Linux too, where its tests hold it against /proc.

// psutilPIDs lists the processes in the table.
func psutilPIDs() ([]int, error) {
	ps, err := process.Pids()
	if err != nil {
		return nil, err
	}
	pids := make([]int, len(ps))
	for i, p := range ps {
		pids[i] = int(p)
	}
	return pids, nil
}

// psutilList reads every process in the table; those that end while it
// reads are left out.
func psutilList() ([]Proc, error) {
	pids, err := psutilPIDs()
	if err != nil {
		return nil, err
	}
	out := make([]Proc, 0, len(pids))
	for _, pid := range pids {
		if p, err := psutilGet(pid); err == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// psutilGet reads one process. Start is its creation time in
// milliseconds since the epoch.
func psutilGet(pid int) (Proc, error) {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return Proc{}, ErrGone
	}
	out := Proc{PID: pid}
	ppid, err := p.Ppid()
	if err != nil {
		return Proc{}, ErrGone
	}
	out.PPID = int(ppid)
	created, err := p.CreateTime()
	if err != nil {
		return Proc{}, ErrGone
	}
	out.Start = uint64(created)
	if out.PGID, err = unix.Getpgid(pid); err != nil {
		return Proc{}, ErrGone
	}
	if out.SID, err = unix.Getsid(pid); err != nil {
		return Proc{}, ErrGone
	}
	if status, err := p.Status(); err == nil && len(status) > 0 {
		out.Zombie = status[0] == process.Zombie
		out.Stopped = status[0] == process.Stop
	}
	out.CPU, out.RSS = psutilUsage(p)
	return out, nil
}

// psutilUsage is a process's CPU time in ticks and its resident memory;
// zero for what cannot be read (a zombie, another user's process).
func psutilUsage(p *process.Process) (cpu uint64, rss int64) {
	if t, err := p.Times(); err == nil {
		cpu = uint64((t.User + t.System) * TicksPerSecond)
	}
	if m, err := p.MemoryInfo(); err == nil {
		rss = int64(m.RSS)
	}
	return cpu, rss
}

// entriesOf makes Entries of PIDs, with no generation.
func entriesOf(pids []int, err error) ([]Entry, error) {
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(pids))
	for i, pid := range pids {
		out[i] = Entry{PID: pid}
	}
	return out, nil
}
