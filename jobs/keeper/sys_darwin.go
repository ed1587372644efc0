package keeper

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// macOS has no child subreaper: orphans go to launchd.
func becomeSubreaper() error { return errNoSubreaper }

// macOS has no pidfds.
func pidfdOpen(int) (int, error) { return -1, unix.ENOSYS }

// No pidfds to open for a child before it is reaped.
func exitedChild() (pid int, can bool) { return 0, false }

func pidfdSignal(int, syscall.Signal) error { return unix.ENOSYS }

// hangupInstead: only where pidfds are (Linux) is SIGHUP sent.
func hangupInstead(int, syscall.Signal) bool { return false }

func pidfdSignalGroup(int, syscall.Signal) error { return unix.ENOSYS }

// macOS unix sockets have no SOCK_SEQPACKET (socketpair answers
// EPROTONOSUPPORT): a stream, framed (wirestream.go).
const socketType = unix.SOCK_STREAM

// socketpair makes the pair close-on-exec under the fork lock: macOS has
// no SOCK_CLOEXEC.
func socketpair() ([2]int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fds, err := unix.Socketpair(unix.AF_UNIX, socketType, 0)
	if err == nil {
		unix.CloseOnExec(fds[0])
		unix.CloseOnExec(fds[1])
	}
	return fds, err
}
