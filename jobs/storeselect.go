package jobs

import (
	"sort"

	"jobtop/termtext"
)

// StreamSet is a set of streams a read keeps; the zero value keeps all.
type StreamSet uint8

// StreamsOf is the set of the given streams.
func StreamsOf(streams ...Stream) StreamSet {
	var set StreamSet
	for _, st := range streams {
		set |= 1 << st
	}
	return set
}

// Has reports whether the set keeps st.
func (set StreamSet) Has(st Stream) bool { return set == 0 || set&(1<<st) != 0 }

// Selection says which lines a Select returns. Lines are picked by their
// index before any text is copied, so a read costs what it returns, not
// what the store holds.
type Selection struct {
	// After is the cursor: lines with a larger Seq.
	After uint64
	// Tail, when > 0, starts at the Tail-th newest selected line instead
	// (still after After); Dropped is then 0.
	Tail int
	// Streams keeps only lines of these streams (zero: all). Lines of
	// other streams are passed over: Next moves past them.
	Streams StreamSet
	// Max caps the lines returned (0: no cap).
	Max int
	// MaxBytes caps the text returned, in bytes (0: no cap). A line that
	// does not fit ends the read there (More), even the first one.
	MaxBytes int
	// ArrivalAfter, when > 0, skips lines that arrived at or before it.
	ArrivalAfter uint64
	// ArrivalUpTo, when > 0, stops before lines that arrived after it.
	ArrivalUpTo uint64
	// Partial adds the lines being built (in Streams).
	Partial bool
}

// Select returns the lines sel picks, oldest first.
func (s *OutputStore) Select(sel Selection) Chunk {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := s.nextSeq - uint64(s.n)
	c := Chunk{Next: sel.After}
	lo := 0
	if sel.After >= first {
		lo = int(min(sel.After-first+1, uint64(s.n)))
	} else if sel.Tail == 0 {
		c.Dropped = first - sel.After - 1
		c.Next = first - 1
	}
	if sel.ArrivalAfter > 0 {
		lo = max(lo, s.arrivedAfter(sel.ArrivalAfter))
		if lo > 0 {
			c.Next = max(c.Next, first+uint64(lo)-1)
		}
	}
	hi := s.n
	if sel.ArrivalUpTo > 0 {
		hi = min(hi, s.arrivedAfter(sel.ArrivalUpTo))
	}
	if sel.Tail > 0 {
		lo = s.tailStart(lo, hi, sel.Tail, sel.Streams)
	}
	count, size := 0, 0
	for i := lo; i < hi; i++ {
		e := s.at(i)
		if !sel.Streams.Has(e.stream()) {
			c.Next = first + uint64(i)
			continue
		}
		if (sel.Max > 0 && count == sel.Max) || (sel.MaxBytes > 0 && size+e.size() > sel.MaxBytes) {
			c.More = true
			break
		}
		if c.Lines == nil {
			room := hi - i
			if sel.Max > 0 {
				room = min(room, sel.Max)
			}
			if sel.Streams != 0 {
				room = min(room, 64) // most may be passed over
			}
			c.Lines = make([]Line, 0, room)
		}
		c.Lines = append(c.Lines, Line{Seq: first + uint64(i), Stream: e.stream(), Text: string(s.lineText(e)), Arrival: e.arrival})
		c.Next = first + uint64(i)
		count++
		size += e.size()
	}
	if sel.Partial {
		c.Partial = s.partialsLocked(sel.Streams)
	}
	return c
}

// arrivedAfter is the position of the oldest held line that arrived after
// a (s.n when none did). Arrivals grow along the ring.
func (s *OutputStore) arrivedAfter(a uint64) int {
	return sort.Search(s.n, func(i int) bool { return s.at(i).arrival > a })
}

// tailStart walks back from hi over the lines in streams and returns the
// position of the n-th newest, or lo when there are fewer.
func (s *OutputStore) tailStart(lo, hi, n int, streams StreamSet) int {
	if streams == 0 {
		return max(lo, hi-n)
	}
	for i := hi - 1; i >= lo; i-- {
		if streams.Has(s.at(i).stream()) {
			n--
			if n == 0 {
				return i
			}
		}
	}
	return lo
}

// CountArrived counts the held lines that arrived after after and at or
// before upTo (0: no bound).
func (s *OutputStore) CountArrived(after, upTo uint64) int {
	return s.CountArrivedIn(after, upTo, 0, 0)
}

