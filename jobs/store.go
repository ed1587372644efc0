package jobs

import (
	"bytes"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"jobtop/termtext"
)

// Store limits used when StoreOptions leaves them zero.
const (
	DefaultMaxLines     = 10_000
	DefaultMaxBytes     = 16 << 20
	DefaultMaxLineBytes = 16 << 10
)

// maxLineBytesLimit is the longest line a store can hold: a line's length
// shares its index word with the stream.
const maxLineBytesLimit = 1 << 30

// Line is one line of a job's output.
type Line struct {
	// Seq numbers committed lines from 1, across runs; 0 for a partial
	// line, and left out of its JSON. A partial line has no number yet:
	// which one it gets is known only once it is committed (the other
	// stream's lines, jobtop's notes, or the pieces of a line too long
	// to keep whole may take the next ones first), and a reader that
	// kept the number it will have as its cursor would skip the line
	// once it is complete.
	Seq    uint64 `json:"seq,omitempty"`
	Stream Stream `json:"stream"`
	Text   string `json:"text"`
	// Arrival orders lines across all the jobs of one Manager: a line
	// committed later has a larger Arrival, whichever job wrote it, and no
	// two lines share one (numbers may be skipped). 0 for a partial line.
	Arrival uint64 `json:"arrival,omitempty"`
	// Redrawn marks a partial line a "\r" went back to the start of: a
	// progress bar, its Text the latest drawing, to be drawn over, not
	// added to. Committed lines never have it.
	Redrawn bool `json:"redrawn,omitempty"`
}

// Chunk is the answer to a cursor read.
type Chunk struct {
	// Lines are the committed lines after the cursor, oldest first.
	Lines []Line
	// Next is the cursor to pass next time: the Seq of the last line
	// returned or passed over, or the cursor given when there was none.
	Next uint64
	// Dropped counts lines between the cursor and Lines[0] that the store
	// no longer holds.
	Dropped uint64
	// More says lines that the read would select follow Next: it was cut
	// by its line or byte limit.
	More bool
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
	// Meta counts jobtop's own lines among the Last (a restart's "── run
	// 2 ──", a stop command's), and Cuts the pieces of lines longer than
	// MaxLineBytes committed before their line went on (all of a long
	// line's pieces but its last): Last-Meta-Cuts lines are the job's,
	// as it wrote them.
	Meta uint64
	Cuts uint64
	// Text is the bytes of text of the lines held.
	Text int64
	// Memory is every byte the store keeps alive for them: its slabs
	// counted whole, its spare, the line index and the lines being built.
	Memory int64
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
	MaxLines int
	// MaxBytes bounds the memory holding the lines' text, counted as it
	// is really kept alive (see StoreStats.Memory): the index of lines
	// (MaxLines of them at most) and one spare slab come on top.
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
	text     int     // text bytes held
	nextSeq  uint64
	dropped  uint64
	total    int64
	partial  [2]partialLine // stdout, stderr
	terminal bool           // a terminal's lines: line edits are played (SetTerminal)
	cols     int            // the terminal's width, for a "\r" on a wrapped line
	lastPart Stream         // stream whose partial was touched last
	lastOpen bool           // the newest line was committed at a run's end, mid-line (LastLineOpen)
	openX    int            // and the cell its cursor was in
	placed   bool           // the newest line of the job placed the cursor on a row (LastLinePlacesCursor)
	lastOwn  uint64         // Seq of the newest line the job wrote (not Meta); 0 for none
	meta     uint64         // Meta lines committed, held or dropped
	cuts     uint64         // pieces committed before their line ended (cutPartial)
	slabs    slabPool
	clock    *atomic.Uint64 // shared by a Manager's stores, for Arrival
	arrivals arrivalBlock

	// cursorHidden: the terminal's program hid its cursor (CursorHidden).
	cursorHidden atomic.Bool

	// lastAppend is when Append last took bytes (LastAppend).
	lastAppend time.Time

	// firstArrival is the Arrival of the first line the store took, and
	// droppedArrival that of the newest line it dropped (DroppedAfter).
	firstArrival, droppedArrival uint64

	// edits says a pipe's output had line edits this run (hasEdits):
	// until then its lines are not looked at for them, each once more.
	edits bool
}

