package jobs

import "golang.org/x/sys/unix"

// ioctlReadTermios reads a terminal's settings, ioctlWriteTermios sets
// them.
const (
	ioctlReadTermios  = unix.TCGETS
	ioctlWriteTermios = unix.TCSETS
)

// utf8Input is the input flag that makes a canonical terminal erase a
// whole UTF-8 character with one backspace.
const utf8Input = unix.IUTF8

// alnumWords says the word erase key erases back to a letter, digit or
// "_" and then the run of them (Linux), not back to a blank.
const alnumWords = true

// canonicalLineMax is the most of one line a canonical terminal keeps
// (its 4 KiB buffer, less the newline's byte): what is typed past it is
// dropped, and the program reads the line cut. 0 where it is not known.
const canonicalLineMax = 4<<10 - 1
