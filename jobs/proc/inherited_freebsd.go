package proc

import (
	"math"

	"golang.org/x/sys/unix"
)

// fdDir lists the process's open file descriptors where fdescfs is
// mounted (without it, only 0 to 2).
const fdDir = "/dev/fd"

// closeRangeCloexec is FreeBSD's CLOSE_RANGE_CLOEXEC (sys/unistd.h), which
// x/sys/unix does not name.
const closeRangeCloexec = 1 << 2

// closeOnExecRange marks every descriptor from 3 up close-on-exec in one
// call, and reports whether the system could.
func closeOnExecRange() bool {
	_, _, errno := unix.Syscall(unix.SYS_CLOSE_RANGE, 3, math.MaxUint32, closeRangeCloexec)
	return errno == 0
}
