package jobs

import "golang.org/x/sys/unix"

// exchangeFiles swaps the names of two files at once (renameat2's
// RENAME_EXCHANGE); both must exist.
func exchangeFiles(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
