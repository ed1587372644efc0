package jobs

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	// Seq numbers committed lines from 1, across runs; 0 for a partial line.
	Seq    uint64 `json:"seq"`
	Stream Stream `json:"stream"`
	Text   string `json:"text"`
	// Arrival orders lines across all the jobs of one Manager: a line
	// committed later has a larger Arrival, whichever job wrote it, and no
	// two lines share one (numbers may be skipped). 0 for a partial line.
	Arrival uint64 `json:"arrival,omitempty"`
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
	// 2 ──", a stop command's): Last-Meta lines are the job's.
	Meta uint64
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
	slabs    slabPool
	clock    *atomic.Uint64 // shared by a Manager's stores, for Arrival
	arrivals arrivalBlock

	// cursorHidden: the terminal's program hid its cursor (CursorHidden).
	cursorHidden atomic.Bool

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
				pl.cr = true
			case esc:
				s.commitLine(stream, p[:i], esc)
			default: // no colours to look for: most output
				s.commit(stream, p[:i])
			}
		} else {
			s.extendPartial(stream, p[:i])
			if p[i] == '\n' {
				s.commitPartial(stream)
				pl.esc = esc
			} else {
				pl.cr = true
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

// lineEnds finds where the lines of one chunk end, in the chunk's
// suffixes that Append reads it by (p[i+1:] after each), looking at each
// byte for a "\n" once. A chunk of many "\r" and no "\n" (a progress
// bar redrawn on every item, text with CR line ends) was scanned to its
// end for a "\n" at every "\r": 2 MiB of "x\r" took 4 s of CPU.
type lineEnds struct {
	size int  // the chunk's length: a suffix p starts at size-len(p)
	nl   int  // the chunk's next "\n" found, -1 none left, notLooked
	cr   bool // whether the chunk holds a "\r"
}

// notLooked is lineEnds.nl before the first look for a "\n".
const notLooked = -2

// next is where the first line of p (a suffix of the chunk) ends: its
// "\n", or a "\r" before it; -1 when it does not end in p.
func (e *lineEnds) next(p []byte) int {
	at := e.size - len(p)
	if e.nl == notLooked || e.nl >= 0 && e.nl < at {
		e.nl = bytes.IndexByte(p, '\n')
		if e.nl >= 0 {
			e.nl += at
		}
	}
	nl := -1
	if e.nl >= 0 {
		nl = e.nl - at
	}
	if e.cr {
		scan := p
		if nl >= 0 {
			scan = p[:nl]
		}
		if cr := bytes.IndexByte(scan, '\r'); cr >= 0 {
			return cr
		}
	}
	return nl
}

// maxCarry bounds the unfinished escape sequence (or UTF-8 character) a
// long line's cut carries over to its next piece: one that started
// further back than that (an OSC string of megabytes) is cut inside.
const maxCarry = 4 << 10

// extendPartial adds text to the stream's partial line, committing full
// MaxLineBytes pieces as lines so a line without newline is never held whole.
func (s *OutputStore) extendPartial(stream Stream, text []byte) {
	pl := &s.partial[stream]
	for len(pl.buf)+len(text) > s.opts.MaxLineBytes {
		room := s.opts.MaxLineBytes - len(pl.buf)
		s.appendPartial(pl, text[:room])
		text = text[room:]
		s.cutPartial(stream, pl)
	}
	s.appendPartial(pl, text)
}

// cutPartial cuts a full partial line (MaxLineBytes): the piece before
// the cut is committed as a line, the rest starts the next. The cut is
// at the line's end, or before an escape sequence or UTF-8 character the
// line's end leaves unfinished (termtext.Unfinished: its rest would read
// as text, "3m", or as U+FFFD), which goes on to the next piece, when it
// started at most maxCarry bytes back and the piece keeps some of the
// job's bytes. The next piece starts with the colours in effect at the
// cut (termtext.Pen), a pipe's as a terminal's, so it is drawn as the
// job drew it (they are in the piece: it hands on no pen of its own);
// and a piece with line edits (a spinner's backspaces, hasEdits) is
// played instead, as a "\r" plays a line, when what it shows takes at
// most half a line: the line goes on, its thousands of frames kept as one.
func (s *OutputStore) cutPartial(stream Stream, pl *partialLine) {
	cut := len(pl.buf)
	// Only the last maxCarry bytes are read (a long line is not read
	// twice), from wherever they start: inside a string that began
	// before them, its body reads as text, which may at worst cut
	// earlier than needed; no byte is lost either way.
	from := max(pl.kept, cut-maxCarry)
	if u := from + termtext.Unfinished(unsafeString(pl.buf[from:])); u < cut && u > pl.kept {
		cut = u
	}
	if s.playPartial(pl, cut) {
		return
	}
	var pen []byte
	if pl.esc { // else it has no colours to carry
		pen = []byte(termtext.Pen(unsafeString(pl.buf[:cut])))
		if len(pen) >= cut || len(pen) > s.opts.MaxLineBytes/4 {
			pen = nil // the next piece must hold more than it (a tiny MaxLineBytes)
		}
	}
	s.commit(stream, pl.buf[:cut])
	// pen is no longer than the piece (it is some of its bytes), so the
	// rest is copied onto itself or back (copy is a memmove).
	n := copy(pl.buf, pen)
	n += copy(pl.buf[n:], pl.buf[cut:])
	pl.buf = pl.buf[:n]
	pl.kept = len(pen)
}

// playPartial replaces the piece of a partial line before cut by what it
// shows, its edits played, a move to the cursor's cell and the colours in
// effect there, when it has line edits (hasEdits) and that takes at most
// half a line's bytes; it reports whether it did.
func (s *OutputStore) playPartial(pl *partialLine, cut int) bool {
	if !s.hasEdits(pl.buf[:cut]) {
		return false
	}
	line, x, pen := termtext.EditLinePen(string(pl.buf[:cut]), s.cols)
	kept := line + "\x1b[" + strconv.Itoa(x+1) + "G" + pen
	if len(kept)+len(pl.buf)-cut > s.opts.MaxLineBytes/2 {
		return false
	}
	rest := string(pl.buf[cut:]) // kept may be longer than what it replaces
	pl.buf = append(append(pl.buf[:0], kept...), rest...)
	pl.kept = len(kept)
	return true
}

// unsafeString is b's bytes as a string, for a scan that keeps none of it
// past b's next change.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// appendPartial adds text to a partial line, whose buffer grows by
// doubling up to MaxLineBytes and no further.
func (s *OutputStore) appendPartial(pl *partialLine, text []byte) {
	if need := len(pl.buf) + len(text); need > cap(pl.buf) {
		buf := make([]byte, len(pl.buf), min(max(need, 2*cap(pl.buf), 64), s.opts.MaxLineBytes))
		copy(buf, pl.buf)
		pl.buf = buf
	}
	pl.buf = append(pl.buf, text...)
}

func (s *OutputStore) commitPartial(stream Stream) {
	pl := &s.partial[stream]
	s.commitLine(stream, pl.buf, pl.esc)
	pl.buf = pl.buf[:0]
	pl.cr = false
	pl.kept = 0
	pl.esc = false
}

// takePen starts the stream's line being built, empty, with the pen the
// line before left (if any): the job is writing some of the line.
func (s *OutputStore) takePen(pl *partialLine) {
	if len(pl.pen) == 0 {
		return
	}
	if len(pl.buf) == 0 { // always: a pen waits only while the line is empty
		s.appendPartial(pl, pl.pen)
		pl.kept = len(pl.pen)
		pl.esc = true
	}
	pl.pen = pl.pen[:0]
}

// commitLine commits a line of the job's (not a meta line) and keeps
// the colours in effect at its end as the pen of the stream's next line
// (a terminal's after its edits are played: termtext.EditLineEnd), as a
// terminal draws "\e[31mline1\nline2\e[0m" with line2 red. esc says
// the line may hold an escape sequence; one that does not sets no
// colours, and a line that left the pen waiting (an empty one) leaves
// it for the next. A pen too long for a line to hold more than it is
// dropped, as a long line's cut drops it.
func (s *OutputStore) commitLine(stream Stream, text []byte, esc bool) {
	pl := &s.partial[stream]
	if !esc || len(pl.pen) > 0 {
		s.commit(stream, text)
		return
	}
	s.lastOpen = false
	s.placed = s.terminal && termtext.PlacesCursor(text)
	shown, pen := s.shownPen(text)
	s.keep(stream, shown)
	if len(pen) <= s.opts.MaxLineBytes/4 {
		pl.pen = append(pl.pen[:0], pen...) // before text's bytes change
	}
}

// SetTerminal says whether the output is a terminal's (a TTY job's): then
// a line is kept as the terminal showed it once its line editor was done
// (backspaces, cursor moves and erases along the line played:
// termtext.EditLine), and so is the line being built: its text and
// colours (SGR), nothing else a terminal does not print (mode changes,
// cursor moves, titles, queries, charset switches, controls). The log
// file keeps them; a line is what is read back (search, --until, logs).
// What a run's end or a clear cuts of a line that shows nothing (only
// such sequences: vim's title restore at its exit) is no line at all.
// An erase with a background colour set shows that colour, as a
// terminal does (termtext.EditLineIn): "\e[41m\e[K" is a red bar the
// terminal's width, kept as cols blanks on red, a line that shows
// something.
//
// cols is the terminal's width: a "\r" goes back to the start of the row
// the cursor is on, so a line that wrapped (a long command typed at a
// shell's prompt, which readline follows with "\r" at the wrap) keeps
// its rows before that one.
func (s *OutputStore) SetTerminal(on bool, cols int) {
	s.mu.Lock()
	s.terminal, s.cols = on, cols
	s.mu.Unlock()
}

// carriageReturn is a "\r" with more of the line after it. Off a
// terminal, the line starts again (a progress bar's next frame), in the
// colours in effect. On one,
// the cursor goes back to the start of the row it is on, over the text
// there (a line editor moves right over the prompt, or rewrites the row
// a long line wrapped to): the line is kept as it shows, edits played, and
// a move to that column, and the colours in effect (termtext.EditLinePen:
// text written over a red bar after "\r" is on red), so it stays no
// longer than the line it shows.
func (s *OutputStore) carriageReturn(pl *partialLine) {
	if s.terminal {
		line, x, pen := termtext.EditLinePen(string(pl.buf), s.cols)
		start := 0
		if s.cols > 0 && x > 0 {
			start = (x - 1) / s.cols * s.cols
		}
		if kept := line + "\x1b[" + strconv.Itoa(start+1) + "G" + pen; len(kept) <= s.opts.MaxLineBytes {
			pl.buf = pl.buf[:0]
			s.appendPartial(pl, []byte(kept)) // its buffer within MaxLineBytes, as any
			pl.kept = len(kept)
			return
		}
	}
	// Off a terminal, or past the bound: the line starts again, in the
	// colours in effect (a yellow progress bar's next frame is yellow),
	// its edits played (a restore brings back the colours saved).
	pen := termtext.Pen(unsafeString(pl.buf))
	if !s.terminal && s.hasEdits(pl.buf) {
		_, played := termtext.EditLineEnd(string(pl.buf), s.cols)
		pen = termtext.Pen(played) // as Pen writes it
	}
	pl.buf = append(pl.buf[:0], pen...) // copy moves overlapping bytes right
	pl.kept = len(pen)
}

// hasEdits reports whether a line holds line edits the store plays
// (termtext.EditLineIn): on a terminal, any (termtext.HasLineEdits); off
// one, moves of the cursor along the line, erases, a backspace
// (termtext.HasCursorEdits), so that a pipe's "abc\b\bZ" reads "aZc" and
// a spinner over a saved cursor ("\e7|\e8") is its last frame, as a
// terminal, and `jobtop screen`, show them. Its bells alone are no
// edits: they are kept, as written.
func (s *OutputStore) hasEdits(text []byte) bool {
	if s.terminal {
		return termtext.HasLineEdits(text)
	}
	return s.edits && termtext.HasCursorEdits(text)
}

// unfinishedCSI reports whether p ends inside what may be a control
// sequence (ESC, ESC [ and its parameters): a line edit whose rest comes
// in the next read, which HasCursorEdits sees in neither.
func unfinishedCSI(p []byte) bool {
	i := bytes.LastIndexByte(p, 0x1b)
	if i < 0 || len(p)-i > 16 {
		return false
	}
	if i == len(p)-1 {
		return true
	}
	if p[i+1] != '[' {
		return false
	}
	for _, c := range p[i+2:] {
		if (c < '0' || c > '9') && c != ';' {
			return false
		}
	}
	return true
}

// shown is a line's text as it is kept and read: its line edits played
// (hasEdits), unless that would make it longer than a line may be (then
// on a terminal its edits are dropped, not played; off one it is kept as
// written); and on a terminal what it prints (SGR kept), nothing else.
// Off a terminal, a line without edits is kept as written: a reader
// shows it safely (termtext.Visible).
func (s *OutputStore) shown(text []byte) []byte {
	if !s.terminal {
		if s.hasEdits(text) {
			if edited, _ := termtext.EditLineIn(string(text), s.cols); len(edited) <= s.opts.MaxLineBytes {
				return []byte(edited)
			}
		}
		return text
	}
	if termtext.HasLineEdits(text) {
		if edited, _ := termtext.EditLineIn(string(text), s.cols); len(edited) <= s.opts.MaxLineBytes {
			return []byte(edited)
		}
	} else if !termtext.HasHidden(text) {
		return text
	}
	return []byte(termtext.Printed(string(text), true))
}

// shownPen is shown(text) and the colours in effect at its end
// (termtext.Pen), with its edits played.
func (s *OutputStore) shownPen(text []byte) ([]byte, string) {
	if s.hasEdits(text) {
		if edited, pen := termtext.EditLineEnd(string(text), s.cols); len(edited) <= s.opts.MaxLineBytes {
			return []byte(edited), pen
		}
	} else if !s.terminal { // kept as written: no second look for edits
		return text, termtext.Pen(unsafeString(text))
	}
	shown := s.shown(text)
	return shown, termtext.Pen(unsafeString(shown))
}

// showsNothing reports whether the line being built on stream would show
// nothing on a terminal: it prints no cell, only sequences a terminal
// does not print, colours included (a run ending with a reset, as tput
// sgr0 writes), and moves of the cursor along the row ("\e[5C\e[0m"):
// wherever they leave the cursor, the row stays blank. A move followed
// by spaces prints them: that line shows something; a tab does not.
func (s *OutputStore) showsNothing(st Stream) bool {
	if !s.terminal {
		return false
	}
	shown := s.shown(s.partial[st].buf)
	// A tab moves the cursor, as "\e[5C" does; a space prints a blank.
	return len(shown) == 0 || strings.Trim(termtext.Printed(string(shown), false), "\t") == ""
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
		default:
			s.commitPartial(st)
		}
		s.partial[st].cr = false
	}
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
