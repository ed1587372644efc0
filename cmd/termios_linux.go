package cmd

import "golang.org/x/sys/unix"

// ioctlReadTermios reads a terminal's settings: what tells a terminal
// from a pipe or a file.
const ioctlReadTermios = unix.TCGETS
