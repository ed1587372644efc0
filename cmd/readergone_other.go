//go:build !linux

package cmd

// watchReader does nothing here: a follow learns its reader went away at
// its next write (SIGPIPE), as before.
func watchReader(out any, gone func()) (stop func()) { return func() {} }
