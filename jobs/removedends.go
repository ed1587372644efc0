package jobs

import (
	"time"
	"unicode/utf8"
)

// keptRemovedEnds is how many removed jobs' ends a manager remembers.
// A wait for many jobs asks after each in turn (jobtop wait --all holds
// 64 requests at once): with 1,000 jobs and the default 500 kept, those
// asked after last had ended and been dropped by then, and their
// outcome was lost. Each takes ~200 bytes, and its command and error
// at most removedTextMax bytes each.
const keptRemovedEnds = 10000

// removedEnds remembers how the last keptRemovedEnds removed jobs ended,
// oldest dropped first, for Wait.
type removedEnds struct {
	byID  map[ID]removedEnd
	order []ID // a ring once full; next is the oldest
	next  int
}

// removedEnd is what a wait tells of a job that ended and was removed:
// how it ended, and where its output is.
type removedEnd struct {
	name, command, dir, removing, errText string
	state                                 State
	exitCode                              *int
	signal                                Signal
	started, ended                        *time.Time
	runs, restarts                        int
	logPath                               string
	logFiles                              []string
}

// add remembers a removed job's last snapshot.
func (r *removedEnds) add(i Info) {
	if r.byID == nil {
		r.byID = make(map[ID]removedEnd)
	}
	if len(r.order) < keptRemovedEnds {
		r.order = append(r.order, i.ID)
	} else {
		delete(r.byID, r.order[r.next])
		r.order[r.next] = i.ID
		r.next = (r.next + 1) % keptRemovedEnds
	}
	r.byID[i.ID] = removedEnd{
		name: i.Name, command: cutText(i.Command), dir: i.Dir, removing: i.Removing, errText: cutText(i.Error),
		state: i.State, exitCode: i.ExitCode, signal: i.Signal, started: i.Started, ended: i.Ended,
		runs: i.Runs, restarts: i.Restarts, logPath: i.LogPath, logFiles: i.LogFiles,
	}
}

// removedTextMax bounds a removed job's command and error as remembered:
// a command can be a whole script (64 KiB commands made 60 KB a job).
const removedTextMax = 256

// cutText is s cut to removedTextMax bytes (on a character's start), with
// "…" when cut.
func cutText(s string) string {
	if len(s) <= removedTextMax {
		return s
	}
	cut := removedTextMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…" // a copy: the whole is not kept
}

// get is how a removed job ended, if it is still remembered: a snapshot
// with those fields only.
func (r *removedEnds) get(id ID) (Info, bool) {
	e, ok := r.byID[id]
	if !ok {
		return Info{}, false
	}
	return Info{
		ID: id, Name: e.name, Command: e.command, Dir: e.dir, Removing: e.removing, Error: e.errText,
		State: e.state, ExitCode: e.exitCode, Signal: e.signal, Started: e.started, Ended: e.ended,
		Runs: e.runs, Restarts: e.restarts, LogPath: e.logPath, LogFiles: e.logFiles,
	}, true
}
