package ui

import (
	"bytes"
	"strings"

	"jobtop/styles"
	"jobtop/termtext"
)

// tabWidth is the distance between tab stops in job output.
const tabWidth = 8

// maxActiveSGR bounds the colour state carried from one wrapped row to the
// next (a line can set colours thousands of times without a reset).
const maxActiveSGR = 256

// maxSGRLen drops absurdly long SGR sequences instead of drawing them.
const maxSGRLen = 64

// sgrReset ends every row that opened a style.
const sgrReset = "\x1b[0m"

// label makes a name or command line safe for one row: as sanitize, with
// each line break shown as " ⏎ " so a multi-line command stays readable.
func label(s string) string {
	return sanitize(termtext.OneLine(s), false)
}

// sanitize makes one line of job output safe to draw on one row of any
// width: SGR colour sequences are kept when keepSGR is set; every other
// escape sequence (CSI, OSC, DCS, APC, PM, SOS, two-byte escapes), bare
// ESC, C0 controls and C1 controls (7-bit, UTF-8 encoded or raw 8-bit)
// are removed (termtext tells them apart); tabs become spaces up to the
// next tab stop; bytes that are not UTF-8 become U+FFFD.
func sanitize(s string, keepSGR bool) string {
	rows := layoutLine(nil, s, lineFormat{keepSGR: keepSGR})
	if len(rows) == 0 {
		return ""
	}
	return rows[0]
}

// lineFormat says how layoutLine lays a line out.
type lineFormat struct {
	// width is the most cells per row; 0 or less means one unbounded row.
	width int
	// wrap continues a line on further rows instead of cutting it.
	wrap bool
	// maxRows stops wrapping after this many rows (0: no limit).
	maxRows int
	// keepSGR keeps the line's colours and attributes; noColour then
	// leaves its colours out (NO_COLOR), bold, underline and reverse
	// video kept.
	keepSGR, noColour bool
	// base is a style for the whole line (the stderr tint); it is
	// re-opened after every reset in the line.
	base styles.Seq
	// marks are ranges of the line's plain text (see plainText) drawn in
	// the mark style (search matches), in order and not overlapping.
	marks []span
	mark  styles.Seq
	// widths, when set, gets the width in cells of each row laid out.
	widths *[]int
	// skip hides the line's first cells (a pane scrolled sideways); only
	// without wrap.
	skip int
	// cutMark ends a row cut at the width with "…" in its last cell;
	// only without wrap. cuts, when set, counts the rows cut.
	cutMark bool
	cuts    *int
}

// layoutLine sanitizes one line of job output (see sanitize) and appends
// its rows to dst: one row cut at the width, or as many as wrapping takes.
// Every row stands alone: it re-opens the colours in effect where the row
// before it ended and closes them at its end, so rows can be drawn in any
// order. An empty line is one empty row.
func layoutLine(dst []string, s string, f lineFormat) []string {
	if f.mark.Open == "" {
		f.marks = nil
	}
	w := rowBuilder{f: f, dst: dst}
	w.startRow()
	for i := 0; i < len(s) && !w.done; {
		t := termtext.Next(s, i)
		w.rest = s[t.End:]
		switch t.Kind {
		case termtext.Text:
			w.ascii(s[i:t.End])
		case termtext.Tab:
			w.tab()
		case termtext.SGR:
			w.sgr(s[i:t.End])
		case termtext.Escape:
			if w.active != "" && termtext.IsPenReset(s[i:t.End]) { // "\ec": as "\e[0m"
				w.sgr(sgrReset)
			}
		case termtext.Invalid:
			w.cluster("\uFFFD", 1)
		case termtext.Cluster:
			w.cluster(s[i:t.End], t.Width)
		}
		i = t.End // other escapes and controls are dropped
	}
	return w.finish()
}

// rowBuilder accumulates the rows of one line.
type rowBuilder struct {
	f       lineFormat
	dst     []string
	rows    int
	b       bytes.Buffer
	col     int    // cells used in the current row
	lineCol int    // cells since the start of the line, for tab stops
	active  string // SGR sequences in effect since the last reset
	styled  bool   // a style is open in the current row and needs a reset
	done    bool
	pos     int  // bytes of plain text written so far
	mi      int  // the next or current mark
	inMark  bool // the mark style is open
	cut     cutPoint
	// rest is the line after the piece being laid out, and pending what
	// of that piece is not written yet: at a cut, they say whether
	// anything but blanks is cut off (blankRest).
	rest, pending string
}

