package jobs

import "regexp"

// sourceHint is the note of a run whose shell had no `source`: dash, the
// /bin/sh of Debian and Ubuntu that command lines run with, has only
// POSIX's `.` (`source venv/bin/activate && python train.py` ended 127,
// "source: not found").
const sourceHint = "this shell has no `source` (dash, /bin/sh on Debian and Ubuntu, has only `.`): write `. FILE`, or run the line with bash -c '...'"

// noSourceLine is dash's own word for it: "/bin/sh: 1: source: not
// found" (the line number its own).
var noSourceLine = regexp.MustCompile(`^(/bin/)?sh: [0-9]+: source: not found$`)

// saidNoSource says whether a run's shell said it has no `source`: one of
// the run's first or last lines (after cursor, where the run began) is
// dash's line for it, on stderr or its terminal. Also for a run that went
// on and ended 0 (`source venv/bin/activate; python train.py` runs the
// wrong python, rev55), so only that exact line counts: not a log that
// quotes it, nor zsh's or bash's words (rev56).
func saidNoSource(store *OutputStore, cursor uint64, tty bool) bool {
	streams := StreamsOf(Stderr)
	if tty {
		streams = StreamsOf(Stdout) // the terminal's one stream
	}
	for _, sel := range []Selection{{After: cursor, Max: 5, Streams: streams}, {After: cursor, Tail: 5, Streams: streams}} {
		for _, l := range store.Select(sel).Lines {
			if noSourceLine.MatchString(l.Text) {
				return true
			}
		}
	}
	return false
}
