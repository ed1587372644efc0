package keeper

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// procctl(2) arguments: idtype_t P_PID, PROC_REAP_ACQUIRE.
const (
	idtypePID       = 0
	procReapAcquire = 2
)

// becomeSubreaper makes the keeper a reaper: procctl(P_PID, getpid(),
// PROC_REAP_ACQUIRE). (id_t is 64 bits: right on 64-bit systems; on
// 32-bit ones the call fails and the keeper tracks by session.)
func becomeSubreaper() error {
	_, _, errno := unix.Syscall6(unix.SYS_PROCCTL, idtypePID, uintptr(os.Getpid()), procReapAcquire, 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// FreeBSD's process descriptors come only from pdfork: there is nothing
// to open for a PID.
func pidfdOpen(int) (int, error) { return -1, unix.ENOSYS }

// No pidfds to open for a child before it is reaped.
func exitedChild() (pid int, can bool) { return 0, false }

func pidfdSignal(int, syscall.Signal) error { return unix.ENOSYS }

// hangupInstead: only where pidfds are (Linux) is SIGHUP sent.
func hangupInstead(int, syscall.Signal) bool { return false }

func pidfdSignalGroup(int, syscall.Signal) error { return unix.ENOSYS }

const socketType = unix.SOCK_SEQPACKET

func socketpair() ([2]int, error) {
	return unix.Socketpair(unix.AF_UNIX, socketType|unix.SOCK_CLOEXEC, 0)
}