// entry is a held line: where its text lies, its stream and its arrival.
// Its Seq follows from its place in the ring. It holds no pointer (see
// slabPool).
type entry struct {
	slab    uint32 // id in s.slabs; 0 for an empty line
	off     uint32
	word    uint32 // text length << 2 | stream
	arrival uint64
}

// entrySize is what the index costs per line.
const entrySize = int(unsafe.Sizeof(entry{}))

func (e *entry) size() int      { return int(e.word >> 2) }
func (e *entry) stream() Stream { return Stream(e.word & 3) }

// lineText is a held line's bytes in its slab: copy them before the
// store's lock is released, since slab bytes are rewritten when the slab
// is reused.
func (s *OutputStore) lineText(e *entry) []byte {
	if e.slab == 0 {
		return nil
	}
	return s.slabs.text(e.slab, e.off, e.size())
}

// index maps a position among the held lines (0: oldest) to the ring.
func (s *OutputStore) index(i int) int {
	i += s.head
	if i >= len(s.ring) {
		i -= len(s.ring)
	}
	return i
}

// at is the held line at position i (0: oldest).
func (s *OutputStore) at(i int) *entry { return &s.ring[s.index(i)] }

type partialLine struct {
	buf []byte
	cr  bool // a "\r" arrived and was not yet followed by anything
	// redrawn: a "\r" arrived since the line began (Line.Redrawn).
	redrawn bool
	// kept is how many of buf's first bytes restate what came before (a
	// long line's colours at its cut, its played edits): a cut leaves more.
	kept int
	// pen is the colours in effect at the end of the stream's last line
	// (termtext.Pen): a terminal keeps them from line to line, so the
	// stream's next line starts with them once the job writes some of it
	// (takePen). Until then buf is empty: a pen alone is no line.
	pen []byte
	// esc says buf may hold an escape sequence: only then is a line
	// committed from it read for its pen. Plain output never is.
	esc bool
	// charsets is the stream's character sets: text drawn in line
	// drawing is kept as the terminal draws it ("\e(0lqk" is "┌─┐"),
	// a pipe's as a terminal's; the log file keeps the bytes.
	charsets termtext.Charsets
}

// arrivalBlock hands out the Arrival numbers of the lines one call
// commits: a block reserved from the shared clock, so lines get their own
// numbers without an atomic operation each. What a call leaves of its
// block is given up when it returns, so every number at most the clock's
// value belongs to a line committed, or to a call holding its store's lock.
type arrivalBlock struct {
	next, end uint64 // numbers left: [next, end)
	want      uint64 // size of the block to reserve when it runs out
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
	o.MaxLineBytes = min(o.MaxLineBytes, o.MaxBytes, maxLineBytesLimit)
	return &OutputStore{opts: o, nextSeq: 1, clock: new(atomic.Uint64), slabs: newSlabPool(o.MaxBytes)}
}

// begin starts a call that commits lines: about lines of them.
func (s *OutputStore) begin(lines int) {
	s.arrivals = arrivalBlock{want: uint64(max(lines, 1))}
}

func (s *OutputStore) nextArrival() uint64 {
	a := &s.arrivals
	if a.next == a.end {
		end := s.clock.Add(a.want) + 1
		a.next, a.end = end-a.want, end
		a.want = max(a.want, 64)
	}
	a.next++
	return a.next - 1
}

// LastAppend is when Append last took bytes (what moved Stats().Bytes);
// zero when it never did.
func (s *OutputStore) LastAppend() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastAppend
}

