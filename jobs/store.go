package jobs

import (
	"strings"
	"sync"
	"sync/atomic"
)

// Store limits used when StoreOptions leaves them zero.
const (
	DefaultMaxLines     = 10_000
	DefaultMaxBytes     = 16 << 20
	DefaultMaxLineBytes = 16 << 10
)

// Line is one line of a job's output.
type Line struct {
	// Seq numbers committed lines from 1, across runs; 0 for a partial line.
	Seq    uint64 `json:"seq"`
	Stream Stream `json:"stream"`
	Text   string `json:"text"`
	// Arrival orders lines across all the jobs of one Manager: lines
	// from a later read have a larger Arrival, whichever job wrote them;
	// lines from one read share it (order those by Seq). 0 for a partial
	// line.
	Arrival uint64 `json:"arrival,omitempty"`
}

// Chunk is the answer to a cursor read.
type Chunk struct {
	// Lines are the committed lines after the cursor, oldest first.
	Lines []Line
	// Next is the cursor to pass next time: the Seq of the last line
	// returned, or the cursor given when nothing was returned.
	Next uint64
	// Dropped counts lines between the cursor and Lines[0] that the store
	// no longer holds.
	Dropped uint64
	// Partial holds the lines being built (no newline yet), at most one per
	// stream. They are not covered by the cursor: a later read returns them
	// again, complete, once their newline arrives.
	Partial []Line
}

// StoreStats describes a store's content.
type StoreStats struct {
	First    uint64 // Seq of the oldest line held (Last+1 when empty)
	Last     uint64 // Seq of the newest committed line (0 when none)
	Dropped  uint64 // lines evicted by the bounds
	Bytes    int64  // bytes appended in all
	Retained int    // lines held
}

// OutputReader is the read side of a job's output: what a UI or an API
// client needs. *OutputStore implements it.
type OutputReader interface {
	ReadAfter(cursor uint64, max int) Chunk
	Tail(n int) Chunk
	Stats() StoreStats
	LastLine() string
}

// StoreOptions bound an OutputStore. Zero fields take the defaults.
type StoreOptions struct {
	MaxLines     int
	MaxBytes     int
	MaxLineBytes int
}

// OutputStore keeps the newest lines of a job's output within a line and a
// byte bound. It is safe for one writer and many readers at once; each
// reader keeps its own cursor.
type OutputStore struct {
	mu       sync.Mutex
	opts     StoreOptions
	ring     []entry // circular; grows up to opts.MaxLines
	head     int     // index of the oldest line in ring
	n        int     // lines held
	held     int     // text bytes held
	nextSeq  uint64
	dropped  uint64
	total    int64
	partial  [2]partialLine // stdout, stderr
	lastPart Stream         // stream whose partial was touched last
	slabs    slabPool
	clock    *atomic.Uint64 // shared by a Manager's stores, for Arrival
	arrival  uint64         // Arrival of the lines the current call commits
}

// entry is a held line and the slab its text lies in (nil: its own).
type entry struct {
	Line
	slab *slab
}

// copied is the line with its text copied out of its slab, safe to hand
// out: slab bytes are rewritten when the slab is reused.
func (e entry) copied() Line {
	if e.slab != nil {
		e.Text = strings.Clone(e.Text)
	}
	return e.Line
}

// index maps a position among the held lines (0: oldest) to the ring.
func (s *OutputStore) index(i int) int {
	i += s.head
	if i >= len(s.ring) {
		i -= len(s.ring)
	}
	return i
}

type partialLine struct {
	buf []byte
	cr  bool // a "\r" arrived and was not yet followed by anything
}

