package jobfile

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Error is one problem found in a job file (or in an env file it names).
type Error struct {
	// File is the file's path as it was given (not made absolute).
	File string
	// Line and Col are 1-based; 0 means unknown (line-based files have no
	// column).
	Line, Col int
	// Msg says what is wrong.
	Msg string
	// Flag says the problem is a command-line flag's value (File names
	// the flag: --port, --formation), not the file's.
	Flag bool
}

// Error formats the problem as "FILE:LINE:COL: msg", leaving out the parts
// that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteString(":" + strconv.Itoa(e.Col))
		}
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// Warning formats it as a warning: "FILE:LINE:COL: warning: msg".
func (e *Error) Warning() string {
	w := *e
	w.Msg = "warning: " + e.Msg
	return w.Error()
}

// ErrorList holds every problem found in a file, in file order. Load
// returns one when the file is not valid.
type ErrorList []*Error

// Error is the problems, one a line.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sorted orders the list by position within each file, files in the order
// they first appear, and drops exact repeats (one anchor used twice can
// report the same problem twice).
func (l ErrorList) sorted() ErrorList {
	rank := map[string]int{}
	for _, e := range l {
		if _, ok := rank[e.File]; !ok {
			rank[e.File] = len(rank)
		}
	}
	slices.SortStableFunc(l, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(rank[a.File], rank[b.File]), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return slices.CompactFunc(l, func(a, b *Error) bool { return *a == *b })
}

// err returns the list as an error, or nil when it is empty.
func (l ErrorList) err() error {
	if len(l) == 0 {
		return nil
	}
	return l.sorted()
}

// problemsAndWarnings is a file's problems, with the warnings found
// beside them: check prints both, so that a user fixing the problems
// learns of the rest at once.
type problemsAndWarnings struct {
	ErrorList
	warnings ErrorList
}

// Unwrap gives the problems, for errors.As.
func (p problemsAndWarnings) Unwrap() error { return p.ErrorList }

// withWarnings is err carrying the warnings found with it, if any.
func withWarnings(err error, warnings ErrorList) error {
	var problems ErrorList
	if len(warnings) == 0 || !errors.As(err, &problems) {
		return err
	}
	return problemsAndWarnings{ErrorList: problems, warnings: warnings.sorted()}
}

// WarningsOf is the warnings a file that failed to load had beside its
// problems (nil when err carries none).
func WarningsOf(err error) ErrorList {
	var p problemsAndWarnings
	if errors.As(err, &p) {
		return p.warnings
	}
	return nil
}
