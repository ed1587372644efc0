package jobs

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"jobtop/termtext"
	"jobtop/vtscreen"
)

// termState is a TTY run's screen mode: what its reader saw of the
// alternate screen and cursor addressing, and the emulator fed while the
// run draws a screen.
//
// The run enters screen mode when it takes the alternate screen, or,
// outside it, addresses the cursor (CUP to a position other than home,
// or home and then draws: a full-screen program that skips the alternate
// screen, a loop redrawing its lines from home) or moves it up over lines
// it wrote (an inline TUI, a progress display redrawing). On the main
// screen the emulator starts from the lines a terminal would still show
// (seedScreen). A clear (clear,
// ctrl+l at a shell's prompt) is no full-screen program: in line mode it
// ends the line it cut, and one that leaves the cursor at the top left
// starts the screen afresh: the lines since are what a terminal shows
// (job.cleared, Info.ClearedCursor, Screen), those before its scrollback. It leaves when it gives the alternate screen back
// (or resets the terminal), on the main screen when it has written two
// screens of lines with no cursor move since (linesAgain), or when the
// run ends. Its output on the main screen goes
// to the store as lines (line mode's view of it stays readable: search,
// logs, cursors); what it draws on the alternate screen does not (its
// cursor moves stripped, it would read as a jumble: the screen is what
// shows it), though the log file keeps every byte. The emulator gets the
// output while in screen mode, off the read path (screenFeed).
//
// A run that ends in screen mode (a full-screen program that crashed, or
// was stopped; an inline TUI or a progress display that ended while it
// drew) keeps its last screen, as a terminal would show it: its lines,
// cursor moves stripped, would read as a jumble, or as every frame it
// drew. The pane shows the lines when scrolled up.
type termState struct {
	det vtscreen.Detector // the reader's alone
	// log is output read, not yet in the log file (logLater); the
	// reader's alone.
	log []byte
	// sinceHome is the home the cursor last went to and the cursor moves
	// since, while the detector waits to tell whether the program draws
	// from there (Detector.Homed): those parts went to the store as
	// lines, and the emulator, if the program does draw, starts with them
	// after the lines (at most maxSinceHome). The reader's alone.
	sinceHome    []byte
	sinceHomeCut bool // what came after the home passed maxSinceHome
	// cleared is the store's last line when the program last cleared the
	// screen, and clearedRow and clearedCol where the cursor was left
	// then (the top left after a home or a reset; where it was for a
	// clear alone): the lines since start there (lineCursor). The
	// reader's alone.
	cleared                uint64
	clearedRow, clearedCol int
	// plainLines counts the lines written on the main screen in screen
	// mode since the cursor last moved up or was addressed (linesAgain).
	// The reader's alone.
	plainLines int
	// base is the main screen as the last screen mode ended, and baseSeq
	// the store's last line then: the next screen mode starts from it and
	// the lines since (seedScreen). The reader's alone.
	base    *vtscreen.Snapshot
	baseSeq uint64
	rows    atomic.Int32 // the terminal's rows (linesAgain)

	mu     sync.Mutex
	feed   *screenFeed         // nil in line mode
	closed bool                // the run has ended: no new feed
	modes  vtscreen.InputModes // det's, for line mode's screen
	hidden bool                // det's CursorHidden, for line mode's screen
	last   *vtscreen.Snapshot  // the screen it ended on, if on the alternate screen (end)
	// placed: in this screen mode the program placed the cursor on the
	// main screen again and again (CursorAddressed: top drawing its
	// frames from home), so its lines are pieces of its frames, whichever
	// line is the newest; placements counts them. One placement (a title
	// drawn at the top, then lines) is no frame. lastPlaced is placed as
	// the run ended in screen mode (end).
	placed, lastPlaced bool
	placements         int
}

