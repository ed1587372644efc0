//go:build unix

// Package psutil reads the process table through gopsutil, as jobs/proc
// does on FreeBSD (and on macOS, for CPU time and memory). It is a package
// of its own so that jobtop on Linux, which reads /proc itself, does not
// link gopsutil: its cpu package reads /proc/stat twice in its init, in
// every jobtop process. It builds on Linux too, where its tests hold it
// against jobs/proc's /proc reader.
package psutil

import (
	"errors"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// TicksPerSecond is the unit of Process.CPU: jobs/proc's (USER_HZ).
const TicksPerSecond = 100

// ErrGone says a process is not in the table (any more).
var ErrGone = errors.New("no such process")

// Process is one process as the table shows it: the fields of jobs/proc's
// Proc, Start in milliseconds since the epoch.
type Process struct {
	PID, PPID, PGID, SID int
	Start                uint64
	Zombie, Stopped      bool
	CPU                  uint64
	RSS                  int64
}

// PIDs lists the processes in the table.
func PIDs() ([]int, error) {
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

// List reads every process in the table; those that end while it reads
// are left out.
func List() ([]Process, error) {
	pids, err := PIDs()
	if err != nil {
		return nil, err
	}
	out := make([]Process, 0, len(pids))
	for _, pid := range pids {
		if p, err := Get(pid); err == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// Get reads one process.
func Get(pid int) (Process, error) {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return Process{}, ErrGone
	}
	out := Process{PID: pid}
	ppid, err := p.Ppid()
	if err != nil {
		return Process{}, ErrGone
	}
	out.PPID = int(ppid)
	created, err := p.CreateTime()
	if err != nil {
		return Process{}, ErrGone
	}
	out.Start = uint64(created)
	if out.PGID, err = unix.Getpgid(pid); err != nil {
		return Process{}, ErrGone
	}
	if out.SID, err = unix.Getsid(pid); err != nil {
		return Process{}, ErrGone
	}
	if status, err := p.Status(); err == nil && len(status) > 0 {
		out.Zombie = status[0] == process.Zombie
		out.Stopped = status[0] == process.Stop
	}
	out.CPU, out.RSS = usage(p)
	return out, nil
}

// Usage is a process's CPU time in ticks and its resident memory; zero
// for what cannot be read (a zombie, another user's process).
func Usage(pid int) (cpu uint64, rss int64) {
	return usage(&process.Process{Pid: int32(pid)})
}

func usage(p *process.Process) (cpu uint64, rss int64) {
	if t, err := p.Times(); err == nil {
		cpu = uint64((t.User + t.System) * TicksPerSecond)
	}
	if m, err := p.MemoryInfo(); err == nil {
		rss = int64(m.RSS)
	}
	return cpu, rss
}
