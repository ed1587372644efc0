//go:build !linux

package cmd

import (
	"os"
	"syscall"
)

// stopThisThread stops jobtop with a SIGSTOP (to the process: these
// systems' thread-directed kill is not in package syscall).
func stopThisThread() {
	syscall.Kill(os.Getpid(), syscall.SIGSTOP) //nolint:errcheck // to itself
}