// storeTerminal stores a chunk of a TTY run's output, scanning it for
// screen mode, and feeds the emulator while in it. It runs on the run's
// reader.
func (m *Manager) storeTerminal(j *job, p *process, b []byte) {
	t := p.term
	for len(b) > 0 {
		onAlt := t.det.Alt()
		homed := t.det.Homed() && len(t.sinceHome) > 0 // the cursor is where sinceHome took it
		n, ev := t.det.Next(b)
		part := b[:n]
		b = b[n:]
		var homeMoves []byte // a clear's after a home: what moved the cursor since
		if ev == vtscreen.Cleared && homed {
			homeMoves = append(slices.Clip(t.sinceHome), part...)
		}
		var seed []byte
		if (ev == vtscreen.CursorUp || ev == vtscreen.CursorAddressed) && m.opts.Emulator != nil && !t.inScreen() {
			seed = m.seedScreen(j, p) // the screen it draws over: before part is stored
			if ev == vtscreen.CursorAddressed && t.det.FromHome() {
				seed = append(seed, t.sinceHome...) // drawing from the home the parts before left
			}
		}
		t.keepSinceHome(part, ev)
		switch {
		case onAlt && m.opts.Emulator != nil:
			j.store.Skip(len(part)) // a screen's drawing: no lines to read
		case ev == vtscreen.EnterAlt && m.opts.Emulator != nil:
			// The line goes on where it was when the screen is given
			// back (1049 restores the cursor): the switch is no text.
			seq := max(bytes.LastIndexByte(part, 0x1b), 0) // none: the switch began in a read before
			j.store.Append(Stdout, part[:seq])
			j.store.Skip(len(part) - seq)
		default:
			j.store.Append(Stdout, part)
		}
		if ev == vtscreen.Cleared {
			// Where the clear leaves the cursor: before the line breaks.
			t.clearedRow, t.clearedCol = m.clearedCursor(j, p, part, homeMoves)
		}
		if ev == vtscreen.Cleared || (ev == vtscreen.EnterAlt || ev == vtscreen.LeaveAlt) && m.opts.Emulator == nil {
			// A clear starts afresh: what follows is not the line before.
			// A clear alone (ESC[2J) leaves the cursor where it was.
			bare := ev == vtscreen.Cleared && homeMoves == nil && !bytes.HasSuffix(part, []byte("\x1bc"))
			j.store.BreakLine(bare)
		}
		if ev == vtscreen.Cleared || ev == vtscreen.CursorHome && !t.det.Homed() {
			// A home on a cleared screen is no drawing (the detector's
			// blank), but the lines after it start at the top.
			if ev == vtscreen.CursorHome {
				t.clearedRow, t.clearedCol = 0, 0
			}
			t.cleared = j.store.Stats().Last
			t.base = nil
			if t.clearedRow == 0 && t.clearedCol == 0 {
				// The lines since start on the top row: what came before
				// is no longer on the screen (Info.ClearedCursor). A
				// clear alone (ESC[2J, rare: clear, ctrl+l and dev
				// servers go home) leaves the cursor below it.
				j.cleared.Store(t.cleared)
			}
		}
		t.mu.Lock()
		feed := t.feed
		modes := t.det.Modes()
		newModes := modes != t.modes
		t.modes, t.hidden = modes, t.det.CursorHidden()
		t.mu.Unlock()
		j.store.cursorHidden.Store(t.hidden)
		if feed != nil {
			if newModes {
				feed.setModes(modes)
			}
			feed.push(part)
			if !onAlt && m.linesAgain(j, p, part, ev) {
				feed = nil
			}
		}
		// A new emulator starts with the modes the program asked for
		// before it (as it started, or at a shell's prompt): the keys,
		// pastes and mouse typed into it are encoded by them.
		switch ev {
		case vtscreen.EnterAlt:
			if feed == nil {
				feed = m.enterScreen(j, p)
				if feed != nil {
					// The main screen under it, for when it is given back.
					feed.setModes(modes)
					seed := append(m.seedScreen(j, p), "\x1b[?1049h"...)
					feed.push(append(seed, modes.Sequence()...))
				}
			}
			if feed != nil {
				feed.setAlt(true)
			}
		case vtscreen.CursorUp, vtscreen.CursorAddressed:
			if feed == nil {
				if feed = m.enterScreen(j, p); feed != nil {
					// The screen it draws over, the modes after part, then
					// part: part's own mode changes end where they did.
					feed.setModes(modes)
					feed.push(append(append(seed, modes.Sequence()...), part...))
				}
			}
			if ev == vtscreen.CursorAddressed && feed != nil {
				t.setPlaced(feed)
			}
		case vtscreen.LeaveAlt:
			if feed != nil {
				m.leaveScreen(j, p)
			}
		case vtscreen.CursorQuery, vtscreen.StatusQuery, vtscreen.AttributesQuery, vtscreen.VersionQuery:
			if feed == nil { // in screen mode the emulator answers
				answerTerminal(p.input, m.lineModeAnswer(j, p, ev))
			}
		}
	}
}