// Append adds raw output from one stream (Stdout or Stderr).
func (s *OutputStore) Append(stream Stream, p []byte) {
	if stream != Stderr {
		stream = Stdout
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// A guess at the lines, not a count (that would be one more pass
	// over every byte): arrivals past it come in further blocks.
	s.begin(len(p)/32 + 2)
	s.total += int64(len(p))
	s.lastAppend = time.Now()
	pl := &s.partial[stream]
	s.lastPart = stream
	// Most output has no ESC: then no line of it sets colours, and none
	// is read for them, nor for a charset's designation.
	esc := bytes.IndexByte(p, 0x1b) >= 0
	designation, csiEdits := -1, false
	if esc {
		designation, csiEdits = termtext.ScanEscapes(p)
	}
	if esc || !pl.charsets.Plain() {
		p = pl.charsets.TranslateScanned(p, designation) // its ESCs kept: esc holds
	}
	// Most output has no "\r" at all: then a line ends at its "\n",
	// found in one pass.
	noCR := bytes.IndexByte(p, '\r') < 0
	ends := lineEnds{size: len(p), nl: notLooked, cr: !noCR}
	pl.esc = pl.esc || esc
	// Plain text off a terminal (no "\r", no ESC) needs none of the
	// work below: once no line is being built and no colours wait for
	// the next line, its whole lines are kept in one go.
	// A backspace is a line edit a pipe's line plays too (hasEdits):
	// no such run. A pipe's lines are looked at for edits only once its
	// output has had one (an edit begun at the read's end counts).
	backspace := !s.terminal && bytes.IndexByte(p, '\b') >= 0
	if !s.terminal && !s.edits {
		s.edits = backspace || csiEdits || esc && unfinishedCSI(p)
	}
	plain := noCR && !esc && !s.terminal && !backspace
	for len(p) > 0 {
		if plain && len(pl.buf) == 0 && len(pl.pen) == 0 {
			pl.redrawn = false // whole lines, then one with no "\r"
			if p = p[s.keepPlain(stream, p):]; len(p) == 0 {
				return
			}
		}
		if pl.cr {
			switch p[0] {
			case '\n':
				pl.cr = false
				s.commitPartial(stream)
				pl.esc = esc // what follows in buf is p's
				p = p[1:]
				continue
			case '\r':
				p = p[1:]
				continue
			}
			pl.cr = false
			s.takePen(pl)
			s.carriageReturn(pl)
		}
		i := ends.next(p)
		if i != 0 && len(pl.pen) > 0 { // some of the line's own text: in the pen
			s.takePen(pl)
		}
		if i < 0 {
			s.extendPartial(stream, p)
			return
		}
		if len(pl.buf) == 0 && i <= s.opts.MaxLineBytes {
			switch {
			case p[i] != '\n':
				s.appendPartial(pl, p[:i])
				pl.cr, pl.redrawn = true, true
			case esc:
				pl.redrawn = false
				s.commitLine(stream, p[:i], esc)
			default: // no colours to look for: most output
				pl.redrawn = false
				s.commit(stream, p[:i])
			}
		} else {
			s.extendPartial(stream, p[:i])
			if p[i] == '\n' {
				s.commitPartial(stream)
				pl.esc = esc
			} else {
				pl.cr, pl.redrawn = true, true
			}
		}
		p = p[i+1:]
	}
}

// keepPlain keeps the whole lines at the start of p, plain text (no
// "\r", no ESC) off a terminal, as commit would one by one, up to the
// first line longer than MaxLineBytes; it returns the bytes it took.
// Runs of lines go into a slab with one copy, their newlines with them
// (a slab is counted whole anyway), and each line costs the store only
// its index entry.
func (s *OutputStore) keepPlain(stream Stream, p []byte) int {
	maxLine := s.opts.MaxLineBytes
	sp := &s.slabs
	c := sp.cur
	base, seg, pos := 0, 0, 0 // lines p[seg:pos] go to c.buf[base:]
	if c != nil {
		base = c.used
	}
	for pos < len(p) {
		i := bytes.IndexByte(p[pos:], '\n')
		if i < 0 || i > maxLine {
			break
		}
		if i > 0 && (c == nil || base+pos+i-seg > len(c.buf)) {
			if c != nil {
				c.used = base + copy(c.buf[base:], p[seg:pos])
			}
			c = sp.fresh(i)
			base, seg = c.used, pos
		}
		var slot *entry
		if s.n < len(s.ring) || len(s.ring) < s.opts.MaxLines {
			if s.n == len(s.ring) {
				s.grow()
			}
			slot = s.at(s.n)
			s.n++
		} else { // full: the line takes the oldest one's place (evict)
			slot = &s.ring[s.head]
			s.droppedArrival = slot.arrival
			s.text -= slot.size()
			if slot.slab != 0 {
				sp.release(slot.slab)
			}
			if s.head++; s.head == len(s.ring) {
				s.head = 0
			}
			s.dropped++
		}
		*slot = entry{word: uint32(i)<<2 | uint32(stream), arrival: s.nextArrival()}
		if i > 0 {
			slot.slab, slot.off = c.id, uint32(base+pos-seg)
			c.lines++
		}
		if s.nextSeq == 1 {
			s.firstArrival = slot.arrival
		}
		s.lastOwn = s.nextSeq
		s.nextSeq++
		s.text += i
		for sp.held > s.opts.MaxBytes && s.n > 1 {
			s.evict()
		}
		pos += i + 1
	}
	if c != nil && pos > seg {
		c.used = base + copy(c.buf[base:], p[seg:pos])
	}
	if pos > 0 {
		s.lastOpen, s.placed = false, false
	}
	return pos
}

// commit copies a complete line into the slabs and evicts the oldest
// lines past the bounds.
func (s *OutputStore) commit(stream Stream, text []byte) {
	s.lastOpen = false
	if stream != Meta {
		s.placed = s.terminal && termtext.PlacesCursor(text)
	}
	s.keep(stream, s.shown(text))
}

// keep stores a line's text as it is kept (shown).
func (s *OutputStore) keep(stream Stream, text []byte) {
	if stream != Meta {
		s.lastOwn = s.nextSeq
	} else {
		s.meta++
	}
	if s.n == len(s.ring) {
		if len(s.ring) < s.opts.MaxLines {
			s.grow()
		} else {
			s.evict()
		}
	}
	e := entry{word: uint32(len(text))<<2 | uint32(stream), arrival: s.nextArrival()}
	if len(text) > 0 {
		sl, off := s.slabs.put(text)
		sl.lines++
		e.slab, e.off = sl.id, off
	}
	*s.at(s.n) = e
	if s.nextSeq == 1 {
		s.firstArrival = e.arrival
	}
	s.nextSeq++
	s.n++
	s.text += len(text)
	for s.slabs.held > s.opts.MaxBytes && s.n > 1 {
		s.evict()
	}
}

func (s *OutputStore) grow() {
	size := min(max(2*len(s.ring), 64), s.opts.MaxLines)
	ring := make([]entry, size)
	for i := 0; i < s.n; i++ {
		ring[i] = *s.at(i)
	}
	s.ring = ring
	s.head = 0
}

// evict drops the oldest line.
func (s *OutputStore) evict() {
	old := s.at(0)
	s.droppedArrival = old.arrival
	s.text -= old.size()
	if old.slab != 0 {
		s.slabs.release(old.slab)
	}
	*old = entry{}
	s.head = s.index(1)
	s.n--
	s.dropped++
}

// AppendMeta commits a line written by jobtop itself (e.g. a restart
// marker). Lines being built on either stream are committed first.
func (s *OutputStore) AppendMeta(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.begin(3)
	s.flushLocked()
	s.commit(Meta, []byte(text[:min(len(text), s.opts.MaxLineBytes)]))
}

// Skip counts output that is not kept as lines (a full-screen program's
// drawing on the alternate screen): Stats().Bytes includes it.
func (s *OutputStore) Skip(n int) {
	s.mu.Lock()
	s.total += int64(n)
	s.mu.Unlock()
}

// BreakLine commits the lines being built, if any, as newlines would: a
// TTY job's full-screen session starts and ends on a line of its own.
// With keepCursor (a clear that does not move the cursor) the cursor
// stays in the newest of them (LastLineOpen).
func (s *OutputStore) BreakLine(keepCursor bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.begin(2)
	s.flushOpenLocked(keepCursor)
}

// LastLineOpen reports whether the newest line was committed without its
// newline, the run having ended while it was being written, so a
// terminal's cursor is still in it; and at which cell (as PartialCursor
// was).
func (s *OutputStore) LastLineOpen() (open bool, x int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastOpen, s.openX
}

// Flush commits the lines being built, as at the end of a run, and lets
// go of what only writing needs: the spare slab, the partial buffers, the
// room the text and the index had for more. What the store then keeps
// alive is its text and index, with no slack.
func (s *OutputStore) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.begin(2)
	s.flushOpenLocked(true)
	for i := range s.partial {
		s.partial[i] = partialLine{} // a new run starts with no pen
	}
	s.edits = false // its lines are played: the next run's are new
	s.repack()
}

