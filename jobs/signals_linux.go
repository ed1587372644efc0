package jobs

import "syscall"

// osSignalNames are the signals only Linux has (of those jobtop names).
var osSignalNames = map[syscall.Signal]string{syscall.SIGPWR: "SIGPWR"}

// osIgnoredSignals are the signals a process ignores by default on this
// system beyond those every Unix has (Signal.Keeps): none on Linux.
var osIgnoredSignals = map[syscall.Signal]bool{}