// homeSequence is the cursor's move to the top left that sinceHome starts with.
const homeSequence = "\x1b[H"

// maxSinceHome bounds termState.sinceHome: past it, what a program
// writes after a home that is neither text nor a sequence that tells is
// not kept, and drawing starts from the home.
const maxSinceHome = 4 << 10

// keepSinceHome keeps what a drawing from a home starts with (sinceHome),
// after the reader stored part, which ended in ev.
func (t *termState) keepSinceHome(part []byte, ev vtscreen.Event) {
	switch {
	case ev == vtscreen.CursorHome && t.det.Homed():
		t.sinceHome, t.sinceHomeCut = append(t.sinceHome[:0], homeSequence...), false
	case t.det.Homed() && len(t.sinceHome) > 0:
		if ev != vtscreen.None {
			// A query: the emulator must not answer it again. What it cut
			// short before it (ESC (, a string) ends with an ST instead.
			if k := bytes.LastIndexByte(part, 0x1b); k >= 0 {
				part = append(part[:k:k], "\x1b\\"...)
			} else { // it began in a part before
				if k := bytes.LastIndexByte(t.sinceHome, 0x1b); k >= len(homeSequence) {
					t.sinceHome = t.sinceHome[:k]
				}
				part = []byte("\x1b\\")
			}
		}
		if t.sinceHomeCut || len(t.sinceHome)+len(part) > maxSinceHome {
			// Not a piece from the middle: the home alone.
			t.sinceHome, t.sinceHomeCut = t.sinceHome[:len(homeSequence)], true
			return
		}
		t.sinceHome = append(t.sinceHome, part...)
	default:
		t.sinceHome = nil
	}
}

// maxLogLater bounds what a TTY run's reader keeps back from the log
// file until it has read all there is (logLater).
const maxLogLater = 64 << 10

// logLater writes b to the log file when the reader has read all there is
// for now (readAll), or when maxLogLater waits: a terminal hands its
// output out a few KB a read, and a write per read is a system call that
// the Go scheduler may hand the thread's work off around.
func (t *termState) logLater(log *logFile, b []byte) {
	if len(t.log) == 0 && len(b) >= maxLogLater {
		log.Write(b) // a system call, not the CPU: outside the slot
		return
	}
	t.log = append(t.log, b...)
	if len(t.log) >= maxLogLater {
		t.flushLog(log)
	}
}

func (t *termState) flushLog(log *logFile) {
	if len(t.log) > 0 {
		log.Write(t.log) // a system call, not the CPU: outside the slot
		t.log = t.log[:0]
	}
}

// readAll is a TTY run's reader catching up once it has read all there
// is for now, or ends: its emulator's writer is woken to draw what it
// read, and that goes to the log file.
func (p *process) readAll(j *job) {
	if p.term == nil {
		return
	}
	p.term.mu.Lock()
	feed := p.term.feed
	p.term.mu.Unlock()
	if feed != nil {
		feed.flush()
	}
	// After the screen: a write to a disk that is behind can block for
	// seconds, and an echo must not wait for it.
	p.term.flushLog(j.log)
	p.term.log = nil // an idle run keeps no buffer
}

// enterScreen starts the run's emulator at its terminal's size.
func (m *Manager) enterScreen(j *job, p *process) *screenFeed {
	m.mu.Lock()
	cols, rows := p.cols, p.rows
	m.mu.Unlock()
	t := p.term
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || m.opts.Emulator == nil {
		return nil
	}
	changed := func() { m.hub.publish(j.id, EventState, Info{}) }
	drew := func() { m.publishOutput(j) }
	t.plainLines = 0
	t.rows.Store(int32(rows))
	t.feed = newScreenFeed(m.opts.Emulator(cols, rows), func() { m.redraw(p) }, changed, drew)
	t.feed.screen.SetReply(func(b []byte) { answerTerminal(p.input, b) })
	changed()
	return t.feed
}