// repack copies the held lines' text into new slabs, each as full as the
// lines allow and the last cut to size, and the index into a ring of
// their number.
func (s *OutputStore) repack() {
	old := s.slabs
	s.slabs = newSlabPool(s.opts.MaxBytes)
	s.slabs.next = s.slabs.maxSize
	var cur *slab
	ring := make([]entry, s.n)
	for i := range ring {
		e := *s.at(i)
		if e.slab != 0 {
			text := old.text(e.slab, e.off, e.size())
			if cur == nil || len(cur.buf)-cur.used < len(text) {
				cur = s.repackSlab(i)
			}
			e.off = uint32(cur.used)
			cur.used += copy(cur.buf[cur.used:], text)
			cur.lines++
			e.slab = cur.id
		}
		ring[i] = e
	}
	s.ring, s.head = ring, 0
}

// repackSlab starts a slab for repack at line i: the largest size, or the
// size of the text left when that is less (never less than line i).
func (s *OutputStore) repackSlab(i int) *slab {
	left := 0
	for k := i; k < s.n && left < s.slabs.maxSize; k++ {
		left += s.at(k).size()
	}
	sl := &slab{buf: make([]byte, max(min(left, s.slabs.maxSize), s.at(i).size()))}
	s.slabs.add(sl)
	s.slabs.cur = sl
	return sl
}

