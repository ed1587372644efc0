//go:build darwin || freebsd

package jobs

import "golang.org/x/sys/unix"

// ioctlReadTermios reads a terminal's settings.
const ioctlReadTermios = unix.TIOCGETA
