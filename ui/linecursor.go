package ui

import (
	"github.com/charmbracelet/x/ansi"

	"jobtop/jobs"
)

// partialCursor is a reader that knows where a terminal's line editing
// left the cursor on the line being built (*jobs.OutputStore does).
type partialCursor interface {
	PartialCursor(stream jobs.Stream) int
}

// cursorHider is a reader that knows whether the program on the terminal
// hid its cursor (*jobs.OutputStore does).
type cursorHider interface {
	CursorHidden() bool
}

// drawLineCursor draws, in the pane typed into (input mode), the cursor
// of a job on a terminal whose output is lines: on the line it is building
// (a shell's or a REPL's prompt), where the job's line editing left it,
// as a terminal would; none between the job's runs. o holds the rows of
// the bottom of the output.
func (p *outputPane) drawLineCursor(o *laidOut) {
	if !p.typing || p.kind != jobPane || !p.job.State.Active() || p.logSearch != nil || p.search != nil && p.search.filter || len(o.rows) == 0 {
		return
	}
	src, ok := p.base.(jobSource)
	if !ok {
		return
	}
	pc, ok := src.reader.(partialCursor)
	if !ok {
		return
	}
	if h, ok := src.reader.(cursorHider); ok && h.CursorHidden() {
		return // hidden by the program, as during a progress bar
	}
	last := len(o.keys) - 1
	key := o.keys[last]
	if key.seq <= src.reader.Stats().Last {
		return // the last row is a whole line: the cursor is below the view
	}
	first := last
	for first > 0 && o.keys[first-1] == key {
		first--
	}
	col := pc.PartialCursor(jobs.Stdout) // a terminal has one stream
	row, x := last, col-p.xoff
	if p.wrap {
		// Row by row, as laid out: a wide character that did not fit
		// at the end of a row went to the next.
		row, x = first, col
		for row < last && x >= o.widths[row] {
			x -= o.widths[row]
			row++
		}
	}
	if row > last || x < 0 || x >= p.width {
		return // past the rows drawn, or scrolled out of sight
	}
	o.rows[row] = withCursor(o.rows[row], ansi.Strip(o.rows[row]), x, p.pal.cursor.Open, p.pal.cursor.Close, clusterCell)
	o.widths[row] = textWidth(o.rows[row])
}
