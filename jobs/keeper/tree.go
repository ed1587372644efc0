package keeper

import (
	"syscall"

	"golang.org/x/sys/unix"

	"jobtop/jobs/proc"
)

// tree is one look at the keeper's descendants, sorted by run.
type tree struct {
	members map[*run][]proc.Proc
	// strays are descendants of no known run: processes that left a
	// run's session and environment, of a run that has ended.
	strays []proc.Proc
	all    []proc.Proc
}

// scan reads the process table once and sorts every live descendant of
// the keeper by the run it belongs to. Each child of the keeper is a run's
// main process or was adopted (its parent died); everything below a child
// belongs to the child's run.
func (k *keeper) scan() tree {
	t := tree{members: make(map[*run][]proc.Proc)}
	procs, err := proc.List()
	if err != nil {
		return t
	}
	kids := proc.Children(procs)
	seen := make(map[procKey]*run, len(k.seen))
	for _, i := range kids[k.pid] {
		root := procs[i]
		if root.Zombie {
			continue
		}
		r := k.attribute(root, seen)
		for _, j := range append([]int{i}, proc.Descendants(procs, kids, root.PID)...) {
			p := procs[j]
			if p.Zombie {
				continue
			}
			t.all = append(t.all, p)
			if r != nil {
				t.members[r] = append(t.members[r], p)
			} else {
				t.strays = append(t.strays, p)
			}
		}
	}
	k.seen = seen
	return t
}

// attribute finds the run a child of the keeper belongs to: its main
// process, else the run whose session it is in, else the run its
// environment names. seen collects the answers for the next scan.
func (k *keeper) attribute(p proc.Proc, seen map[procKey]*run) *run {
	if r := k.byPID[p.PID]; r != nil && r.start == p.Start {
		return r
	}
	if r := k.bySID[p.SID]; r != nil {
		return r
	}
	key := procKey{p.PID, p.Start}
	r, known := k.seen[key]
	if !known {
		if v, ok := proc.Env(p.PID, EnvRun); ok {
			if tok, id, ok := parseRunEnv(v); ok && tok == k.token {
				r = k.runs[id]
			}
		}
	}
	if r != nil && k.runs[r.id] != r {
		r = nil // its run has ended
	}
	seen[key] = r
	return r
}

func signalAll(ps []proc.Proc, sig syscall.Signal) {
	for _, p := range ps {
		signalProc(p, sig)
	}
}

// signalProc signals the process p names, and never another: it opens a
// pidfd and checks the start time through it first, so a PID reused since
// the scan is left alone.
func signalProc(p proc.Proc, sig syscall.Signal) {
	fd, err := unix.PidfdOpen(p.PID, 0)
	if err != nil {
		if err == unix.ENOSYS {
			signalWithoutPidfd(p, sig)
		}
		return
	}
	defer unix.Close(fd)
	if now, err := proc.Get(p.PID); err != nil || now.Start != p.Start {
		return
	}
	unix.PidfdSendSignal(fd, sig, nil, 0) //nolint:errcheck // it may have exited
}

// signalWithoutPidfd is for kernels before 5.3: the start time is checked
// just before the signal, which narrows the PID-reuse window to a few
// microseconds instead of closing it.
func signalWithoutPidfd(p proc.Proc, sig syscall.Signal) {
	if now, err := proc.Get(p.PID); err == nil && now.Start == p.Start {
		syscall.Kill(p.PID, sig) //nolint:errcheck // it may have exited
	}
}
