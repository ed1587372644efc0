package ui

import (
	"slices"

	"jobtop/jobs"
)

// lineKey is a line's place in a pane's source; a source's lines are in
// increasing key order. A job's own output is keyed by sequence number
// alone (arrival 0); the "all" view by arrival, then sequence number,
// since the lines of one read of a job's output share their arrival.
type lineKey struct{ arrival, seq uint64 }

// seqKey is the key of a job's line (or partial line) in its own output.
func seqKey(seq uint64) lineKey { return lineKey{seq: seq} }

// lastKey is above every line's key.
var lastKey = lineKey{^uint64(0), ^uint64(0)}

// lineKeyOf is the key of a line of any job in the "all" view.
func lineKeyOf(l jobs.Line) lineKey { return lineKey{l.Arrival, l.Seq} }

func (k lineKey) less(o lineKey) bool {
	return k.arrival < o.arrival || (k.arrival == o.arrival && k.seq < o.seq)
}

func (k lineKey) compare(o lineKey) int {
	switch {
	case k.less(o):
		return -1
	case o.less(k):
		return 1
	}
	return 0
}

// next is the smallest key after k.
func (k lineKey) next() lineKey { return lineKey{k.arrival, k.seq + 1} }

// viewLine is a line as a pane reads it: the stored line, the job that
// wrote it and its key, the line's place in the pane's source.
type viewLine struct {
	jobs.Line
	key  lineKey
	job  jobs.ID
	note noteKind // a row jobtop adds (see notedSource), not output
}

// lineSource is what an output pane reads: lines in increasing key order,
// read a window at a time, so a pane never copies more than it shows.
// Keys need not be contiguous (a filtered source skips lines).
type lineSource interface {
	// tail returns the newest n lines, oldest first.
	tail(n int) []viewLine
	// from returns up to n lines with a key of at least key, oldest first.
	from(key lineKey, n int) []viewLine
	// before returns the newest n lines with a key below key, oldest
	// first.
	before(key lineKey, n int) []viewLine
	// oldest is the key of the oldest line held (ok false when none).
	oldest() (key lineKey, ok bool)
	// countAfter counts the committed lines with a key above key.
	countAfter(key lineKey) uint64
}

// jobSource reads one job's output; keys are the lines' sequence numbers,
// and the lines being built (a progress bar) follow the newest committed
// line, numbered on from it.
type jobSource struct {
	id     jobs.ID
	reader jobs.OutputReader
}

func (s jobSource) wrap(lines []jobs.Line, dst []viewLine) []viewLine {
	for _, l := range lines {
		dst = append(dst, viewLine{Line: l, key: seqKey(l.Seq), job: s.id})
	}
	return dst
}

// partials appends the lines being built, keyed after last.
func (s jobSource) partials(dst []viewLine, partial []jobs.Line, last uint64) []viewLine {
	for i, l := range partial {
		dst = append(dst, viewLine{Line: l, key: seqKey(last + 1 + uint64(i)), job: s.id})
	}
	return dst
}

func (s jobSource) tail(n int) []viewLine {
	c := s.reader.Tail(n)
	out := s.wrap(c.Lines, make([]viewLine, 0, len(c.Lines)+len(c.Partial)))
	return s.partials(out, c.Partial, c.Next)
}

func (s jobSource) from(k lineKey, n int) []viewLine {
	key := k.seq
	last := s.reader.Stats().Last
	if key > last+1 {
		key = last + 1
	}
	if key == 0 {
		key = 1
	}
	c := s.reader.ReadAfter(key-1, n)
	out := s.wrap(c.Lines, make([]viewLine, 0, n))
	if len(out) == n {
		return out
	}
	prev := key - 1
	if len(c.Lines) > 0 {
		prev = c.Lines[len(c.Lines)-1].Seq
	}
	if prev < last {
		return out // lines arrived between the two reads; the next refresh shows them
	}
	out = s.partials(out, c.Partial, prev)
	// Past the lines being built there is nothing: a key beyond them
	// (the next after the last) was read from the first of them.
	out = slices.DeleteFunc(out, func(l viewLine) bool { return l.key.less(k) })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

func (s jobSource) before(k lineKey, n int) []viewLine {
	key := k.seq
	st := s.reader.Stats()
	var out []viewLine
	if key > st.Last+1 {
		// Partial lines before key: read them with the committed tail.
		c := s.reader.Tail(n)
		out = s.partials(s.wrap(c.Lines, nil), c.Partial, c.Next)
		for len(out) > 0 && !out[len(out)-1].key.less(k) {
			out = out[:len(out)-1]
		}
	} else if key > st.First {
		start := st.First
		if key > uint64(n) && key-uint64(n) > start {
			start = key - uint64(n)
		}
		c := s.reader.ReadAfter(start-1, int(key-start))
		out = s.wrap(c.Lines, nil)
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

func (s jobSource) oldest() (lineKey, bool) {
	st := s.reader.Stats()
	return seqKey(st.First), st.Retained > 0
}

func (s jobSource) countAfter(k lineKey) uint64 {
	if last := s.reader.Stats().Last; last > k.seq {
		return last - k.seq
	}
	return 0
}

func (s jobSource) readerOf(id jobs.ID) jobs.OutputReader {
	if id != s.id {
		return nil
	}
	return s.reader
}

func (s jobSource) scanTargets(cursors map[jobs.ID]uint64) []scanTarget {
	return []scanTarget{{job: s.id, reader: s.reader, after: cursors[s.id]}}
}

// searchableSource is a source a search can scan and filter: its lines
// come from jobs' output stores.
type searchableSource interface {
	lineSource
	// readerOf is a job's output (nil for a job the source does not read).
	readerOf(id jobs.ID) jobs.OutputReader
	// scanTargets are the outputs to search after the cursors (per job,
	// the last sequence number searched).
	scanTargets(cursors map[jobs.ID]uint64) []scanTarget
}
