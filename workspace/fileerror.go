package workspace

import (
	"errors"
	"fmt"

	"jobtop/jobfile"
)

// FileError is a job file that could not be reloaded: it could not be read,
// or it has problems. Nothing was changed.
type FileError struct {
	// Path is the job file.
	Path string
	// Problems are the file's problems, each "FILE:LINE:COL: what is
	// wrong"; empty when the file could not be read at all.
	Problems []string
	// Err is the error from loading the file.
	Err error
}

func newFileError(path string, err error) *FileError {
	e := &FileError{Path: path, Err: err}
	var list jobfile.ErrorList
	if errors.As(err, &list) {
		for _, p := range list {
			e.Problems = append(e.Problems, p.Error())
		}
	}
	return e
}

// Error is one line, for a status bar: the first problem, how many more
// there are, and that nothing changed.
func (e *FileError) Error() string {
	switch len(e.Problems) {
	case 0:
		return fmt.Sprintf("cannot reload: %v; nothing was changed", e.Err)
	case 1:
		return fmt.Sprintf("cannot reload: %s; nothing was changed", e.Problems[0])
	}
	more := "problems"
	if len(e.Problems) == 2 {
		more = "problem"
	}
	return fmt.Sprintf("cannot reload: %s (and %d more %s); nothing was changed", e.Problems[0], len(e.Problems)-1, more)
}

func (e *FileError) Unwrap() error { return e.Err }

// JobFileProblems lists the file's problems (the TUI shows them all).
func (e *FileError) JobFileProblems() []string { return e.Problems }
