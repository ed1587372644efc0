package ui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"

	"jobtop/keymap"
	"jobtop/termtext"
	"jobtop/vtscreen"
)

// screenSource reads the screen of a job in screen mode.
type screenSource func() (vtscreen.Snapshot, error)

// paneScreen is what a pane in screen mode keeps: where it reads the
// screen, and the frame and cursor its rows were laid out from, so a
// refresh with nothing new costs a comparison.
type paneScreen struct {
	read screenSource
	snap vtscreen.Snapshot
	// laid says the pane's rows hold snap, laid out at width x height,
	// with the cursor or without.
	laid          bool
	width, height int
	cursor        bool
	err           string
	// fresh says the rows show a frame the model has not polled after;
	// due that the job wrote since the rows were laid out, too soon
	// after the last frame to draw again (drawn, when).
	fresh, due bool
	drawn      time.Time
}

// screenWritten is a screen pane's part of a job event: the job wrote.
// The new frame is drawn now when the last one is older than
// screenFrame, or when keys go to the job (its echo is what the person
// waits for); else when the poll comes.
func (p *outputPane) screenWritten() {
	if !p.typing && time.Since(p.scr.drawn) < screenFrame {
		p.scr.due = true
		return
	}
	p.refresh()
}

// SetScreen puts the pane in screen mode over read (nil: back to lines).
// A line selection ends when the screen comes: its lines are no longer
// shown, and y must not copy what the pane does not show.
func (p *outputPane) SetScreen(read screenSource) {
	switch {
	case read == nil && p.scr == nil:
		return
	case read == nil:
		p.scr = nil
	case p.scr == nil:
		p.scr, p.sel = &paneScreen{read: read}, nil
	default:
		p.scr.read = read
		return
	}
	p.refresh()
}

// InScreen reports whether the pane draws a job's screen.
func (p *outputPane) InScreen() bool { return p.scr != nil }

// screenModes are the input modes of the screen shown (zero in line
// mode).
func (p *outputPane) screenModes() vtscreen.InputModes {
	if p.scr == nil {
		return vtscreen.InputModes{}
	}
	return p.scr.snap.Modes
}

// showsCursor says whether the pane draws the program's cursor: only the
// pane with the focus does, as a terminal multiplexer shows one cursor.
func (p *outputPane) showsCursor() bool { return p.focused }

// refreshScreen lays out the screen's rows: the top-left of the screen
// that fits the pane (the job's terminal follows the pane's size, so
// normally all of it), cut to the pane's width, the cursor drawn in
// reverse video.
func (p *outputPane) refreshScreen() {
	s := p.scr
	snap, err := s.read()
	if err != nil {
		s.laid, s.err = false, err.Error()
		text := cut("(screen unavailable: "+sanitize(s.err, false)+")", p.width)
		p.rows = append(p.rows[:0], p.pal.muted.Wrap(text))
		p.widths = append(p.widths[:0], textWidth(text))
		p.rowKeys = p.rowKeys[:0]
		return
	}
	s.due = false
	cursor := p.showsCursor() && snap.CursorVisible
	h, w := p.bodyHeight(), p.width
	if s.laid && snap.Seq == s.snap.Seq && cursor == s.cursor && s.width == w && s.height == h {
		return
	}
	if snap.Seq != s.snap.Seq {
		s.fresh, s.drawn = true, time.Now()
	}
	s.snap, s.cursor, s.laid, s.err, s.width, s.height = snap, cursor, true, "", w, h
	rows, widths := p.rows[:0], p.widths[:0]
	keep, noColour := p.pal.st.KeepJobAttributes, !p.pal.st.KeepJobColours
	for y := 0; y < h && y < snap.Rows; y++ {
		// The frame says how wide its coloured rows are: measuring is
		// for the rows that change here.
		line, width := snap.ANSI[y], -1
		if y < len(snap.Widths) {
			width = snap.Widths[y]
		}
		switch {
		case !keep:
			line, width = snap.Lines[y], -1
		case noColour:
			line = termtext.StripColours(line)
		}
		if cursor && y == snap.CursorY && snap.CursorX < w {
			line, width = withCursor(line, snap.Lines[y], snap.CursorX, p.pal.cursor.Open, p.pal.cursor.Close, emulatorCell), -1
		}
		if width < 0 || !plainASCII(snap.Lines[y]) {
			// Counted as the rest of jobtop counts (each cluster at the
			// most any terminal draws it), so that no row ever wraps.
			width = textWidth(line)
		}
		if width > w {
			line = truncateText(line, w, "")
			width = textWidth(line)
		}
		rows = append(rows, line)
		widths = append(widths, width)
	}
	p.rows, p.widths, p.rowKeys, p.cut = rows, widths, p.rowKeys[:0], false
}

