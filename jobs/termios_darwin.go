package jobs

import "golang.org/x/sys/unix"

// utf8Input is the input flag that makes a canonical terminal erase a
// whole UTF-8 character with one backspace.
const utf8Input = unix.IUTF8