// leaveScreen ends screen mode: the run is back to lines. It runs on the
// run's reader. The main screen the emulator shows then is kept, drawn
// (for at most lastScreenWait), as what the next screen mode starts from
// (seedScreen): the lines stored meanwhile hold every frame the program
// drew over them, or none it drew on the alternate screen.
func (m *Manager) leaveScreen(j *job, p *process) {
	t := p.term
	t.mu.Lock()
	feed := t.feed
	t.mu.Unlock()
	if feed != nil {
		feed.drain(lastScreenWait)
		if snap := feed.screen.Snapshot(); !snap.AltScreen {
			t.base, t.baseSeq = &snap, j.store.Stats().Last
		}
	}
	if t.stop() {
		m.hub.publish(j.id, EventState, Info{})
	}
}

// setPlaced records that the program placed the cursor on the main
// screen in the screen mode feed draws (placed). The output event of the
// part that did so tells subscribers.
func (t *termState) setPlaced(feed *screenFeed) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.feed == feed {
		t.placements++
		t.placed = t.placements >= 2
	}
}

// stop ends screen mode, if on, and reports whether it was.
func (t *termState) stop() bool {
	t.mu.Lock()
	feed := t.feed
	t.feed, t.placed, t.placements = nil, false, 0
	t.mu.Unlock()
	if feed == nil {
		return false
	}
	feed.close()
	return true
}

// inScreen reports whether the run is in screen mode.
func (t *termState) inScreen() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.feed != nil
}

// screenMode is a run's screen mode as Info tells it.
type screenMode struct {
	on, alt, catchingUp bool
	placed              bool // termState.placed
}

// mode reports whether the run is in screen mode, on the alternate
// screen, its emulator catching up, and whether the program placed the
// cursor on the main screen.
func (t *termState) mode() screenMode {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.feed == nil {
		return screenMode{}
	}
	return screenMode{on: true, alt: t.feed.onAlt(), catchingUp: t.feed.catchingUp.Load(), placed: t.placed}
}

// resize resizes the emulator with the terminal.
func (t *termState) resize(cols, rows int) {
	t.rows.Store(int32(rows))
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.feed != nil {
		t.feed.screen.Resize(cols, rows)
	}
}

// end ends screen mode for good: the run has ended. In screen mode, what
// the emulator was given is drawn first (for at most lastScreenWait) and
// the screen kept as the run's last.
func (t *termState) end() {
	t.mu.Lock()
	t.closed = true
	feed := t.feed
	t.mu.Unlock()
	if feed != nil {
		feed.drain(lastScreenWait)
		snap := feed.screen.Snapshot()
		snap.CursorVisible = false // nothing types there any more
		t.mu.Lock()
		t.last, t.lastPlaced = &snap, t.placed
		t.mu.Unlock()
	}
	t.stop()
}

// lastScreenWait bounds how long a run's end waits for its emulator to
// draw what it was given: a backlog is at most maxScreenBacklog bytes,
// milliseconds of drawing.
const lastScreenWait = time.Second

// lineModeAnswer is what a terminal answers a query with, for a run in
// line mode: its terminal as a fresh one the run's lines were written to
// (the cursor after them, or after those since the program last cleared
// the screen, on the last row once they fill the screen), and
// the same device a screen-mode run's emulator says it is. A program that
// asks before it draws (an inline TUI placing itself below the cursor, a
// shell asking what the terminal is) gets its answer instead of waiting
// for one that never comes.
func (m *Manager) lineModeAnswer(j *job, p *process, ev vtscreen.Event) []byte {
	switch ev {
	case vtscreen.StatusQuery:
		return []byte("\x1b[0n")
	case vtscreen.AttributesQuery:
		return []byte("\x1b[?62;1;6;22c")
	case vtscreen.VersionQuery:
		return []byte("\x1b[>1;10;0c")
	}
	var row, col int
	if t := p.term; t.det.Homed() && len(t.sinceHome) > 0 {
		row, col = m.homedCursor(p, t.sinceHome)
	} else {
		row, col = m.lineCursor(j, p)
	}
	return fmt.Appendf(nil, "\x1b[%d;%dR", row+1, col+1)
}

