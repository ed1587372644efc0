package proc

import (
	"math"

	"golang.org/x/sys/unix"
)

// fdDir lists the process's open file descriptors.
const fdDir = "/proc/self/fd"

// closeOnExecRange marks every descriptor from 3 up close-on-exec in one
// call, and reports whether the system could.
func closeOnExecRange() bool {
	return unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil
}
