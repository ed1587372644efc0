package jobs

import "strings"

// sourceHint is the note of a run whose shell had no `source`: dash, the
// /bin/sh of Debian and Ubuntu that command lines run with, has only
// POSIX's `.` (`source venv/bin/activate && python train.py` ended 127,
// "source: not found").
const sourceHint = "this shell has no `source` (dash, /bin/sh on Debian and Ubuntu, has only `.`): write `. FILE`, or run the line with bash -c '...'"

// saidNoSource says whether a run's shell said it has no `source`: among
// the run's first or last lines (after cursor, where the run began), on
// stderr or its terminal. Also for a run that went on and ended 0
// (`source venv/bin/activate; python train.py` runs the wrong python,
// rev55), so only a line that is the shell's own word for it counts.
func saidNoSource(store *OutputStore, cursor uint64) bool {
	for _, sel := range []Selection{{After: cursor, Max: 5}, {After: cursor, Tail: 5}} {
		for _, l := range store.Select(sel).Lines {
			if l.Stream != Meta && strings.Contains(l.Text, "sh: ") && strings.Contains(l.Text, "source: not found") {
				return true
			}
		}
	}
	return false
}
