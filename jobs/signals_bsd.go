//go:build darwin || freebsd

package jobs

import "syscall"

// osSignalNames are the signals macOS and the BSDs have and Linux has not.
var osSignalNames = map[syscall.Signal]string{syscall.SIGEMT: "SIGEMT", syscall.SIGINFO: "SIGINFO"}