// plainASCII reports whether s is printable ASCII only.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// withCursor draws the cursor at column x of a row: the cell there in
// reverse video, in its own colours as a terminal draws it (a blank past
// the row's end). line is the row as drawn, plain the same without SGR;
// cell counts the columns as the row was laid out. Without a cursor style
// (no colours), the cell is drawn as it is.
func withCursor(line, plain string, x int, open, closeSeq string, cell cellReader) string {
	if open == "" {
		return line
	}
	_, rest, start := cutAtColumn(plain, x, cell)
	under, w := " ", 1
	for len(rest) > 0 && rest[0] == 0x1b {
		rest = rest[termtext.Next(rest, 0).End:]
	}
	if len(rest) > 0 {
		if n, cells := cell(rest); cells > 0 {
			// x inside a wide cell: the cursor is drawn on all of it
			under, w, x = rest[:n], cells, start
		}
	}
	before, own, width := cutAtColumn(line, x, cell)
	if pad := x - width; pad > 0 {
		before += strings.Repeat(" ", pad)
	}
	// The cut ends the colours before the cell; what follows it starts
	// with the colours in force there, the cell's own.
	_, after, _ := cutAtColumn(line, x+w, cell)
	return before + leadingCSI(own) + open + under + closeSeq + after
}

// leadingCSI is the control sequences (CSI) at the start of s.
func leadingCSI(s string) string {
	i := 0
	for strings.HasPrefix(s[i:], "\x1b[") {
		j := i + 2
		for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
			j++
		}
		if j == len(s) {
			break
		}
		i = j + 1
	}
	return s[:i]
}

// screenFlags are the header's flags of a pane in screen mode.
func (p *outputPane) screenFlags() []string {
	if p.job.CatchingUp {
		return []string{p.pal.paused.Wrap("screen catching up")}
	}
	return []string{p.pal.flag.Wrap("screen")}
}

// screenKeys enables the keys of a focused pane in screen mode: a screen
// is not searched, and scrolling up shows the job's lines; leaving for
// the table is left (input mode's key is the model's).
func (p *outputPane) screenKeys(km *keymap.KeyMap) {
	for _, b := range []*key.Binding{&km.FocusTable, &km.LineUp, &km.HalfPageUp, &km.Top, &km.Search} {
		b.SetEnabled(p.focused)
	}
}

// scrollOffScreen is the mouse wheel's scrolling up over a pane: on a
// screen, it shows the job's lines, as scrolling up does.
func (p *outputPane) scrollOffScreen(n int) {
	if p.scr != nil {
		p.leaveScreen()
	}
	p.scrollUp(n)
	p.refresh()
}

// leaveScreen shows the job's lines in place of its screen, paused: the
// screen has no scrollback, its lines are it. Paused also when they all
// fit the pane, when scrolling up moves nothing: else the pane, at the
// bottom of its lines, would follow, and follow is the screen again.
func (p *outputPane) leaveScreen() {
	if p.follow {
		p.top = p.bottom(p.source())
	}
	p.scr, p.offScreen, p.follow = nil, true, false
}
