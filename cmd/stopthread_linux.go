package cmd

import (
	"os"
	"runtime"
	"syscall"
)

// stopThisThread stops jobtop with a SIGSTOP to the calling thread,
// which stops before it returns. A SIGSTOP to the process may be taken
// by another thread, and this one went on meanwhile (to take the
// terminal again, before the stop that should have come first).
func stopThisThread() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	syscall.Tgkill(os.Getpid(), syscall.Gettid(), syscall.SIGSTOP) //nolint:errcheck // to itself
}
