package jobs

import "golang.org/x/sys/unix"

// growPipe asks for pipeSize, best effort (F_SETPIPE_SZ).
func growPipe(fd uintptr) {
	unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize) //nolint:errcheck // best effort
}
