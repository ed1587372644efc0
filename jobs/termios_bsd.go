//go:build darwin || freebsd

package jobs

import "golang.org/x/sys/unix"

// ioctlReadTermios reads a terminal's settings, ioctlWriteTermios sets
// them.
const (
	ioctlReadTermios  = unix.TIOCGETA
	ioctlWriteTermios = unix.TIOCSETA
)

// alnumWords says the word erase key erases back to a letter, digit or
// "_" and then the run of them (Linux), not back to a blank.
const alnumWords = false

// canonicalLineMax is 0: the most of a line a canonical terminal keeps
// here was not measured, so Manager.Input does not refuse a long one.
const canonicalLineMax = 0
