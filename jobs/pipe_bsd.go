//go:build darwin || freebsd

package jobs

import "os"

// newOutputPipe makes a pipe for a job's stdout or stderr. The read end
// stays non-blocking, so reading it waits in Go's poller, not in an OS
// thread. macOS and the BSDs size pipes themselves (they grow a busy
// pipe's buffer up to 64 KiB) and have no F_SETPIPE_SZ.
func newOutputPipe() (r, w *os.File, err error) { return os.Pipe() }
