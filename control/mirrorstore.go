package control

import (
	"sync"
	"time"
	"unsafe"

	"jobtop/jobs"
	"jobtop/termtext"
)

// A mirror keeps per job at most what the server's store keeps by
// default: its newest lines, within a bound of text.
const (
	mirrorLines = jobs.DefaultMaxLines
	mirrorBytes = jobs.DefaultMaxBytes
)

// Text is packed into chunks of a sixteenth of what the job holds, from
// mirrorChunkMin to mirrorChunkMax (a longer line gets a chunk of its own
// size): the chunk being filled and the oldest one, part evicted, waste
// at most about an eighth of the text.
const (
	mirrorChunkMin = 4 << 10
	mirrorChunkMax = 32 << 10
)

// mirrorStore is a client-side copy of a job's output: the newest lines,
// numbered as on the server, always contiguous. It implements
// jobs.OutputReader, so a TUI reads it exactly like an in-process store.
// When the mirror falls behind past what it fetches at once, it restarts
// from the server's tail and counts the gap as dropped, until a backfill
// (mirrorbackfill.go) prepends the older lines the server still holds.
//
// It holds a line in about its own size, as the server's store does:
// the text is copied into chunks written once (a decoded JSON string
// costs its size class, and a jobs.Line 40 bytes more), and the index is
// a ring of 24-byte entries, so an evicted line's text goes with its
// chunk, and nothing behind the ring keeps it alive. Reads copy the text
// out, so no line handed to a reader pins a chunk.
type mirrorStore struct {
	mu       sync.Mutex
	ring     []mirrorEntry // circular; grows up to mirrorLines
	head     int           // index of the oldest line in ring
	n        int           // lines held
	first    uint64        // Seq of the oldest line, or of the next line when empty
	text     int64         // bytes of text held
	chunk    *mirrorChunk  // the chunk being filled
	chunks   int64         // bytes of the chunks held lines use, and of chunk
	partial  []jobs.Line
	cursor   *int // the server's cursor column on partial's stdout line
	hidden   bool // the job's program hid its cursor
	bytes    int64
	lastLine string
	full     bool      // an older line did not fit: no backfill until a reset
	jumped   time.Time // when the mirror last dropped held lines to jump to a tail
}

// mirrorChunk holds the text of consecutive lines. Bytes up to len(buf)
// are written once and never again.
type mirrorChunk struct{ buf []byte }

// mirrorEntry is a held line: where its text lies, its stream and its
// arrival. Its Seq follows from its place in the ring.
type mirrorEntry struct {
	chunk   *mirrorChunk
	off     uint32
	word    uint32 // text length << 2 | stream
	arrival uint64
}

// mirrorEntrySize is what the index costs per line.
const mirrorEntrySize = int64(unsafe.Sizeof(mirrorEntry{}))

func (e *mirrorEntry) size() int { return int(e.word >> 2) }

func (e *mirrorEntry) line(seq uint64) jobs.Line {
	return jobs.Line{
		Seq:     seq,
		Stream:  jobs.Stream(e.word & 3),
		Text:    string(e.chunk.buf[e.off : int(e.off)+e.size()]),
		Arrival: e.arrival,
	}
}

func newMirrorStore() *mirrorStore { return &mirrorStore{first: 1} }

// last is the Seq of the newest line held (first-1 when none).
func (s *mirrorStore) last() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.first + uint64(s.n) - 1
}

// at is the held line at position i (0: oldest).
func (s *mirrorStore) at(i int) *mirrorEntry {
	i += s.head
	if i >= len(s.ring) {
		i -= len(s.ring)
	}
	return &s.ring[i]
}

// apply adds a read from the server: lines after the ones held, or a
// later tail (then the held lines are dropped to keep them contiguous).
func (s *mirrorStore) apply(resp OutputResponse) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := s.first + uint64(s.n)
	for _, l := range resp.Lines {
		switch {
		case l.Seq < next:
			continue // already held
		case l.Seq > next:
			s.reset(l.Seq)
		}
		s.push(l)
		next = l.Seq + 1
	}
	if len(resp.Lines) == 0 && resp.NextCursor >= next {
		// The server moved past lines it no longer holds.
		s.reset(resp.NextCursor + 1)
	}
	s.partial = resp.Partial
	s.cursor, s.hidden = resp.Cursor, resp.CursorHidden
}