func (w *rowBuilder) startRow() {
	w.b.Reset()
	w.col = 0
	w.styled = false
	if w.f.base.Open != "" {
		w.b.WriteString(w.f.base.Open)
		w.styled = true
	}
	if w.active != "" {
		w.b.WriteString(w.active)
		w.styled = true
	}
	if w.inMark {
		w.b.WriteString(w.f.mark.Open)
		w.styled = true
	}
}

func (w *rowBuilder) endRow() {
	if w.styled {
		w.b.WriteString(sgrReset)
	}
	w.dst = append(w.dst, w.b.String())
	if w.f.widths != nil {
		*w.f.widths = append(*w.f.widths, w.col)
	}
	w.rows++
}

// toMark opens or closes the mark style where the plain text reaches a
// mark's edge, and returns how many bytes may be written before the next
// edge (-1: no edge ahead).
func (w *rowBuilder) toMark() int {
	for w.mi < len(w.f.marks) {
		m := w.f.marks[w.mi]
		if !w.inMark {
			if w.pos < m.start {
				return m.start - w.pos
			}
			w.inMark, w.styled = true, true
			w.b.WriteString(w.f.mark.Open)
			continue
		}
		if w.pos < m.end {
			return m.end - w.pos
		}
		w.inMark = false
		w.mi++
		w.b.WriteString(sgrReset + w.f.base.Open + w.active)
		w.styled = w.active != "" || w.f.base.Open != ""
	}
	return -1
}

// room makes space for n cells, breaking the row when wrapping; it
// reports false when the line is cut there.
func (w *rowBuilder) room(n int) bool {
	if w.f.width <= 0 || w.col+n <= w.f.width {
		return true
	}
	if !w.f.wrap || (w.f.maxRows > 0 && w.rows+1 >= w.f.maxRows) {
		w.done = true
		if w.f.cutMark && !w.f.wrap && !w.blankRest() {
			w.markCut()
		}
		return false
	}
	if n > w.f.width {
		return false // wider than a whole row (a wide character in a 1-cell pane)
	}
	w.endRow()
	w.startRow()
	return true
}

func (w *rowBuilder) ascii(text string) {
	for len(text) > 0 && !w.done {
		n := len(text)
		if w.f.marks != nil {
			if edge := w.toMark(); edge >= 0 && edge < n {
				n = edge
			}
		}
		if hidden := w.f.skip - w.lineCol; hidden > 0 {
			n = min(n, hidden)
			w.lineCol += n
			w.pos += n
			text = text[n:]
			continue
		}
		if w.f.width > 0 {
			if free := w.f.width - w.col; free <= 0 {
				w.pending = text
				if !w.room(1) {
					return
				}
				continue
			} else if n > free {
				n = free
			}
			if w.f.cutMark && !w.cut.set {
				if keep := w.f.width - 1 - w.col; keep > 0 {
					n = min(n, keep)
				} else {
					w.keepCut()
				}
			}
		}
		w.b.WriteString(text[:n])
		w.col += n
		w.lineCol += n
		w.pos += n
		text = text[n:]
	}
}

func (w *rowBuilder) cluster(text string, cells int) {
	if hidden := w.f.skip - w.lineCol; hidden > 0 {
		w.hideCluster(text, cells, hidden)
		return
	}
	if w.f.cutMark && !w.cut.set && w.f.width > 0 && w.col+cells > w.f.width-1 {
		w.keepCut()
	}
	w.pending = text
	if !w.room(cells) {
		return
	}
	if w.f.marks != nil {
		w.toMark()
	}
	w.b.WriteString(text)
	w.col += cells
	w.lineCol += cells
	w.pos += len(text)
}

func (w *rowBuilder) tab() {
	n := tabWidth - w.lineCol%tabWidth
	for i := 0; i < n && !w.done; i++ {
		w.ascii(" ")
	}
}

func (w *rowBuilder) sgr(seq string) {
	if !w.f.keepSGR || len(seq) > maxSGRLen {
		return
	}
	if w.f.noColour {
		if seq = termtext.WithoutColours(seq); seq == "" {
			return
		}
	}
	w.b.WriteString(seq)
	params := seq[2 : len(seq)-1]
	switch {
	case params == "" || params == "0":
		w.active = ""
		w.b.WriteString(w.f.base.Open)
		if w.inMark {
			w.b.WriteString(w.f.mark.Open)
		}
	case params[0] == ';' || strings.HasPrefix(params, "0;"):
		w.active = seq
	case len(w.active)+len(seq) > maxActiveSGR:
		w.active = seq
	default:
		w.active += seq
	}
	if w.inMark {
		w.b.WriteString(w.f.mark.Open) // the match stays marked over the line's colours
	}
	w.styled = w.active != "" || w.f.base.Open != "" || w.inMark
}

func (w *rowBuilder) finish() []string {
	w.endRow()
	return w.dst
}