// CountArrivedIn is CountArrived of the lines in streams (0: all); with
// limit > 0 it stops counting past limit (a caller that only compares
// with it need not walk every line of a busy other stream).
func (s *OutputStore) CountArrivedIn(after, upTo uint64, streams StreamSet, limit int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	hi := s.n
	if upTo > 0 {
		hi = s.arrivedAfter(upTo)
	}
	lo := s.arrivedAfter(after)
	if streams == 0 {
		return max(hi-lo, 0)
	}
	n := 0
	for i := hi - 1; i >= lo && (limit <= 0 || n <= limit); i-- {
		if streams.Has(s.at(i).stream()) {
			n++
		}
	}
	return n
}

// DroppedAfter says whether lines that arrived after the given arrival
// were dropped by the bounds, and how many when that is known: when every
// line the store took arrived after it (a read from the start), else
// lines is 0.
func (s *OutputStore) DroppedAfter(arrival uint64) (dropped bool, lines uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.droppedArrival <= arrival {
		return false, 0
	}
	if s.firstArrival > arrival {
		return true, s.dropped
	}
	return true, 0
}

func (s *OutputStore) partialsLocked(streams StreamSet) []Line {
	var out []Line
	for _, st := range []Stream{Stdout, Stderr} {
		if len(s.partial[st].buf) > 0 && streams.Has(st) {
			pl := &s.partial[st]
			out = append(out, Line{Stream: st, Text: string(s.shown(pl.buf)), Redrawn: pl.redrawn})
		}
	}
	return out
}

// ReadAfter returns up to max committed lines with Seq greater than cursor
// (max <= 0 means no limit), plus the lines being built.
func (s *OutputStore) ReadAfter(cursor uint64, max int) Chunk {
	return s.Select(Selection{After: cursor, Max: max, Partial: true})
}

// Tail returns the newest n committed lines (all when n <= 0) and the
// lines being built. Next is the newest line's Seq.
func (s *OutputStore) Tail(n int) Chunk {
	if n <= 0 {
		n = maxLineBytesLimit
	}
	return s.Select(Selection{Tail: n, Partial: true})
}

// Stats describes what the store holds.
func (s *OutputStore) Stats() StoreStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	mem := s.slabs.memory() + len(s.ring)*entrySize
	for _, p := range s.partial {
		mem += cap(p.buf) + cap(p.pen)
	}
	return StoreStats{
		First:    s.nextSeq - uint64(s.n),
		Last:     s.nextSeq - 1,
		Dropped:  s.dropped,
		Bytes:    s.total,
		Retained: s.n,
		Meta:     s.meta,
		Cuts:     s.cuts,
		Text:     int64(s.text),
		Memory:   int64(mem),
	}
}

// CursorHidden reports whether the program on the terminal whose lines
// these are hid its cursor (ESC[?25l, as pip's, npm's and cargo's
// progress bars do) and has not shown it again: a terminal draws none.
func (s *OutputStore) CursorHidden() bool { return s.cursorHidden.Load() }

// PartialCursor is the column of the cursor on the line being built on
// stream: where a terminal's line editor left it (see SetTerminal), else
// after its text.
func (s *OutputStore) PartialCursor(stream Stream) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.partialCursorLocked(stream)
}

func (s *OutputStore) partialCursorLocked(stream Stream) int {
	pl := &s.partial[stream]
	line := string(pl.buf)
	x := termtext.Width(line)
	if s.hasEdits(pl.buf) {
		_, x = termtext.EditLineCursor(line)
	}
	if pl.cr { // a "\r" nothing followed yet: the start of the row the cursor is on
		if s.cols <= 0 || x == 0 {
			return 0
		}
		return (x - 1) / s.cols * s.cols
	}
	return x
}

// LastLine is the job's newest text: the line being built on the stream
// written last, unless it shows nothing yet (a terminal's colour reset
// after a prompt), or else the newest committed line the job wrote, of
// any run. Meta lines (a restart's "── run 2 ──") are jobtop's, not the
// job's: a silent job has no last line, restarted or not ("" also when
// its newest line is no longer held).
func (s *OutputStore) LastLine() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.partial[s.lastPart].buf; len(p) > 0 && !s.showsNothing(s.lastPart) {
		return string(s.shown(p))
	}
	first := s.nextSeq - uint64(s.n)
	if s.lastOwn == 0 || s.lastOwn < first {
		return ""
	}
	return string(s.lineText(s.at(int(s.lastOwn - first))))
}

// LastLinePlacesCursor reports whether the newest text (LastLine) was
// written, on a terminal, with moves of the cursor to a row (CUP, HVP,
// VPA), which it is kept without: a program that draws a screen so on
// the main one leaves pieces of rows run together there.
func (s *OutputStore) LastLinePlacesCursor() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.partial[s.lastPart].buf; len(p) > 0 && !s.showsNothing(s.lastPart) {
		return s.terminal && termtext.PlacesCursor(p)
	}
	first := s.nextSeq - uint64(s.n)
	return s.lastOwn != 0 && s.lastOwn >= first && s.placed
}
