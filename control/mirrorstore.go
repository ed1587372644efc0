package control

import (
	"sync"

	"jobtop/jobs"
)

// mirrorLines bounds the lines a mirror keeps per job, as the server's
// store does by default.
const mirrorLines = jobs.DefaultMaxLines

// mirrorStore is a client-side copy of a job's output: the newest lines,
// numbered as on the server, always contiguous. It implements
// jobs.OutputReader, so a TUI reads it exactly like an in-process store.
// When the mirror falls behind past what it fetches at once, it restarts
// from the server's tail and counts the gap as dropped.
type mirrorStore struct {
	mu       sync.Mutex
	lines    []jobs.Line // contiguous: lines[i].Seq == first+i
	first    uint64      // Seq of lines[0], or of the next line when empty
	partial  []jobs.Line
	bytes    int64
	lastLine string
}

func newMirrorStore() *mirrorStore { return &mirrorStore{first: 1} }

// last is the Seq of the newest line held (first-1 when none).
func (s *mirrorStore) last() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.first + uint64(len(s.lines)) - 1
}

// apply adds a read from the server: lines after the ones held, or a
// later tail (then the held lines are dropped to keep them contiguous).
func (s *mirrorStore) apply(resp OutputResponse) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := s.first + uint64(len(s.lines))
	for _, l := range resp.Lines {
		switch {
		case l.Seq < next:
			continue // already held
		case l.Seq > next:
			s.lines = s.lines[:0:0]
			s.first = l.Seq
		}
		s.lines = append(s.lines, l)
		next = l.Seq + 1
	}
	if len(resp.Lines) == 0 && resp.NextCursor >= next {
		// The server moved past lines it no longer holds.
		s.lines = s.lines[:0:0]
		s.first = resp.NextCursor + 1
	}
	if n := len(s.lines); n > mirrorLines {
		s.lines = s.lines[n-mirrorLines:]
		s.first += uint64(n - mirrorLines)
	}
	s.partial = resp.Partial
}

// setInfo records what the job's snapshot says about its output.
func (s *mirrorStore) setInfo(info jobs.Info) {
	s.mu.Lock()
	s.bytes, s.lastLine = info.Bytes, info.LastLine
	s.mu.Unlock()
}

// ReadAfter returns up to max lines after cursor (max <= 0: all), like
// jobs.OutputStore.ReadAfter.
func (s *mirrorStore) ReadAfter(cursor uint64, max int) jobs.Chunk {
	s.mu.Lock()
	defer s.mu.Unlock()
	end := s.first + uint64(len(s.lines)) // Seq after the newest
	c := jobs.Chunk{Next: cursor, Partial: s.partialCopy()}
	start := cursor + 1
	if start < s.first {
		c.Dropped = s.first - start
		start = s.first
	}
	if start < end {
		count := end - start
		if max > 0 && count > uint64(max) {
			count = uint64(max)
		}
		off := start - s.first
		c.Lines = append([]jobs.Line(nil), s.lines[off:off+count]...)
		c.Next = start + count - 1
	} else if c.Dropped > 0 {
		c.Next = start - 1
	}
	return c
}

// Tail returns the newest n lines (all when n <= 0).
func (s *mirrorStore) Tail(n int) jobs.Chunk {
	s.mu.Lock()
	defer s.mu.Unlock()
	count := len(s.lines)
	if n > 0 && n < count {
		count = n
	}
	return jobs.Chunk{
		Lines:   append([]jobs.Line(nil), s.lines[len(s.lines)-count:]...),
		Next:    s.first + uint64(len(s.lines)) - 1,
		Partial: s.partialCopy(),
	}
}

// Stats describes the mirror's content; Bytes is the server's count.
func (s *mirrorStore) Stats() jobs.StoreStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return jobs.StoreStats{
		First:    s.first,
		Last:     s.first + uint64(len(s.lines)) - 1,
		Dropped:  s.first - 1,
		Bytes:    s.bytes,
		Retained: len(s.lines),
	}
}

// LastLine is the newest text, as the server last reported it.
func (s *mirrorStore) LastLine() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastLine
}

func (s *mirrorStore) partialCopy() []jobs.Line {
	if len(s.partial) == 0 {
		return nil
	}
	return append([]jobs.Line(nil), s.partial...)
}
