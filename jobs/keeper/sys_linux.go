package keeper

import (
	"syscall"

	"golang.org/x/sys/unix"
)

func becomeSubreaper() error { return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

func pidfdOpen(pid int) (int, error) { return unix.PidfdOpen(pid, 0) }

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
