package keeper

import (
	"syscall"

	"golang.org/x/sys/unix"
)

func becomeSubreaper() error { return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

func pidfdOpen(pid int) (int, error) { return unix.PidfdOpen(pid, 0) }

// forkExec starts a program (syscall.ForkExec) and returns its PID and
// a pidfd for it made by the fork itself (clone's CLONE_PIDFD: one system
// call fewer a start than pidfd_open after it), or -1 for none.
func forkExec(path string, argv []string, attr *syscall.ProcAttr) (pid, pidfd int, err error) {
	pidfd = -1
	attr.Sys.PidFD = &pidfd
	pid, err = syscall.ForkExec(path, argv, attr)
	if err == syscall.EINVAL {
		// A kernel that refuses CLONE_PIDFD with the other flags.
		attr.Sys.PidFD, pidfd = nil, -1
		pid, err = syscall.ForkExec(path, argv, attr)
	}
	return pid, pidfd, err
}

func pidfdSignal(fd int, sig syscall.Signal) error {
	return unix.PidfdSendSignal(fd, sig, nil, 0)
}

// pidfdSignalProcessGroup is PIDFD_SIGNAL_PROCESS_GROUP (linux/pidfd.h;
// Linux 6.9), which golang.org/x/sys does not name yet.
const pidfdSignalProcessGroup = 1 << 2

func pidfdSignalGroup(fd int, sig syscall.Signal) error {
	return unix.PidfdSendSignal(fd, sig, nil, pidfdSignalProcessGroup)
}

const socketType = unix.SOCK_SEQPACKET

func socketpair() ([2]int, error) {
	return unix.Socketpair(unix.AF_UNIX, socketType|unix.SOCK_CLOEXEC, 0)
}
