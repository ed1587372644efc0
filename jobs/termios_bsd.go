//go:build darwin || freebsd

package jobs

import "golang.org/x/sys/unix"

// ioctlReadTermios reads a terminal's settings, ioctlWriteTermios sets
// them.
const (
	ioctlReadTermios  = unix.TIOCGETA
	ioctlWriteTermios = unix.TIOCSETA
)
