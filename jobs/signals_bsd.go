//go:build darwin || freebsd

package jobs

import "syscall"

// osSignalNames are the signals macOS and the BSDs have and Linux has not.
var osSignalNames = map[syscall.Signal]string{syscall.SIGEMT: "SIGEMT", syscall.SIGINFO: "SIGINFO"}

// osIgnoredSignals are the signals a process ignores by default on this
// system beyond those every Unix has (Signal.Keeps).
var osIgnoredSignals = map[syscall.Signal]bool{syscall.SIGINFO: true, syscall.SIGIO: true}