// lineCursor is where the cursor is in line mode (0-based): after the
// run's lines since the last clear, which started where the clear left
// the cursor, each taking the rows a terminal wrapped it to (tailScreen),
// on the last row once they fill the screen.
func (m *Manager) lineCursor(j *job, p *process) (row, col int) {
	t := p.term
	m.mu.Lock()
	cols, rows := max(p.cols, 1), max(p.rows, 1)
	since := max(j.runCursor, t.cleared)
	m.mu.Unlock()
	fromClear := since == t.cleared
	if fromClear && t.clearedCol > 0 && j.store.Stats().Last == since {
		// Only the line being written, from where the clear left the
		// cursor, mid-row.
		x := t.clearedCol + j.store.PartialCursor(Stdout)
		return min(t.clearedRow+x/cols, rows-1), x % cols
	}
	snap := tailScreen(j.store, cols, rows, since)
	row, col = snap.CursorY, snap.CursorX
	if fromClear {
		row += t.clearedRow
	}
	return min(row, rows-1), col
}

// homedCursor is where the cursor is after a home and the moves since
// (moves, which starts with the home), 0-based: the top left when there
// is no emulator to play them on.
func (m *Manager) homedCursor(p *process, moves []byte) (row, col int) {
	if m.opts.Emulator == nil || !movesCursor(moves[min(len(moves), len(homeSequence)):]) {
		return 0, 0
	}
	m.mu.Lock()
	cols, rows := max(p.cols, 1), max(p.rows, 1)
	m.mu.Unlock()
	e := m.opts.Emulator(cols, rows)
	defer e.Close()
	e.Write(moves)
	snap := e.Snapshot()
	return snap.CursorY, snap.CursorX
}

// movesCursor reports whether what follows a home may have moved the
// cursor from there (a control, an index or a next line); mode changes
// and clears do not. Most homes are a clear's, and need no emulator.
func movesCursor(b []byte) bool {
	return bytes.ContainsFunc(b, func(r rune) bool { return r < 0x20 && r != 0x1b }) || bytes.ContainsAny(b, "DEM")
}

// clearedCursor is where a clear (the sequence ending part) leaves the
// cursor, 0-based, with part stored: at the top left after a reset,
// where the moves since a home took it (homeMoves, from the home to the
// clear), and for a clear alone (ESC[2J) where it was.
func (m *Manager) clearedCursor(j *job, p *process, part, homeMoves []byte) (row, col int) {
	switch {
	case bytes.HasSuffix(part, []byte("\x1bc")):
		return 0, 0
	case homeMoves != nil:
		return m.homedCursor(p, homeMoves)
	}
	return m.lineCursor(j, p)
}

// redraw asks a screen-mode run for a full frame: SIGWINCH to all its
// processes, whose default action is to ignore it.
func (m *Manager) redraw(p *process) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.signalLocked(p, syscall.SIGWINCH)
}

// answerTerminal writes the emulator's answer to a program's query
// (cursor position, device attributes) to its terminal, as a terminal
// would; it never waits: a terminal that is full drops it.
func answerTerminal(master *os.File, b []byte) {
	rc, err := master.SyscallConn()
	if err != nil {
		return
	}
	rc.Write(func(fd uintptr) bool { //nolint:errcheck // a lost answer is a lost answer
		unix.Write(int(fd), b) //nolint:errcheck // as above
		return true
	})
}

// Screen is the job's screen as a terminal would show it now. For a TTY
// job in screen mode (Info.Screen) it is its terminal emulator's; for
// any other job, the newest lines of its output that fit its terminal
// (Cols x Rows, or DefaultCols x DefaultRows for a pipe job), with the
// cursor after the last, colours kept in ANSI and every other escape
// sequence removed, and for a running TTY job the input modes it asked
// for (a shell asks for bracketed paste at its prompt).
func (m *Manager) Screen(id ID) (vtscreen.Snapshot, error) {
	m.mu.Lock()
	j, ok := m.jobs[id]
	if !ok {
		m.mu.Unlock()
		return vtscreen.Snapshot{}, m.notFound(id)
	}
	var feed *screenFeed
	last := j.lastScreen
	var modes vtscreen.InputModes
	hidden := false
	if p := j.proc; p != nil && p.term != nil {
		p.term.mu.Lock()
		feed, modes, hidden = p.term.feed, p.term.modes, p.term.hidden
		p.term.mu.Unlock()
	}
	cols, rows := j.termSize()
	var since uint64 // a terminal's screen is its run's: a new run is a fresh terminal
	if j.spec.TTY {
		since = max(j.runCursor, j.cleared.Load()) // and a clear blanked what was before
	}
	m.mu.Unlock()
	if feed != nil {
		return feed.screen.Snapshot(), nil
	}
	if last != nil {
		return *last, nil
	}
	snap := tailScreen(j.store, cols, rows, since)
	snap.Modes, snap.CursorVisible = modes, !hidden
	return snap, nil
}

