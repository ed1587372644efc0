//go:build unix && !linux

package proc

// Busy reports whether a thread of process pid is running, waiting for a
// CPU or waiting in the kernel uninterruptibly. Where threads' states are
// not read (macOS, FreeBSD), it is false: a process that says nothing is
// taken for stopped or stuck, as before.
func Busy(pid int) bool { return false }
