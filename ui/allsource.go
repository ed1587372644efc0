package ui

import (
	"slices"

	"jobtop/jobs"
)

// allSource reads every job's committed lines as one stream in the order
// they arrived (jobs.Line.Arrival, a manager-wide counter; lines of one
// read share it and go by sequence number), keyed by arrival and sequence
// number. It reads each job's store a window at a time, as a job pane
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

// newest is the key of a job's newest committed line (ok false: none).
func newest(r jobs.OutputReader) (lineKey, bool) {
	c := r.Tail(1)
	if len(c.Lines) == 0 {
		return lineKey{}, false
	}
	return lineKeyOf(c.Lines[0]), true
}

// seqFrom is the sequence number of a job's first line whose key is at
// least k (Last+1 when there is none): a binary search over the store,
// whose keys grow with the sequence numbers.
func seqFrom(r jobs.OutputReader, k lineKey) uint64 {
	st := r.Stats()
	lo, hi := st.First, st.Last+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		c := r.ReadAfter(mid-1, 1)
		if len(c.Lines) == 0 {
			return hi
		}
		l := c.Lines[0]
		switch {
		case l.Seq > mid: // the lines before it were dropped meanwhile
			if !lineKeyOf(l).less(k) {
				return l.Seq
			}
			lo = l.Seq + 1
		case !lineKeyOf(l).less(k):
			hi = mid
		default:
			lo = mid + 1
		}
	}
	return lo
}

func (s *allSource) wrap(dst []viewLine, id jobs.ID, lines []jobs.Line) []viewLine {
	for _, l := range lines {
		dst = append(dst, viewLine{Line: l, key: lineKeyOf(l), job: id})
	}
	return dst
}

func sortByKey(lines []viewLine) {
	slices.SortFunc(lines, func(a, b viewLine) int { return a.key.compare(b.key) })
}

func (s *allSource) tail(n int) []viewLine {
	type cand struct {
		id     jobs.ID
		newest lineKey
	}
	var cands []cand
	for _, id := range s.ids {
		if k, ok := newest(s.readers[id]); ok {
			cands = append(cands, cand{id, k})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int { return b.newest.compare(a.newest) })
	var out []viewLine
	for _, c := range cands {
		// Past the n newest lines read so far, no older job can add any.
		if len(out) >= n && c.newest.less(out[0].key) {
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

func (s *allSource) from(key lineKey, n int) []viewLine {
	var out []viewLine
	for _, id := range s.ids {
		r := s.readers[id]
		if k, ok := newest(r); !ok || k.less(key) {
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

func (s *allSource) before(key lineKey, n int) []viewLine {
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

func (s *allSource) oldest() (lineKey, bool) {
	first, found := lastKey, false
	for _, id := range s.ids {
		r := s.readers[id]
		st := r.Stats()
		if st.Retained == 0 {
			continue
		}
		if c := r.ReadAfter(st.First-1, 1); len(c.Lines) > 0 {
			if k := lineKeyOf(c.Lines[0]); k.less(first) {
				first, found = k, true
			}
		}
	}
	return first, found
}

func (s *allSource) countAfter(key lineKey) uint64 {
	var n uint64
	for _, id := range s.ids {
		r := s.readers[id]
		if k, ok := newest(r); !ok || !key.less(k) {
			continue
		}
		last := r.Stats().Last
		n += last + 1 - seqFrom(r, key.next())
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
