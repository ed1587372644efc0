package jobs

import (
	"cmp"
	"slices"
)

// outputSpan is where a job's lines lay in the arrival order of every
// job's lines (Line.Arrival), kept when the job is removed: its store
// goes, and a reader of every job's output whose cursor is before the
// job's last line must still be told that those lines are gone.
type outputSpan struct {
	first, last uint64 // arrivals of the first line the store took and of its newest
	lines       uint64 // lines it took (held or dropped by the bounds)
}

// span is the store's outputSpan.
func (s *OutputStore) span() outputSpan {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp := outputSpan{first: s.firstArrival, last: s.droppedArrival, lines: s.nextSeq - 1}
	if s.n > 0 {
		sp.last = s.at(s.n - 1).arrival
	}
	return sp
}

// RemovedOutput names a removed job that had lines which arrived after
// a cursor: they went with it (its log file keeps them).
type RemovedOutput struct {
	ID   ID
	Name string
	// Lines is how many, when every line the job wrote arrived after the
	// cursor; 0 when only some did.
	Lines uint64
}

// RemovedOutputAfter names the removed jobs still remembered (the last
// keptRemovedEnds removed; Wait's) whose lines arrived after arrival, in
// ID order: a reader of every job's output by arrival (GET /v1/output)
// no longer finds them, and says so as it says lines the bounds dropped.
func (m *Manager) RemovedOutputAfter(arrival uint64) []RemovedOutput {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ends.lastArrival <= arrival {
		return nil
	}
	var out []RemovedOutput
	for id, e := range m.ends.byID {
		if e.out.last <= arrival {
			continue
		}
		r := RemovedOutput{ID: id, Name: e.name}
		if e.out.first > arrival {
			r.Lines = e.out.lines
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b RemovedOutput) int { return cmp.Compare(a.ID, b.ID) })
	return out
}
