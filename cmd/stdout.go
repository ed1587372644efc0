package cmd

import (
	"io"
	"os"
	"sync"
)

// checkedStdout is stdout as every command prints to it
// (cmd.OutOrStdout()): it keeps the first write error, so that a command
// that printed what the user needed (the ID of the job jobtop run
// started) and could not (jobtop run >/dev/full) does not exit 0 in
// silence. Execute checks it once the command is over: one check for
// every command, not one per print.
type checkedStdout struct {
	f   *os.File
	mu  sync.Mutex
	err error
}

func (w *checkedStdout) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		w.mu.Lock()
		if w.err == nil {
			w.err = err
		}
		w.mu.Unlock()
	}
	return n, err
}

// failed is the first write error, if any.
func (w *checkedStdout) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// fileOf is the file w writes to, when it is one: stdout, checked or not.
func fileOf(w io.Writer) (*os.File, bool) {
	switch f := w.(type) {
	case *os.File:
		return f, true
	case *checkedStdout:
		return f.f, true
	}
	return nil, false
}
