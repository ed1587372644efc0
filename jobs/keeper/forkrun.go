package keeper

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// maxCgroupRefusals is how many forks in a row the system may refuse to
// put in a cgroup before the keeper stops asking.
const maxCgroupRefusals = 3

// forkRun forks and execs a run's main process with attr, in the run's
// cgroup where runs have them. note says why a run that would have had
// one has none: its cgroup could not be made (too many, say), or the
// system would not fork into it (clone3 is Linux 5.7's; a cgroup may
// take no processes), and then it is started without. An error of the
// program's own (not found, being written) ends the start as it would
// without cgroups.
func (k *keeper) forkRun(req request, attr *syscall.ProcAttr) (pid int, note string, err error) {
	if k.cg == nil || k.cgBroken {
		pid, err = syscall.ForkExec(req.Path, req.Argv, attr)
		return pid, "", err
	}
	fd, mkErr := k.cg.open(req.Run)
	if mkErr != nil {
		pid, err = syscall.ForkExec(req.Path, req.Argv, attr)
		return pid, noCgroup("it could not be made (" + mkErr.Error() + ")"), err
	}
	forkInto(attr.Sys, fd)
	pid, err = syscall.ForkExec(req.Path, req.Argv, attr)
	unix.Close(fd)
	forkInto(attr.Sys, -1)
	if err == nil {
		k.cgRefused = 0
		return pid, "", nil
	}
	k.cg.ended(req.Run) // nothing is in it
	if sure, maybe := cgroupError(err); !sure && !(maybe && k.cgroupRefuses(req.Run)) {
		return 0, "", err // the program's: as without cgroups
	}
	refusal := err
	if pid, err = syscall.ForkExec(req.Path, req.Argv, attr); err != nil {
		return 0, "", err // the program's, after all
	}
	why := "the system would not start it in one (" + refusal.Error() + ")"
	if k.cgRefused++; k.cgRefused == maxCgroupRefusals {
		k.cgBroken = true
		why += "; this instance starts its jobs without from now on"
	}
	return pid, noCgroup(why), nil
}

// cgroupRefuses reports whether run id's cgroup refuses a fork into it,
// for an error that the fork and the program's exec can both give
// (cgroupError): it forks into it a child that execs nothing (an empty
// path: ENOENT, and it exits), so whatever else it fails with is the
// fork's, whatever the file modes of any program.
func (k *keeper) cgroupRefuses(id RunID) bool {
	fd, err := k.cg.open(id)
	if err != nil {
		return true
	}
	defer k.cg.ended(id)
	defer unix.Close(fd)
	sys := &syscall.SysProcAttr{Setsid: true}
	forkInto(sys, fd)
	// (ForkExec reaps a child whose exec failed.)
	_, err = syscall.ForkExec("", []string{"jobtop-cgroup-probe"}, &syscall.ProcAttr{Sys: sys})
	return err != unix.ENOENT
}

// noCgroup is a run's note that it has no cgroup of its own, and why.
func noCgroup(why string) string {
	return "this run has no cgroup of its own: " + why + ". A process it starts that leaves its session, closes its output and rewrites its environment can outlive it"
}
