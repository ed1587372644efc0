package vtfast

// The reference this package is tested against: jobtop's earlier emulator,
// github.com/charmbracelet/x/vt behind the same contract as Screen. The
// differential tests feed both the same bytes and compare their frames;
// the benchmarks report the speed of both in one run.

import (
	"io"
	"strings"
	"sync"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"jobtop/vtscreen"
)

// refScreen is a terminal of a fixed size that a byte stream draws on. One
// goroutine may Write while any number call Snapshot, Resize and Modes.
// Close releases it.
type refScreen struct {
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

// newRef returns a blank cols x rows Screen. Sizes below 1 are taken as 1.
func newRef(cols, rows int) *refScreen {
	cols, rows = max(cols, 1), max(rows, 1)
	s := &refScreen{emu: vt.NewEmulator(cols, rows), done: make(chan struct{})}
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
func (s *refScreen) SetReply(f func([]byte)) {
	s.replyMu.Lock()
	s.reply = f
	s.replyMu.Unlock()
}

// answer drains the emulator's answer pipe, which would otherwise block
// Write on the first query, and hands the answers to the reply function.
func (s *refScreen) answer() {
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
func (s *refScreen) Write(p []byte) {
	if len(p) == 0 {
		return
	}
	s.mu.Lock()
	_, _ = s.emu.Write(p)
	s.seq++
	s.mu.Unlock()
}

// Resize changes the screen's size, as a terminal window's resize does.
func (s *refScreen) Resize(cols, rows int) {
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
func (s *refScreen) Size() (cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.Width(), s.emu.Height()
}

// Modes returns the input modes the program asked for so far.
func (s *refScreen) Modes() vtscreen.InputModes {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modes
}

// Close stops the Screen's answering goroutine. A Screen is still drawn
// on after Close; its answers are dropped.
func (s *refScreen) Close() {
	// Closing the answer pipe's writing end ends answer's Read with EOF;
	// the emulator's own Close would race with that Read.
	if w, ok := s.emu.InputPipe().(interface{ CloseWithError(error) error }); ok {
		_ = w.CloseWithError(io.EOF)
	}
	<-s.done
}

// Snapshot returns the current frame. A frame is built once per change,
// whoever asks for it.
func (s *refScreen) Snapshot() vtscreen.Snapshot {
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
		snap.Widths[y] = refRenderRow(&plain, &styled, func(x int) *uv.Cell { return e.CellAt(x, y) }, w)
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

// refRenderRow writes one row of w cells as plain text and as text with SGR
// sequences, and returns the columns they take. Blanks at the end of the
// row that a terminal would draw in the default colours are left out of
// both. The continuation cell of a wide character is skipped, so the
// character fills its two columns. Hyperlinks are dropped: a pane shows
// SGR and nothing else.
func refRenderRow(plain, styled *strings.Builder, cell func(x int) *uv.Cell, w int) int {
	end := w
	for end > 0 {
		c := cell(end - 1)
		if c == nil || c.IsZero() || (c.Content == " " && c.Style.IsZero()) {
			end--
			continue
		}
		break
	}
	var pen uv.Style
	cols := 0
	for x := 0; x < end; x++ {
		c := cell(x)
		if c == nil || c.IsZero() {
			continue // the right half of a wide character
		}
		text := c.Content
		if text == "" {
			text = " "
		}
		cols += max(c.Width, 1)
		if !c.Style.Equal(&pen) {
			if !pen.IsZero() {
				styled.WriteString("\x1b[m")
			}
			if !c.Style.IsZero() {
				styled.WriteString(c.Style.String())
			}
			pen = c.Style
		}
		plain.WriteString(text)
		styled.WriteString(text)
	}
	if !pen.IsZero() {
		styled.WriteString("\x1b[m")
	}
	return cols
}
