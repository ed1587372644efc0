package keeper

import (
	"strings"
	"syscall"

	"jobtop/jobs/proc"
)

// ProcID names a process for good: its PID and start time.
type ProcID struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
}

// Alive reports whether the process is still the one named.
func (id ProcID) Alive() bool {
	p, err := proc.Get(id.PID)
	return err == nil && p.Start == id.Start && !p.Zombie
}

// Leftovers finds the processes a keeper's runs left behind: every
// process in its cgroup (InCgroup) or whose JOBTOP_RUN carries its token,
// each of mains that is still the process it names, and the members of
// the sessions they started (a run's session ID is its main PID). A
// session whose leader is gone counts only while no
// other process has its ID: the system does not hand out a number that a
// live session still uses, so a process that has it now (a PID reused
// since, maybe a new session's leader) means that session is someone
// else's. The children of each found process, and theirs, are found too:
// one that left the session and cleared its environment (setsid env -i
// daemon) while its parent still runs.
func Leftovers(id Identity, mains []ProcID) []proc.Proc {
	token := id.Token
	procs, err := proc.List()
	if err != nil {
		return nil
	}
	sessions := make(map[int]uint64, len(mains)) // ID -> its leader's start
	for _, m := range mains {
		sessions[m.PID] = m.Start
	}
	alive := make(map[int]bool) // sessions whose leader is the one named
	taken := make(map[int]bool) // session IDs another process has as its PID
	for _, p := range procs {
		if start, ok := sessions[p.PID]; ok {
			alive[p.PID] = p.Start == start
			taken[p.PID] = p.Start != start
		}
	}
	out := InCgroup(id.Cgroup)
	inCgroup := make(map[int]bool, len(out))
	for _, p := range out {
		inCgroup[p.PID] = true
	}
	for _, p := range procs {
		if p.Zombie || inCgroup[p.PID] {
			continue
		}
		if start, ok := sessions[p.SID]; ok && (alive[p.SID] || !taken[p.SID] && p.Start >= start) {
			out = append(out, p)
			continue
		}
		if token == "" {
			continue
		}
		if v, ok := proc.Env(p.PID, EnvRun); ok && strings.HasPrefix(v, token+".") {
			out = append(out, p)
		}
	}
	return withDescendants(procs, out)
}

// withDescendants is found and every live process below one of them in
// procs, each once. A process's parent is current, so no reused PID is
// taken for a descendant.
func withDescendants(procs, found []proc.Proc) []proc.Proc {
	if len(found) == 0 {
		return found
	}
	kids := proc.Children(procs)
	seen := make(map[int]bool, len(found))
	for _, p := range found {
		seen[p.PID] = true
	}
	for i := 0; i < len(found); i++ { // found grows as it is walked
		for _, k := range kids[found[i].PID] {
			if c := procs[k]; !seen[c.PID] && !c.Zombie {
				seen[c.PID] = true
				found = append(found, c)
			}
		}
	}
	return found
}

// SignalAll sends sig to each process that is still the one the process
// table showed (checked through a pidfd, so a reused PID is left alone).
func SignalAll(ps []proc.Proc, sig syscall.Signal) { signalAll(ps, sig) }
