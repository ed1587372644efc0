package jobs

import (
	"bytes"
	"strconv"
	"strings"
	"unsafe"

	"jobtop/termtext"
)

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
	s.cuts++ // counted here, once a piece: a line's own commit costs nothing more
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
	pl.cr, pl.redrawn = false, false
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
