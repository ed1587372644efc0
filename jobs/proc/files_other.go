//go:build unix && !linux

package proc

// OutputFiles is what the process pid's stdout and stderr are open on:
// nothing here, where no /proc shows another process's files.
func OutputFiles(pid int) []FileID { return nil }
