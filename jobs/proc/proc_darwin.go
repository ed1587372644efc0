package proc

import (
	"golang.org/x/sys/unix"

	"jobtop/jobs/proc/psutil"
)

// On macOS the table comes from sysctl kern.proc (one call for all
// processes); CPU time and resident memory from gopsutil (libproc), whose
// own state reading would run ps; the environment from kern.procargs2
// (gopsutil's Environ answers "not implemented" on macOS).

// Process states in kinfo_proc's p_stat (sys/proc.h).
const (
	darwinStopped = 4 // SSTOP
	darwinZombie  = 5 // SZOMB
)

// List reads every process in the table. Processes that end while it
// reads are left out.
func List() ([]Proc, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, err
	}
	out := make([]Proc, 0, len(kps))
	for i := range kps {
		p := fromKinfo(&kps[i])
		if p.PID == 0 {
			continue // the kernel
		}
		p.CPU, p.RSS = psutil.Usage(p.PID)
		out = append(out, p)
	}
	return out, nil
}

// PIDs lists the processes in the table.
func PIDs() ([]int, error) {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, err
	}
	pids := make([]int, 0, len(kps))
	for i := range kps {
		if pid := int(kps[i].Proc.P_pid); pid != 0 {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// Get reads one process.
func Get(pid int) (Proc, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || int(k.Proc.P_pid) != pid {
		return Proc{}, ErrGone
	}
	p := fromKinfo(k)
	// The table said it exists: no need for gopsutil to ask again.
	p.CPU, p.RSS = psutil.Usage(pid)
	return p, nil
}

// fromKinfo is a Proc without CPU and memory. The session is asked for
// apart: kinfo_proc holds only a kernel pointer to it.
func fromKinfo(k *unix.KinfoProc) Proc {
	p := Proc{
		PID:     int(k.Proc.P_pid),
		PPID:    int(k.Eproc.Ppid),
		PGID:    int(k.Eproc.Pgid),
		Start:   uint64(k.Proc.P_starttime.Sec)*1e6 + uint64(k.Proc.P_starttime.Usec),
		Zombie:  k.Proc.P_stat == darwinZombie,
		Stopped: k.Proc.P_stat == darwinStopped,
	}
	if sid, err := unix.Getsid(p.PID); err == nil {
		p.SID = sid
	}
	return p
}

// environ reads the environment the process started with
// (kern.procargs2).
func environ(pid int) ([]string, error) {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil, err
	}
	return envFromProcargs2(b), nil
}

// Entries lists the processes in the table, with no generation (Entry).
func Entries() ([]Entry, error) { return entriesOf(PIDs()) }
