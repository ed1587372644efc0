//go:build darwin || freebsd

package jobs

// growPipe does nothing: macOS and the BSDs size pipes themselves (they
// grow a busy pipe's buffer up to 64 KiB) and have no F_SETPIPE_SZ.
func growPipe(uintptr) {}
