package jobs

import "golang.org/x/sys/unix"

// ioctlReadTermios reads a terminal's settings.
const ioctlReadTermios = unix.TCGETS
