package jobs

import "syscall"

// osSignalNames are the signals only Linux has (of those jobtop names).
var osSignalNames = map[syscall.Signal]string{syscall.SIGPWR: "SIGPWR"}
