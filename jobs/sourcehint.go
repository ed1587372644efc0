package jobs

import "strings"

// sourceHint is the note of a run whose shell had no `source`: dash, the
// /bin/sh of Debian and Ubuntu that command lines run with, has only
// POSIX's `.` (`source venv/bin/activate && python train.py` ended 127,
// "source: not found").
const sourceHint = "this shell has no `source` (dash, /bin/sh on Debian and Ubuntu, has only `.`): write `. FILE`, or run the line with bash -c '...'"

// saidNoSource says whether a run that ended 127 did so for want of
// `source`: one of its last lines says so (on stderr, or on its
// terminal).
func saidNoSource(exit exitStatus, store *OutputStore) bool {
	if exit.signaled || exit.code != 127 {
		return false
	}
	for _, l := range store.Select(Selection{Tail: 5}).Lines {
		if strings.Contains(l.Text, "source: not found") {
			return true
		}
	}
	return false
}
