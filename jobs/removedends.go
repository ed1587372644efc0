package jobs

import (
	"cmp"
	"slices"
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
	// forgottenDropped counts the ends of jobs the cap on finished jobs
	// dropped that did not succeed and have since been forgotten (pushed
	// out of the ring): "did every job pass" still knows of them.
	forgottenDropped int
	// lastArrival is the newest arrival of a line a job remembered here
	// held (RemovedOutput reads no further for a cursor past it).
	lastArrival uint64
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
	// dropped: removed by the cap on finished jobs (Options.KeepFinished),
	// not by rm or a reload.
	dropped bool
	// again is what a later job that runs it again shares with it
	// (againKey).
	again string
	// out is where the job's output lay among every job's (RemovedOutput).
	out outputSpan
}

// againKey is what a job run again shares with the job it runs again:
// the name it was given, or else (a name made from its command, which a
// job of another command may get once this one is gone) its command in
// its directory.
func (j *job) againKey() string {
	if j.named {
		return "name\x00" + j.spec.Name
	}
	return "command\x00" + j.spec.Dir + "\x00" + cutText(j.spec.DisplayCommand())
}

// add remembers a removed job's last snapshot, again its againKey, out
// its output's span; dropped says the cap on finished jobs removed it.
func (r *removedEnds) add(i Info, again string, out outputSpan, dropped bool) {
	if r.byID == nil {
		r.byID = make(map[ID]removedEnd)
	}
	if len(r.order) < keptRemovedEnds {
		r.order = append(r.order, i.ID)
	} else {
		if old := r.byID[r.order[r.next]]; old.dropped && old.state != StateSucceeded {
			r.forgottenDropped++
		}
		delete(r.byID, r.order[r.next])
		r.order[r.next] = i.ID
		r.next = (r.next + 1) % keptRemovedEnds
	}
	r.byID[i.ID] = removedEnd{
		name: i.Name, command: cutText(i.Command), dir: i.Dir, removing: i.Removing, errText: cutText(i.Error),
		state: i.State, exitCode: i.ExitCode, signal: i.Signal, started: i.Started, ended: i.Ended,
		runs: i.Runs, restarts: i.Restarts, logPath: i.LogPath, logFiles: i.LogFiles,
		dropped: dropped, again: again, out: out,
	}
	r.lastArrival = max(r.lastArrival, out.last)
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

// DroppedEnds is how the jobs the cap on finished jobs removed
// (Options.KeepFinished) ended, for those that did not succeed: the ends
// still remembered (the last keptRemovedEnds removed jobs), in ID order,
// less those a later job run again stands for, and how many more
// such ends were forgotten since. A wait for every
// job counts them: a job dropped to make room still ran.
func (m *Manager) DroppedEnds() (ends []Info, forgotten int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	// A later job that runs it again (againKey), listed or removed,
	// stands for one: `wait --name build` is about the build as it is
	// now (rev54).
	newest := make(map[string]ID, len(m.jobs))
	for _, j := range m.jobs {
		k := j.againKey()
		newest[k] = max(newest[k], j.id)
	}
	for id, e := range m.ends.byID {
		newest[e.again] = max(newest[e.again], id)
	}
	for id, e := range m.ends.byID {
		if e.dropped && e.state != StateSucceeded && newest[e.again] == id {
			i, _ := m.ends.get(id)
			ends = append(ends, i)
		}
	}
	slices.SortFunc(ends, func(a, b Info) int { return cmp.Compare(a.ID, b.ID) })
	return ends, m.ends.forgottenDropped
}

// ForgetDroppedEnds stops counting the failed ends of the jobs the cap on
// finished jobs removed (DroppedEnds is empty after): a clean of every
// ended job says those are dealt with, as their listed fellows are
// removed. How each ended stays, for a wait that names it.
func (m *Manager) ForgetDroppedEnds() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, e := range m.ends.byID {
		if e.dropped {
			e.dropped = false
			m.ends.byID[id] = e
		}
	}
	m.ends.forgottenDropped = 0
}