// reset drops every held line; the next one is first. The ring goes too:
// a tail read after a jump holds fewer lines than it had room for.
func (s *mirrorStore) reset(first uint64) {
	if s.n > 0 {
		s.jumped = time.Now()
	}
	for s.n > 0 {
		s.evict()
	}
	s.ring, s.head = nil, 0
	if s.chunk != nil {
		s.chunks -= int64(cap(s.chunk.buf))
		s.chunk = nil
	}
	s.first = first
	s.full = false
}

// push appends the line after the newest held, evicting the oldest past
// the bounds.
func (s *mirrorStore) push(l jobs.Line) {
	text := l.Text
	if len(text) > mirrorBytes {
		text = text[:mirrorBytes]
	}
	for s.n > 0 && (s.n >= mirrorLines || s.text+int64(len(text)) > mirrorBytes) {
		s.evict()
	}
	if s.n == len(s.ring) {
		s.grow(s.n + 1)
	}
	c := s.chunk
	if c == nil || cap(c.buf)-len(c.buf) < len(text) {
		size := min(max(s.text/16, mirrorChunkMin), mirrorChunkMax)
		c = &mirrorChunk{buf: make([]byte, 0, max(int64(len(text)), size))}
		s.chunk = c
		s.chunks += int64(cap(c.buf))
	}
	off := len(c.buf)
	c.buf = append(c.buf, text...)
	*s.at(s.n) = mirrorEntry{chunk: c, off: uint32(off), word: uint32(len(text))<<2 | uint32(l.Stream&3), arrival: l.Arrival}
	s.n++
	s.text += int64(len(text))
}

// evict drops the oldest line; its chunk goes with the last line in it.
func (s *mirrorStore) evict() {
	e := s.at(0)
	c := e.chunk
	s.text -= int64(e.size())
	*e = mirrorEntry{}
	s.head++
	if s.head == len(s.ring) {
		s.head = 0
	}
	s.n--
	s.first++
	if c != s.chunk && (s.n == 0 || s.at(0).chunk != c) {
		s.chunks -= int64(cap(c.buf))
	}
}

// grow makes the ring a quarter larger (at least n), up to mirrorLines,
// oldest line first: its room to spare costs at most 6 bytes a line held.
func (s *mirrorStore) grow(n int) {
	ring := make([]mirrorEntry, min(max(len(s.ring)+len(s.ring)/4, 64, n), mirrorLines))
	for i := range s.n {
		ring[i] = *s.at(i)
	}
	s.ring, s.head = ring, 0
}

// backfillPage is the page of older lines a backfill reads next: the
// lines after cursor, up to max, which end just before the oldest held.
// max is 0 when the store holds every line the server does (first is the
// server's oldest), or has no room left for older lines; or, with wait,
// when the mirror jumped to a tail less than mirrorBackfillQuiet before
// now: a job that outruns it makes it jump again, and a page read before
// that would be dropped with the rest, so it is read once the job calms
// down.
func (s *mirrorStore) backfillPage(first uint64, pageLines int, now time.Time) (cursor uint64, max int, wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.full || s.first <= first || s.n >= mirrorLines || s.text >= mirrorBytes {
		return 0, 0, 0
	}
	if since := now.Sub(s.jumped); since < mirrorBackfillQuiet {
		return 0, 0, mirrorBackfillQuiet - since
	}
	want := min(s.first-first, uint64(mirrorLines-s.n), uint64(pageLines))
	if s.n > 0 {
		// Lines of about the size of those held: read no more than fit.
		size := s.text/int64(s.n) + 1
		want = min(want, uint64((mirrorBytes-s.text)/size+1))
	}
	return s.first - 1 - want, int(want), 0
}