// tailScreen is the newest lines of a store after line since as a
// terminal cols x rows shows them: wrapped at cols, the newest rows of
// them, the cursor after the last (on a row of its own after a newline,
// where the line being written was edited to otherwise).
func tailScreen(store *OutputStore, cols, rows int, since uint64) vtscreen.Snapshot {
	cols, rows = max(cols, 1), max(rows, 1)
	c := store.Tail(rows)
	c.Lines = slices.DeleteFunc(c.Lines, func(l Line) bool { return l.Seq <= since })
	lines := append(c.Lines, c.Partial...)
	// After a newline the cursor is on a row of its own; after a line
	// being written, or one a run's end left open, it is in that line.
	open, openX := store.LastLineOpen()
	open = open && len(c.Partial) == 0 && len(c.Lines) > 0
	ansi := []string{""}       // the rows, newest first
	cursorRow, cursorX := 0, 0 // in ansi
	if len(c.Partial) > 0 || open {
		ansi = nil
	}
	for i := len(lines) - 1; i >= 0 && len(ansi) < rows; i-- {
		wrapped := termtext.WrapCells(shownText(lines[i].Text, cols), cols)
		switch {
		case len(c.Partial) > 0 && i == len(lines)-1:
			k, x := cellRow(wrapped, store.PartialCursor(lines[i].Stream), cols)
			cursorRow, cursorX = len(wrapped)-1-k, x
		case open && i == len(lines)-1:
			k, x := cellRow(wrapped, openX, cols)
			cursorRow, cursorX = len(wrapped)-1-k, x
		}
		for k := len(wrapped) - 1; k >= 0; k-- {
			ansi = append(ansi, wrapped[k])
		}
	}
	ansi = ansi[:min(len(ansi), rows)]
	slices.Reverse(ansi)
	snap := vtscreen.Snapshot{
		Lines: make([]string, rows), ANSI: make([]string, rows),
		Cols: cols, Rows: rows, CursorVisible: true,
		Seq: uint64(store.Stats().Bytes),
	}
	snap.CursorY, snap.CursorX = max(len(ansi)-1-cursorRow, 0), cursorX
	for i, row := range ansi {
		snap.ANSI[i] = row
		// As text, a row ends at its last character (a bar of colour
		// is a blank row), but for the blanks up to the cursor on its
		// row: a prompt's "$ " keeps its space.
		plain := termtext.Visible(row, false)
		text := strings.TrimRight(plain, " ")
		if i == snap.CursorY {
			if w := termtext.Width(text); w < cursorX {
				text += strings.Repeat(" ", min(cursorX, termtext.Width(plain))-w)
			}
		}
		snap.Lines[i] = text
	}
	return snap
}

// shownText is a line of output as a terminal shows it: its line edits
// played (a backspace, an erase: termtext.EditLine), its colours kept,
// every other escape sequence and every control but tab removed (a
// terminal shows nothing for SO, SI, BEL or NUL, where a person reading
// logs sees \x0e), and bytes that are not UTF-8 as U+FFFD. It holds
// nothing but text, tabs and SGR sequences, so it cannot move a
// terminal's cursor, retitle it or change its character set. A TTY
// job's lines are kept so already (OutputStore.SetTerminal); a pipe
// job's keep what it wrote but for their edits, played, and line drawing.
//
// An erase with a background colour colours the row to the terminal's
// edge, cols cells (termtext.EditLineIn), as the store keeps a TTY job's.
func shownText(s string, cols int) string {
	if termtext.HasLineEdits([]byte(s)) {
		s, _ = termtext.EditLineIn(s, cols)
	}
	return termtext.Visible(termtext.Printed(s, true), true)
}

// cellRow is where cell x of a line wrapped into rows is: its row and
// column (a wide character that did not fit left the cell before it
// empty, and the cursor past a full last row stays in its last column).
func cellRow(rows []string, x, cols int) (row, col int) {
	for i, r := range rows {
		w := termtext.Width(termtext.Visible(r, false))
		if x < w || i == len(rows)-1 {
			return i, min(x, cols-1)
		}
		x -= w
	}
	return 0, 0
}
