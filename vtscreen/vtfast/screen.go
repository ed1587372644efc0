// Package vtfast is jobtop's terminal emulator for screen mode: a PTY job
// that takes the alternate screen (htop, vim, a coding agent's own TUI)
// is fed into a Screen, and its pane draws the Screen's vtscreen.Snapshot
// as a terminal would.
//
// It is written for the cost of a full-screen program redrawing a large
// screen many times a second: a byte state machine with no allocation per
// byte, runs of ASCII copied straight into a row of small cells, scrolling
// that moves rows rather than cells, and a Snapshot that renders again only
// the rows that changed since the last one. It emulates what full-screen
// programs use (cursor movement, erasing, inserting and deleting, scroll
// regions, SGR colours and attributes, wide characters, DEC line drawing,
// the alternate screen) and consumes what a pane does not show (titles,
// hyperlinks, clipboard and device control strings) without drawing it.
//
// It is a package of its own, free of charm libraries, so that jobs/
// stays free of any emulator: cmd/ hands vtfast.New to the manager
// (jobs.Options.Emulator).
package vtfast

import (
	"sync"

	"jobtop/vtscreen"
)

// maxQueuedAnswers bounds the answers waiting for the reply function: a
// program that floods queries loses answers, never blocks its Writes.
const maxQueuedAnswers = 4 << 10

// Screen is a terminal of a fixed size that a byte stream draws on. One
// goroutine may Write while any number call Snapshot, Resize and Modes.
// Close releases it.
type Screen struct {
	mu      sync.Mutex
	t       *term
	seq     uint64
	snap    vtscreen.Snapshot // cached for seq snap.Seq
	hasSnap bool
	bufs    renderBufs

	replyMu sync.Mutex
	reply   func([]byte)
	answers [][]byte
	queued  int
	wake    chan struct{}
	quit    chan struct{}
	done    chan struct{}
	close   sync.Once
}

// New returns a blank cols x rows Screen. Sizes below 1 are taken as 1.
func New(cols, rows int) *Screen {
	s := &Screen{t: newTerm(max(cols, 1), max(rows, 1)),
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	s.t.reply = s.queue
	go s.answer()
	return s
}

// SetReply sets where the Screen's answers to the program's queries go
// (device attributes, cursor position reports: what a terminal writes
// back). jobs/ points it at the PTY so a program that asks gets its
// answer; without it answers are dropped. f runs on the Screen's own
// goroutine; Write never waits for it.
func (s *Screen) SetReply(f func([]byte)) {
	s.replyMu.Lock()
	s.reply = f
	s.replyMu.Unlock()
}

// queue hands an answer to the answering goroutine, or drops it when too
// many wait.
func (s *Screen) queue(b []byte) {
	s.replyMu.Lock()
	if s.queued+len(b) <= maxQueuedAnswers {
		s.answers = append(s.answers, b)
		s.queued += len(b)
	}
	s.replyMu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// answer passes queued answers to the reply function until Close.
func (s *Screen) answer() {
	defer close(s.done)
	for {
		select {
		case <-s.quit:
			return
		case <-s.wake:
		}
		s.replyMu.Lock()
		answers, f := s.answers, s.reply
		s.answers, s.queued = nil, 0
		s.replyMu.Unlock()
		if f == nil {
			continue
		}
		for _, b := range answers {
			f(b)
		}
	}
}

// Write draws p. It never fails; escape sequences and characters split
// across calls are put together.
func (s *Screen) Write(p []byte) {
	if len(p) == 0 {
		return
	}
	s.mu.Lock()
	s.t.write(p)
	s.seq++
	s.mu.Unlock()
}

// Resize changes the screen's size, as a terminal window's resize does:
// what fits stays, from the top left; the cursor stays on the screen.
func (s *Screen) Resize(cols, rows int) {
	cols, rows = max(cols, 1), max(rows, 1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if cols == s.t.cols && rows == s.t.rows {
		return
	}
	s.t.resize(cols, rows)
	s.seq++
}

// Size returns the screen's columns and rows.
func (s *Screen) Size() (cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.cols, s.t.rows
}

// Modes returns the input modes the program asked for so far.
func (s *Screen) Modes() vtscreen.InputModes {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.t.modes
}

// Close stops the Screen's answering goroutine. A Screen may still be
// drawn on after Close; its answers are dropped.
func (s *Screen) Close() {
	s.close.Do(func() { close(s.quit) })
	<-s.done
}

// Snapshot returns the current frame. A frame is built once per change,
// whoever asks for it, and only the rows that changed since the last one
// are rendered again.
func (s *Screen) Snapshot() vtscreen.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hasSnap && s.snap.Seq == s.seq {
		return s.snap
	}
	t := s.t
	snap := vtscreen.Snapshot{
		Lines:         make([]string, t.rows),
		ANSI:          make([]string, t.rows),
		Widths:        make([]int, t.rows),
		CursorX:       t.x,
		CursorY:       t.y,
		CursorVisible: !t.hidden,
		Cols:          t.cols,
		Rows:          t.rows,
		AltScreen:     t.altOn,
		Modes:         t.modes,
		Seq:           s.seq,
	}
	for y, l := range t.buf.lines {
		if l.dirty {
			t.render(l, &s.bufs)
		}
		snap.Lines[y], snap.ANSI[y], snap.Widths[y] = l.plain, l.ansi, l.width
	}
	s.snap, s.hasSnap = snap, true
	return snap
}
