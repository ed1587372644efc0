package jobs

import (
	"bytes"
	"fmt"
	"strings"

	"jobtop/termtext"
	"jobtop/vtscreen"
)

// linesAgain ends screen mode on the main screen once the program has
// written two screens of lines without moving the cursor up, home or to
// a position since: its redrawing is over (the progress display is
// done, the build goes on logging), and lines show it best again. It
// reports whether it ended it.
func (m *Manager) linesAgain(j *job, p *process, part []byte, ev vtscreen.Event) bool {
	t := p.term
	if ev == vtscreen.CursorUp || ev == vtscreen.CursorAddressed || ev == vtscreen.CursorHome {
		t.plainLines = 0
		return false
	}
	t.plainLines += bytes.Count(part, []byte{'\n'})
	if t.plainLines < 2*int(t.rows.Load()) {
		return false
	}
	m.leaveScreen(j, p)
	return true
}

// seedScreen is what a terminal shows as a program in line mode starts
// to draw over it (or takes the alternate screen): the newest lines of
// its run since it last cleared the screen, or since its last screen
// mode ended, under that screen (SGR kept, no other sequence), the
// cursor where they left it (after the last newline, or where the line
// being written was edited to). An emulator started with it has the
// lines a redraw moves up into.
func (m *Manager) seedScreen(j *job, p *process) []byte {
	m.mu.Lock()
	cols, rows := p.cols, p.rows
	since := max(j.runCursor, p.term.cleared) // a terminal of its own, and what a clear left of it
	m.mu.Unlock()
	c := j.store.Tail(rows)
	base := p.term.base
	if base != nil && p.term.baseSeq >= since {
		since = p.term.baseSeq
	} else {
		base = nil
	}
	lines := c.Lines
	for len(lines) > 0 && lines[0].Seq <= since {
		lines = lines[1:]
	}
	var b []byte
	if base != nil {
		// The screen as the last screen mode left it, then what came
		// since: from the start of the cursor's row, the line it was on
		// is among that.
		b = baseScreen(base, cols, rows, len(lines) > 0 || len(c.Partial) > 0)
	} else if t := p.term; since == t.cleared && t.clearedRow+t.clearedCol > 0 {
		// The lines since a clear that left the cursor where it was
		// start there; once they fill the screen it scrolls them up.
		b = fmt.Appendf(b, "\x1b[%d;%dH", t.clearedRow+1, t.clearedCol+1)
	}
	for _, l := range lines { // a line wider than the terminal wraps, as it did
		b = append(b, termtext.Visible(l.Text, true)...)
		b = append(b, "\x1b[m\r\n"...)
	}
	if n := len(c.Partial); n > 0 {
		text := termtext.Visible(c.Partial[n-1].Text, true)
		b = append(b, text...)
		b = append(b, "\x1b[m"...)
		b = append(b, cursorBack(text, j.store.PartialCursor(c.Partial[n-1].Stream), cols)...)
	}
	return b
}

// baseScreen draws a kept screen on a fresh terminal of cols x rows, as
// a terminal resized to that keeps it: its rows down to the last drawn
// on, those by the cursor when there are more, cut to cols. The cursor
// goes back to its cell, or to the start of its row when what follows
// (fromRowStart) rewrites the row from there.
func baseScreen(base *vtscreen.Snapshot, cols, rows int, fromRowStart bool) []byte {
	last := base.CursorY
	for i, row := range base.ANSI {
		if strings.TrimSpace(row) != "" {
			last = max(last, i)
		}
	}
	first := max(base.CursorY+1-rows, 0)
	last = min(last, first+rows-1, len(base.ANSI)-1)
	var b []byte
	for i := first; i <= last; i++ {
		if i > first {
			b = append(b, "\x1b[m\r\n"...)
		}
		b = append(b, termtext.CutCells(base.ANSI[i], cols)...)
	}
	x := min(base.CursorX, cols-1)
	if fromRowStart {
		x = 0
	}
	return fmt.Appendf(b, "\x1b[m\x1b[%d;%dH", base.CursorY-first+1, x+1)
}

// cursorBack moves the cursor from the end of a line of text (SGR and
// printable text only) back to cell x of it, where the line's edits left
// it, the line wrapped at cols as a terminal wraps it: a wide character
// that does not fit at the end of a row goes to the next one.
func cursorBack(text string, x, cols int) []byte {
	cols = max(cols, 1)
	cell, row, col := 0, 0, 0
	atRow, atCol := -1, 0
	for i := 0; i < len(text); {
		tok := termtext.Next(text, i)
		w := 0
		switch tok.Kind {
		case termtext.Text:
			w = 1
			tok.End = i + 1 // a cell a byte
		case termtext.Cluster:
			w = tok.Width
		case termtext.Tab:
			next := (cell/8 + 1) * 8
			if atRow < 0 && x < next {
				atRow, atCol = row, min(col+x-cell, cols-1)
			}
			col, cell = min(col+next-cell, cols-1), next
		}
		if w > 0 {
			if col+w > cols {
				row, col = row+1, 0
			}
			if atRow < 0 && x < cell+w {
				atRow, atCol = row, col
			}
			cell, col = cell+w, col+w
		}
		i = tok.End
	}
	if atRow < 0 {
		return nil // at the end
	}
	var b []byte
	if up := row - atRow; up > 0 { // a full last row leaves the cursor on it
		b = fmt.Appendf(b, "\x1b[%dA", up)
	}
	return fmt.Appendf(b, "\x1b[%dG", atCol+1)
}
