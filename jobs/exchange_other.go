//go:build !linux

package jobs

import "errors"

// exchangeFiles swaps the names of two files at once where the system
// can; here it cannot.
func exchangeFiles(a, b string) error { return errors.ErrUnsupported }