// NewOutputStore returns an empty store.
func NewOutputStore(o StoreOptions) *OutputStore {
	if o.MaxLines <= 0 {
		o.MaxLines = DefaultMaxLines
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.MaxLineBytes > o.MaxBytes {
		o.MaxLineBytes = o.MaxBytes
	}
	return &OutputStore{opts: o, nextSeq: 1, clock: new(atomic.Uint64)}
}

// Append adds raw output from one stream (Stdout or Stderr).
func (s *OutputStore) Append(stream Stream, p []byte) {
	if stream != Stderr {
		stream = Stdout
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.arrival = s.clock.Add(1)
	s.total += int64(len(p))
	// One copy per call, into a slab: committed lines are substrings of
	// it, so a chunk of many lines costs no allocation of its own.
	chunk, sl := s.slabs.put(p)
	pl := &s.partial[stream]
	s.lastPart = stream
	for len(chunk) > 0 {
		if pl.cr {
			switch chunk[0] {
			case '\n':
				pl.cr = false
				s.commitPartial(stream)
				chunk = chunk[1:]
				continue
			case '\r':
				chunk = chunk[1:]
				continue
			}
			pl.cr = false
			pl.buf = pl.buf[:0]
		}
		i := indexLineEnd(chunk)
		if i < 0 {
			s.extendPartial(stream, chunk)
			return
		}
		if len(pl.buf) == 0 && i <= s.opts.MaxLineBytes {
			if chunk[i] == '\n' {
				s.commit(stream, chunk[:i], sl)
			} else {
				pl.buf = append(pl.buf, chunk[:i]...)
				pl.cr = true
			}
		} else {
			s.extendPartial(stream, chunk[:i])
			if chunk[i] == '\n' {
				s.commitPartial(stream)
			} else {
				pl.cr = true
			}
		}
		chunk = chunk[i+1:]
	}
}

// indexLineEnd finds the first '\n' or '\r'.
func indexLineEnd(s string) int {
	nl := strings.IndexByte(s, '\n')
	scan := s
	if nl >= 0 {
		scan = s[:nl]
	}
	if cr := strings.IndexByte(scan, '\r'); cr >= 0 {
		return cr
	}
	return nl
}

// extendPartial adds text to the stream's partial line, committing full
// MaxLineBytes pieces as lines so a line without newline is never held whole.
func (s *OutputStore) extendPartial(stream Stream, text string) {
	pl := &s.partial[stream]
	for len(pl.buf)+len(text) > s.opts.MaxLineBytes {
		room := s.opts.MaxLineBytes - len(pl.buf)
		pl.buf = append(pl.buf, text[:room]...)
		text = text[room:]
		s.commitPartial(stream)
	}
	pl.buf = append(pl.buf, text...)
}

func (s *OutputStore) commitPartial(stream Stream) {
	pl := &s.partial[stream]
	s.commit(stream, string(pl.buf), nil)
	pl.buf = pl.buf[:0]
	pl.cr = false
}

// commit adds a complete line and evicts the oldest lines past the bounds.
func (s *OutputStore) commit(stream Stream, text string, sl *slab) {
	if s.n == len(s.ring) {
		if len(s.ring) < s.opts.MaxLines {
			s.grow()
		} else {
			// The oldest slot is written next: no need to clear it.
			s.evict(false)
		}
	}
	s.ring[s.index(s.n)] = entry{Line{Seq: s.nextSeq, Stream: stream, Text: text, Arrival: s.arrival}, sl}
	if sl != nil {
		sl.lines++
	}
	s.nextSeq++
	s.n++
	s.held += len(text)
	for s.held > s.opts.MaxBytes && s.n > 1 {
		s.evict(true)
	}
}

func (s *OutputStore) grow() {
	size := 2 * len(s.ring)
	if size < 64 {
		size = 64
	}
	if size > s.opts.MaxLines {
		size = s.opts.MaxLines
	}
	ring := make([]entry, size)
	for i := 0; i < s.n; i++ {
		ring[i] = s.ring[s.index(i)]
	}
	s.ring = ring
	s.head = 0
}

// evict drops the oldest line; clear also releases its text for the
// garbage collector.
func (s *OutputStore) evict(clear bool) {
	old := &s.ring[s.head]
	s.held -= len(old.Text)
	if old.slab != nil {
		s.slabs.release(old.slab)
	}
	if clear {
		*old = entry{}
	}
	s.head = s.index(1)
	s.n--
	s.dropped++
}

// AppendMeta commits a line written by jobtop itself (e.g. a restart
// marker). Lines being built on either stream are committed first.
func (s *OutputStore) AppendMeta(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.arrival = s.clock.Add(1)
	s.flushLocked()
	s.commit(Meta, text, nil)
}

// Flush commits the lines being built, as at the end of a run.
func (s *OutputStore) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.arrival = s.clock.Add(1)
	s.flushLocked()
}

func (s *OutputStore) flushLocked() {
	for _, st := range []Stream{Stdout, Stderr} {
		if len(s.partial[st].buf) > 0 {
			s.commitPartial(st)
		}
		s.partial[st].cr = false
	}
}

// ReadAfter returns up to max committed lines with Seq greater than cursor
// (max <= 0 means no limit), plus the lines being built.
func (s *OutputStore) ReadAfter(cursor uint64, max int) Chunk {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := s.nextSeq - uint64(s.n)
	c := Chunk{Next: cursor}
	start := cursor + 1
	if start < first {
		c.Dropped = first - start
		start = first
	}
	if start < s.nextSeq {
		count := s.nextSeq - start
		if max > 0 && count > uint64(max) {
			count = uint64(max)
		}
		c.Lines = s.copyLines(int(start-first), int(count))
		c.Next = start + count - 1
	} else if c.Dropped > 0 {
		c.Next = start - 1
	}
	c.Partial = s.partialsLocked()
	return c
}

// Tail returns the newest n committed lines (all when n <= 0) and the
// lines being built. Next is the newest line's Seq.
func (s *OutputStore) Tail(n int) Chunk {
	s.mu.Lock()
	defer s.mu.Unlock()
	count := s.n
	if n > 0 && n < count {
		count = n
	}
	return Chunk{
		Lines:   s.copyLines(s.n-count, count),
		Next:    s.nextSeq - 1,
		Partial: s.partialsLocked(),
	}
}

func (s *OutputStore) copyLines(offset, count int) []Line {
	if count <= 0 {
		return nil
	}
	out := make([]Line, count)
	for i := range out {
		out[i] = s.ring[s.index(offset+i)].copied()
	}
	return out
}

func (s *OutputStore) partialsLocked() []Line {
	var out []Line
	for _, st := range []Stream{Stdout, Stderr} {
		if len(s.partial[st].buf) > 0 {
			out = append(out, Line{Stream: st, Text: string(s.partial[st].buf)})
		}
	}
	return out
}

// Stats describes what the store holds.
func (s *OutputStore) Stats() StoreStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return StoreStats{
		First:    s.nextSeq - uint64(s.n),
		Last:     s.nextSeq - 1,
		Dropped:  s.dropped,
		Bytes:    s.total,
		Retained: s.n,
	}
}

// LastLine is the newest text: the line being built on the stream written
// last, or else the newest committed line.
func (s *OutputStore) LastLine() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.partial[s.lastPart].buf; len(p) > 0 {
		return string(p)
	}
	if s.n == 0 {
		return ""
	}
	return s.ring[s.index(s.n-1)].copied().Text
}
