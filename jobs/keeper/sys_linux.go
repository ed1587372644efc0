package keeper

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

func becomeSubreaper() error { return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

func pidfdOpen(pid int) (int, error) { return unix.PidfdOpen(pid, 0) }

// siPIDOffset is where si_pid lies in a siginfo_t: after three int32s
// (si_signo, si_errno, si_code, in some order), at the union's
// alignment, a pointer's: 16 on 64-bit systems, 12 on 32-bit ones.
const siPIDOffset = (12 + unsafe.Sizeof(uintptr(0)) - 1) &^ (unsafe.Sizeof(uintptr(0)) - 1)

// exitedChild peeks at a child that has exited and is not reaped yet,
// leaving it unreaped (waitid's WNOWAIT); pid is 0 for none. can is
// false where the system cannot peek.
func exitedChild() (pid int, can bool) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, true // ECHILD: no child at all
		}
		// si_pid, after si_signo, si_errno, si_code and the union's
		// alignment: 0 when no child has exited (WNOHANG).
		return int(*(*int32)(unsafe.Add(unsafe.Pointer(&info), siPIDOffset))), true
	}
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

// hangupInstead says whether the process pid ignores sig (SIG_IGN) and
// not SIGHUP, so that SIGHUP is what can end it. pid must not be reaped
// yet (it is not reused then).
func hangupInstead(pid int, sig syscall.Signal) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	_, rest, ok := bytes.Cut(b, []byte("\nSigIgn:"))
	if !ok {
		return false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	ignored, err := strconv.ParseUint(string(bytes.TrimSpace(line)), 16, 64)
	if err != nil {
		return false
	}
	bit := func(s syscall.Signal) bool { return ignored>>(uint(s)-1)&1 == 1 }
	return sig != syscall.SIGHUP && bit(sig) && !bit(syscall.SIGHUP)
}