// flushOpenLocked commits the lines being built; with keepCursor the
// cursor stays in the newest of them (LastLineOpen), where its edits
// left it: stderr's is committed last.
func (s *OutputStore) flushOpenLocked(keepCursor bool) {
	open, x, some := false, 0, false
	// Of lines that show nothing: their colours colour what follows, and
	// with keepCursor the cursor stays in the column they moved it to.
	var colours [2][]byte
	for _, st := range []Stream{Stdout, Stderr} {
		switch {
		case len(s.partial[st].buf) == 0:
		case !s.showsNothing(st):
			open, x, some = keepCursor, s.partialCursorLocked(st), true
		default:
			colours[st] = []byte(termtext.Printed(string(s.shown(s.partial[st].buf)), true))
			if col := s.partialCursorLocked(st); keepCursor && col > 0 {
				colours[st] = append(colours[st], "\x1b["+strconv.Itoa(col+1)+"G"...)
			}
		}
	}
	s.flushLocked()
	for st, sgr := range colours {
		if pl := &s.partial[st]; len(sgr) > 0 { // a clear, not an end (Flush lets the buffers go)
			s.appendPartial(pl, sgr)
			pl.kept = len(sgr)
			pl.pen = pl.pen[:0] // the colours are in buf
			pl.esc = true
		}
	}
	if some { // else the newest line stays as it was
		s.lastOpen, s.openX = open, x
	}
}

// flushLocked commits the lines being built, but a terminal's that
// shows nothing: a terminal shows no line for it, and its colours are
// the pen of the stream's next line.
func (s *OutputStore) flushLocked() {
	for _, st := range []Stream{Stdout, Stderr} {
		switch pl := &s.partial[st]; {
		case len(pl.buf) == 0:
		case s.showsNothing(st):
			if pl.esc {
				if _, pen := s.shownPen(pl.buf); len(pen) <= s.opts.MaxLineBytes/4 {
					pl.pen = append(pl.pen[:0], pen...)
				}
			}
			pl.buf = pl.buf[:0]
			pl.kept = 0
			pl.esc = false
			pl.redrawn = false
		default:
			s.commitPartial(st)
		}
		s.partial[st].cr = false
	}
}
