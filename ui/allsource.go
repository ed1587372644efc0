package ui

import (
	"slices"

	"jobtop/jobs"
)

// allSource reads every job's committed lines as one stream in the order
// they arrived (jobs.Line.Arrival, a manager-wide counter), keyed by
// arrival. It reads each job's store a window at a time, as a job pane
// does: its cost is the jobs times the lines shown, never the size of the
// output. Lines being built (no newline yet) are not shown here.
type allSource struct {
	ids     []jobs.ID
	readers map[jobs.ID]jobs.OutputReader
}

func newAllSource() *allSource {
	return &allSource{readers: make(map[jobs.ID]jobs.OutputReader)}
}

// setJobs sets the jobs read, in ID order; open gives a job's output.
func (s *allSource) setJobs(ids []jobs.ID, open func(jobs.ID) (jobs.OutputReader, bool)) {
	s.ids = s.ids[:0]
	keep := make(map[jobs.ID]jobs.OutputReader, len(ids))
	for _, id := range ids {
		r, ok := s.readers[id]
		if !ok {
			if r, ok = open(id); !ok {
				continue
			}
		}
		keep[id] = r
		s.ids = append(s.ids, id)
	}
	s.readers = keep
}

func (s *allSource) readerOf(id jobs.ID) jobs.OutputReader { return s.readers[id] }

// newest is the arrival of a job's newest committed line (0: none).
func newest(r jobs.OutputReader) uint64 {
	c := r.Tail(1)
	if len(c.Lines) == 0 {
		return 0
	}
	return c.Lines[0].Arrival
}

// seqFrom is the sequence number of a job's first line that arrived at
// or after arrival (Last+1 when none did): a binary search over the
// store, whose arrivals grow with the sequence numbers.
func seqFrom(r jobs.OutputReader, arrival uint64) uint64 {
	st := r.Stats()
	lo, hi := st.First, st.Last+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		c := r.ReadAfter(mid-1, 1)
		if len(c.Lines) == 0 {
			return hi
		}
		l := c.Lines[0]
		if l.Arrival >= arrival {
			hi = min(l.Seq, hi)
			if hi <= lo {
				return lo
			}
			if l.Seq > mid { // mid was dropped meanwhile
				return l.Seq
			}
		} else {
			lo = l.Seq + 1
		}
	}
	return lo
}

func (s *allSource) wrap(dst []viewLine, id jobs.ID, lines []jobs.Line) []viewLine {
	for _, l := range lines {
		dst = append(dst, viewLine{Line: l, key: l.Arrival, job: id})
	}
	return dst
}

func sortByKey(lines []viewLine) {
	slices.SortFunc(lines, func(a, b viewLine) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
}

func (s *allSource) tail(n int) []viewLine {
	type cand struct {
		id     jobs.ID
		newest uint64
	}
	var cands []cand
	for _, id := range s.ids {
		if a := newest(s.readers[id]); a > 0 {
			cands = append(cands, cand{id, a})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		switch {
		case a.newest > b.newest:
			return -1
		case a.newest < b.newest:
			return 1
		}
		return 0
	})
	var out []viewLine
	for _, c := range cands {
		// Past the n newest lines read so far, no older job can add any.
		if len(out) >= n && c.newest < out[0].key {
			break
		}
		out = s.wrap(out, c.id, s.readers[c.id].Tail(n).Lines)
		sortByKey(out)
		if len(out) > n {
			out = out[len(out)-n:]
		}
	}
	return out
}

func (s *allSource) from(key uint64, n int) []viewLine {
	var out []viewLine
	for _, id := range s.ids {
		r := s.readers[id]
		if newest(r) < key {
			continue
		}
		seq := seqFrom(r, key)
		out = s.wrap(out, id, r.ReadAfter(seq-1, n).Lines)
	}
	sortByKey(out)
	if len(out) > n {
		out = out[:n]
	}
	return out
}

func (s *allSource) before(key uint64, n int) []viewLine {
	var out []viewLine
	for _, id := range s.ids {
		r := s.readers[id]
		st := r.Stats()
		if st.Retained == 0 {
			continue
		}
		end := seqFrom(r, key) // lines before this one
		start := st.First
		if end > uint64(n) && end-uint64(n) > start {
			start = end - uint64(n)
		}
		if end > start {
			out = s.wrap(out, id, r.ReadAfter(start-1, int(end-start)).Lines)
		}
	}
	sortByKey(out)
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

func (s *allSource) oldest() (uint64, bool) {
	var first uint64
	for _, id := range s.ids {
		r := s.readers[id]
		st := r.Stats()
		if st.Retained == 0 {
			continue
		}
		if c := r.ReadAfter(st.First-1, 1); len(c.Lines) > 0 {
			if a := c.Lines[0].Arrival; first == 0 || a < first {
				first = a
			}
		}
	}
	return first, first > 0
}

func (s *allSource) countAfter(key uint64) uint64 {
	var n uint64
	for _, id := range s.ids {
		r := s.readers[id]
		if newest(r) <= key {
			continue
		}
		last := r.Stats().Last
		n += last + 1 - seqFrom(r, key+1)
	}
	return n
}

// scanTargets are the jobs' outputs after the lines already searched.
func (s *allSource) scanTargets(cursors map[jobs.ID]uint64) []scanTarget {
	out := make([]scanTarget, 0, len(s.ids))
	for _, id := range s.ids {
		out = append(out, scanTarget{job: id, reader: s.readers[id], after: cursors[id], byArrival: true})
	}
	return out
}
