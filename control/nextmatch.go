package control

import "jobtop/jobs"

// NextMatcher finds the first line of a job's output answers (a
// FollowOutput from a cursor) that matches, as jobtop wait --until and
// MCP's wait_job do. From a cursor the caller gave (cursorGiven), a line
// being written counts once a line after the cursor is complete (the
// prompt shown when the cursor was read is not the next one), and a
// line being written as the wait starts that matches already (StaleAt:
// that prompt) does not count once complete: it is that prompt with what
// was typed at it ("prompt> hello"), or as the run's end or a restart
// left it. One that does not match yet ("Working...") counts once
// complete ("Working... done").
type NextMatcher struct {
	// Match says whether a line is the one waited for.
	Match    func(jobs.Line) bool
	from     uint64
	partials bool
	stale    map[jobs.Stream]string
}

// NewNextMatcher matches lines after the cursor from; cursorGiven says
// the caller gave it (the next line is waited for, not the one shown).
func NewNextMatcher(from uint64, cursorGiven bool, match func(jobs.Line) bool) *NextMatcher {
	return &NextMatcher{Match: match, from: from, partials: !cursorGiven}
}

// StaleAt notes the lines being written as the wait starts that match
// already (the Partial of ReadAtCursor).
func (m *NextMatcher) StaleAt(partial []jobs.Line) {
	m.stale = make(map[jobs.Stream]string)
	for _, l := range partial {
		if m.Match(l) {
			m.stale[l.Stream] = l.Text
		}
	}
}

// AtCursor is the query that reads, for StaleAt, the lines being written
// at cursor: Partial is in its answer when no more than one line follows
// the cursor (with more, the wait finds the new lines first).
func AtCursor(cursor uint64) OutputQuery { return OutputQuery{Cursor: cursor, Max: 1} }

// Find returns the first line of r that counts and matches.
func (m *NextMatcher) Find(r OutputResponse) (jobs.Line, bool) {
	m.partials = m.partials || r.NextCursor > m.from
	lines := r.Lines
	if m.partials {
		lines = append(lines, r.Partial...)
	}
	for _, l := range lines {
		if was, ok := m.stale[l.Stream]; ok && l.Seq != 0 {
			delete(m.stale, l.Stream)
			if len(l.Text) >= len(was) && l.Text[:len(was)] == was {
				continue
			}
		}
		if m.Match(l) {
			return l, true
		}
	}
	return jobs.Line{}, false
}