// prepend adds older lines before the oldest held, as a backfill read
// them: the lines that end just before the oldest held, contiguous (lines
// from it on are ignored; lines that do not reach it are not added, as
// the store moved on meanwhile). It fills only the room the bounds leave,
// newest lines first, as new lines always win; once a line does not fit,
// the store takes no more older lines. Their text goes into chunks of its
// own, so evicting frees them as it frees any. It returns how many lines
// it added.
func (s *mirrorStore) prepend(lines []jobs.Line) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	end := len(lines)
	for end > 0 && lines[end-1].Seq >= s.first {
		end--
	}
	if end == 0 || lines[end-1].Seq != s.first-1 {
		return 0
	}
	start := end - 1
	for start > 0 && lines[start-1].Seq+1 == lines[start].Seq {
		start--
	}
	lines = lines[start:end]
	k, size := 0, int64(0)
	for i := len(lines) - 1; i >= 0; i-- {
		text := int64(min(len(lines[i].Text), mirrorBytes))
		if s.n+k >= mirrorLines || s.text+size+text > mirrorBytes {
			s.full = true
			break
		}
		k++
		size += text
	}
	if k == 0 {
		return 0
	}
	lines = lines[len(lines)-k:]
	if s.n+k > len(s.ring) {
		s.grow(s.n + k)
	}
	s.head -= k
	if s.head < 0 {
		s.head += len(s.ring)
	}
	chunkSize := min(max((s.text+size)/16, mirrorChunkMin), mirrorChunkMax)
	left := size // text of the lines not yet copied
	var c *mirrorChunk
	for i, l := range lines {
		text := l.Text[:min(len(l.Text), mirrorBytes)]
		if c == nil || cap(c.buf)-len(c.buf) < len(text) {
			// The last chunk is cut to what is left: no room to spare.
			c = &mirrorChunk{buf: make([]byte, 0, max(int64(len(text)), min(chunkSize, left)))}
			s.chunks += int64(cap(c.buf))
		}
		off := len(c.buf)
		c.buf = append(c.buf, text...)
		left -= int64(len(text))
		*s.at(i) = mirrorEntry{chunk: c, off: uint32(off), word: uint32(len(text))<<2 | uint32(l.Stream&3), arrival: l.Arrival}
	}
	s.n += k
	s.text += size
	s.first -= uint64(k)
	return k
}

// memory is what the store keeps alive: its index, its chunks and the
// lines being built.
func (s *mirrorStore) memory() (text, memory int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	memory = int64(len(s.ring))*mirrorEntrySize + s.chunks
	for _, p := range s.partial {
		memory += int64(len(p.Text))
	}
	return s.text, memory
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
	end := s.first + uint64(s.n) // Seq after the newest
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
		c.Lines = s.copyLines(int(start-s.first), int(count))
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
	count := s.n
	if n > 0 && n < count {
		count = n
	}
	return jobs.Chunk{
		Lines:   s.copyLines(s.n-count, count),
		Next:    s.first + uint64(s.n) - 1,
		Partial: s.partialCopy(),
	}
}

// copyLines returns count held lines from position from (0: oldest).
func (s *mirrorStore) copyLines(from, count int) []jobs.Line {
	if count == 0 {
		return nil
	}
	out := make([]jobs.Line, count)
	for i := range out {
		out[i] = s.at(from + i).line(s.first + uint64(from+i))
	}
	return out
}

// Stats describes the mirror's content; Bytes is the server's count.
func (s *mirrorStore) Stats() jobs.StoreStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return jobs.StoreStats{
		First:    s.first,
		Last:     s.first + uint64(s.n) - 1,
		Dropped:  s.first - 1,
		Bytes:    s.bytes,
		Retained: s.n,
		Text:     s.text,
		Memory:   int64(len(s.ring))*mirrorEntrySize + s.chunks,
	}
}

// LastLine is the newest text, as the server last reported it.
func (s *mirrorStore) LastLine() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastLine
}

// PartialCursor is the column of the cursor on the line being built on
// stream, as the instance said with it (jobs.OutputStore.PartialCursor);
// after the line's text when it did not say (an older instance).
func (s *mirrorStore) PartialCursor(stream jobs.Stream) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cursor != nil && stream == jobs.Stdout {
		return *s.cursor
	}
	for _, l := range s.partial {
		if l.Stream == stream {
			return termtext.Width(l.Text)
		}
	}
	return 0
}

// CursorHidden reports whether the job's program hid its cursor, as the
// instance said with its last output (jobs.OutputStore.CursorHidden).
func (s *mirrorStore) CursorHidden() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hidden
}

func (s *mirrorStore) partialCopy() []jobs.Line {
	if len(s.partial) == 0 {
		return nil
	}
	return append([]jobs.Line(nil), s.partial...)
}
