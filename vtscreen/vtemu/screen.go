// Package vtemu is the terminal emulator behind screen mode: a PTY job
// that takes the alternate screen (a full-screen program: htop, vim, a
// coding agent's own TUI) is fed into a Screen, and its pane draws the
// Screen's vtscreen.Snapshot exactly as a terminal would.
//
// The emulator is github.com/charmbracelet/x/vt, chosen by measurement
// against github.com/hinshun/vt10x (vtscreen/emucompare, a module of its
// own): about as fast on full 200x50 redraws, and the only one of the two
// that lays out wide characters as a terminal does.
//
// It is a package of its own so that jobs/ stays free of charm
// libraries: cmd/ hands vtemu.New to the manager (jobs.Options.Emulator).
package vtemu

import (
	"io"
	"strings"
	"sync"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"jobtop/vtscreen"
)

// Screen is a terminal of a fixed size that a byte stream draws on. One
// goroutine may Write while any number call Snapshot, Resize and Modes.
// Close releases it.
type Screen struct {
	mu    sync.Mutex
	emu   *vt.Emulator
	modes vtscreen.InputModes
	seq   uint64

	snap    vtscreen.Snapshot // cached for seq snap.Seq
	hasSnap bool

	reply   func([]byte)
	replyMu sync.Mutex
	done    chan struct{}
}

// New returns a blank cols x rows Screen. Sizes below 1 are taken as 1.
func New(cols, rows int) *Screen {
	cols, rows = max(cols, 1), max(rows, 1)
	s := &Screen{emu: vt.NewEmulator(cols, rows), done: make(chan struct{})}
	s.emu.SetCallbacks(vt.Callbacks{
		EnableMode:  func(m ansi.Mode) { setMode(&s.modes, m, true) },
		DisableMode: func(m ansi.Mode) { setMode(&s.modes, m, false) },
	})
	go s.answer()
	return s
}

// SetReply sets where the Screen's answers to the program's queries go
// (device attributes, cursor position reports: what a terminal writes
// back). jobs/ points it at the PTY so a program that asks gets its
// answer; without it answers are dropped. f runs on the Screen's own
// goroutine and should not block for long: Write waits for it.
func (s *Screen) SetReply(f func([]byte)) {
	s.replyMu.Lock()
	s.reply = f
	s.replyMu.Unlock()
}

// answer drains the emulator's answer pipe, which would otherwise block
// Write on the first query, and hands the answers to the reply function.
func (s *Screen) answer() {
	defer close(s.done)
	buf := make([]byte, 256)
	for {
		n, err := s.emu.Read(buf)
		if n > 0 {
			s.replyMu.Lock()
			f := s.reply
			s.replyMu.Unlock()
			if f != nil {
				f(append([]byte(nil), buf[:n]...))
			}
		}
		if err != nil {
			return
		}
	}
}

// Write draws p. It never fails; escape sequences split across calls are
// put together.
func (s *Screen) Write(p []byte) {
	if len(p) == 0 {
		return
	}
	s.mu.Lock()
	_, _ = s.emu.Write(p)
	s.seq++
	s.mu.Unlock()
}

// Resize changes the screen's size, as a terminal window's resize does.
func (s *Screen) Resize(cols, rows int) {
	cols, rows = max(cols, 1), max(rows, 1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if cols == s.emu.Width() && rows == s.emu.Height() {
		return
	}
	s.emu.Resize(cols, rows)
	s.seq++
}

// Size returns the screen's columns and rows.
func (s *Screen) Size() (cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.Width(), s.emu.Height()
}

// Modes returns the input modes the program asked for so far.
func (s *Screen) Modes() vtscreen.InputModes {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modes
}

// Close stops the Screen's answering goroutine. A Screen is still drawn
// on after Close; its answers are dropped.
func (s *Screen) Close() {
	// Closing the answer pipe's writing end ends answer's Read with EOF;
	// the emulator's own Close would race with that Read.
	if w, ok := s.emu.InputPipe().(interface{ CloseWithError(error) error }); ok {
		_ = w.CloseWithError(io.EOF)
	}
	<-s.done
}

// Snapshot returns the current frame. A frame is built once per change,
// whoever asks for it.
func (s *Screen) Snapshot() vtscreen.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hasSnap && s.snap.Seq == s.seq {
		return s.snap
	}
	e := s.emu
	w, h := e.Width(), e.Height()
	snap := vtscreen.Snapshot{
		Lines:         make([]string, h),
		ANSI:          make([]string, h),
		Widths:        make([]int, h),
		CursorVisible: !e.CursorHidden(),
		Cols:          w,
		Rows:          h,
		AltScreen:     e.IsAltScreen(),
		Modes:         s.modes,
		Seq:           s.seq,
	}
	pos := e.CursorPosition()
	snap.CursorX, snap.CursorY = min(max(pos.X, 0), w-1), min(max(pos.Y, 0), h-1)
	var plain, styled strings.Builder
	for y := range h {
		snap.Widths[y] = renderRow(&plain, &styled, func(x int) *uv.Cell { return e.CellAt(x, y) }, w)
		snap.Lines[y], snap.ANSI[y] = strings.TrimRight(plain.String(), " "), styled.String()
		plain.Reset()
		styled.Reset()
	}
	s.snap, s.hasSnap = snap, true
	return snap
}

// setMode applies a mode change the emulator reports.
func setMode(m *vtscreen.InputModes, mode ansi.Mode, on bool) {
	if d, ok := mode.(ansi.DECMode); ok {
		m.SetDEC(int(d), on)
	}
}
