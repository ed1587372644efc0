//go:build !linux

package cmd

import "io"

// watchReader does nothing here: a follow learns its reader went away at
// its next write (SIGPIPE), as before.
func watchReader(out io.Writer, gone func()) (stop func()) { return func() {} }
