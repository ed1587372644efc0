package termtext

import (
	"bytes"
	"strconv"
	"strings"
)

// HasLineEdits reports whether a line holds what a terminal would edit
// the line with (see EditLine): a backspace, a bell (a terminal shows
// none: a line editor rings it on a tab with no completion), or a CSI
// sequence that moves the cursor along the line or erases, deletes or
// inserts in it.
func HasLineEdits(b []byte) bool {
	if bytes.IndexByte(b, '\b') >= 0 || bytes.IndexByte(b, '\a') >= 0 && hasBell(string(b)) {
		return true
	}
	return hasCSI(b, "CDGKP@Xsu", "78")
}

// HasCursorEdits is HasLineEdits but for bells: a backspace, or a
// sequence that moves the cursor along the line, saves or restores it,
// or erases, deletes or inserts in the line. It is what output written
// to a pipe, not a terminal, is played for: its bells are its own.
func HasCursorEdits(b []byte) bool {
	return bytes.IndexByte(b, '\b') >= 0 || hasCSI(b, "CDGKP@Xsu", "78")
}

// hasCSI reports whether b holds a control sequence with numeric
// parameters (digits and ";" only) and one of finals as its final byte,
// or an escape sequence of ESC and one of escFinals.
func hasCSI(b []byte, finals, escFinals string) bool {
	for i := bytes.IndexByte(b, 0x1b); i >= 0; {
		if i+1 < len(b) && strings.IndexByte(escFinals, b[i+1]) >= 0 {
			return true
		}
		if i+1 < len(b) && b[i+1] == '[' {
			k := i + 2
			for k < len(b) && (b[k] >= '0' && b[k] <= '9' || b[k] == ';') {
				k++
			}
			if k < len(b) && strings.IndexByte(finals, b[k]) >= 0 {
				return true
			}
		}
		next := bytes.IndexByte(b[i+1:], 0x1b)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// hasBell reports whether s rings a bell: a BEL of its own, not one that
// ends an OSC string (a title, a hyperlink).
func hasBell(s string) bool {
	for i := 0; i < len(s); {
		t := Next(s, i)
		if t.Kind == Control && s[i] == '\a' {
			return true
		}
		i = t.End
	}
	return false
}

// EditLine plays back, within one line, the edits a terminal makes when a
// line editor (a shell's prompt, readline, a REPL, the terminal's own echo
// of an erase) redraws the line being typed: backspace, cursor left and
// right (CSI D, C), to a column (CSI G), erase in line (CSI K), delete,
// insert and erase characters (CSI P, @, X). It returns the line as a
// terminal shows it: its colours (SGR) kept, other escape sequences and
// controls dropped. A line without such an edit (HasLineEdits) is
// returned as it is.
func EditLine(s string) string {
	out, _ := EditLineCursor(s)
	return out
}

// EditLineCursor is EditLine, and the column the cursor ends on.
func EditLineCursor(s string) (string, int) {
	return EditLineIn(s, 0)
}

// EditLineIn is EditLineCursor on a terminal cols cells wide (0: of no
// known width), which matters to an erase made with a background colour
// set: as a terminal does (xterm's "back colour erase"), it leaves the
// cells it erases blank in that colour, and only that colour (not the
// foreground, not bold...). An erase in line (CSI K) so colours the
// cells to the edge of the row the cursor is on (0), from the row's
// start (1) or the whole row (2): "\e[41m\e[K" is a red row to the
// terminal's edge, kept as that many blanks on a red background. An
// erase of characters (CSI X) colours those cells, up to the row's
// edge. On a terminal of no known width only the cells already written
// are coloured so; an erase without a background keeps no blank past
// the line's text, as before.
func EditLineIn(s string, cols int) (string, int) {
	if !HasLineEdits([]byte(s)) {
		return s, Width(s)
	}
	e := editLine(s, cols)
	return e.String(), e.x
}

// EditLinePen is EditLineIn, and the pen the line leaves: the SGR
// sequences in effect at its end, to write after the line returned (and
// a move of the cursor) so that text that follows is drawn in it, as on
// the terminal (the line returned resets its colours at its end). It is
// "" when the line is returned as it is: its own sequences set the pen.
//
// A cursor saved on the line (ESC 7, CSI s) is saved again at the line's
// end, so that the line returned, written again with more after it,
// plays a restore as s would have (a spinner over a saved cursor).
func EditLinePen(s string, cols int) (line string, x int, pen string) {
	if !HasLineEdits([]byte(s)) {
		return s, Width(s), ""
	}
	e := editLine(s, cols)
	line = e.String()
	if e.saved.set {
		line += "\x1b[" + strconv.Itoa(e.saved.x+1) + "G" + e.saved.pen + "\x1b7\x1b[0m"
	}
	return line, e.x, e.pen
}

// EditLineEnd is EditLineIn's line, and the pen in effect at its end
// (Pen's, its edits played: a cursor restore brings back the pen saved
// with it), whether or not the line has edits: what the next line
// starts with on a terminal.
func EditLineEnd(s string, cols int) (line, pen string) {
	if !HasLineEdits([]byte(s)) {
		return s, Pen(s)
	}
	e := editLine(s, cols)
	return e.String(), inEffect(e.pen)
}

// editLine plays s's line edits on a terminal cols cells wide.
func editLine(s string, cols int) *lineEditor {
	e := &lineEditor{cols: max(cols, 0)}
	for i := 0; i < len(s); {
		t := Next(s, i)
		switch t.Kind {
		case Text:
			for _, c := range []byte(s[i:t.End]) {
				e.write(string(c), 1)
			}
		case Cluster:
			e.write(s[i:t.End], t.Width)
		case Tab:
			e.x = (e.x/8 + 1) * 8
		case SGR:
			e.sgr(s[i:t.End])
		case Control:
			switch s[i] {
			case '\b':
				e.x = max(e.x-1, 0)
			case '\r':
				e.x = 0
			}
		case Invalid:
			e.write("\uFFFD", 1)
		case Escape:
			e.escape(s[i:t.End])
		}
		i = t.End
	}
	return e
}

// Width is the cells text takes on one line: its escape sequences and
// controls none, a tab to the next multiple of 8.
func Width(s string) int {
	w := 0
	for i := 0; i < len(s); {
		t := Next(s, i)
		switch t.Kind {
		case Text:
			w += t.End - i
		case Cluster:
			w += t.Width
		case Tab:
			w = (w/8 + 1) * 8
		case Invalid:
			w++
		}
		i = t.End
	}
	return w
}

// CutCells is the start of s that takes n cells (Width), its colours
// kept, and a reset after them if it has any.
func CutCells(s string, n int) string {
	w, sgr := 0, false
	var b strings.Builder
	for i := 0; i < len(s) && w < n; {
		t := Next(s, i)
		cells := 0
		switch t.Kind {
		case Text:
			t.End = min(t.End, i+n-w) // ASCII: a cell a byte
			cells = t.End - i
		case Cluster:
			cells = t.Width
		case Invalid:
			cells = 1
		case Tab:
			cells = (w/8+1)*8 - w
		case SGR:
			sgr = true
		case Escape, Control:
			i = t.End
			continue
		}
		if w+cells > n {
			break
		}
		b.WriteString(s[i:t.End])
		w += cells
		i = t.End
	}
	if sgr {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}

// maxPen bounds the SGR sequences a pen keeps: past it, they are folded
// into one (addPen).
const maxPen = 128

// editCell is one cell of an edited line: its text drawn with pen (the
// SGR sequences in effect). A wide character's right half has width 0.
type editCell struct {
	pen, text string
	width     int
}

var blankCell = editCell{text: " ", width: 1}

// maxEditCol is the rightmost column a cursor move reaches in a line
// being played, as a terminal's cursor stops at its right margin: a
// default line's worth (16 KiB). Unbounded, `\e[65536C` a few hundred
// times in one line made cells of gigabytes.
const maxEditCol = 16<<10 - 1

// lineEditor is a terminal one line high and as wide as it needs; cols
// wide for what an erase with a background colours (0: not known).
type lineEditor struct {
	cells []editCell
	x     int
	pen   string
	bg    string // the pen's background as one SGR sequence; "" for the default
	cols  int
	// saved is where a save of the cursor (ESC 7, CSI s) left it, with
	// the pen; restores (ESC 8, CSI u) go back there.
	saved struct {
		set     bool
		x       int
		pen, bg string
	}
}

// escape carries out the line edits among escape sequences: a save and
// a restore of the cursor, as a spinner drawn over one cell does
// ("\e7|\e8", "\e[s/\e[u"), or a control sequence (csi); it ignores the
// rest.
func (e *lineEditor) escape(seq string) {
	switch seq {
	case "\x1b7", "\x1b[s": // xterm's CSI s and u are ESC 7 and 8
		e.saved.set, e.saved.x, e.saved.pen, e.saved.bg = true, e.x, e.pen, e.bg
	case "\x1b8", "\x1b[u":
		if e.saved.set {
			e.x, e.pen, e.bg = e.saved.x, e.saved.pen, e.saved.bg
		}
	case "\x1bc", "\x1b[!p": // a terminal reset (IsPenReset): the pen's too
		e.pen, e.bg = "", ""
	default:
		e.csi(seq)
	}
}

// erased is a cell an erase leaves: blank, in the pen's background.
func (e *lineEditor) erased() editCell {
	if e.bg == "" {
		return blankCell
	}
	return editCell{pen: e.bg, text: " ", width: 1}
}

// rowEnd is the column past the end of the row the cursor is on, for
// an erase that colours cells up to it: 0 when none does (no
// background, or no known width).
func (e *lineEditor) rowEnd() int {
	if e.bg == "" || e.cols == 0 {
		return 0
	}
	return (e.x/e.cols + 1) * e.cols
}

// write draws text of width cells at the cursor and moves past it.
func (e *lineEditor) write(text string, width int) {
	switch width {
	case 0: // a combining mark on its own: joins the cell before
		if e.x > 0 && e.x <= len(e.cells) {
			e.cells[e.x-1].text += text
		}
	case 2:
		e.set(e.x, editCell{pen: e.pen, text: text, width: 2})
		e.set(e.x+1, editCell{pen: e.pen, width: 0})
		e.x += 2
	default:
		e.set(e.x, editCell{pen: e.pen, text: text, width: 1})
		e.x++
	}
}

// set puts c at column i; a wide character it cuts in half is blanked.
func (e *lineEditor) set(i int, c editCell) {
	for len(e.cells) <= i {
		e.cells = append(e.cells, blankCell)
	}
	old := e.cells[i]
	if old.width == 0 && c.width != 0 && i > 0 {
		e.cells[i-1] = blankCell // its left half
	}
	if old.width == 2 && i+1 < len(e.cells) {
		e.cells[i+1] = blankCell // its right half
	}
	e.cells[i] = c
}

// sgr changes the pen.
func (e *lineEditor) sgr(seq string) {
	e.bg = background(e.bg, seq)
	e.pen = addPen(e.pen, seq)
}

// csi carries out the line edits among escape sequences; it ignores the
// rest.
func (e *lineEditor) csi(seq string) {
	if len(seq) < 3 || seq[1] != '[' {
		return
	}
	params, final := seq[2:len(seq)-1], seq[len(seq)-1]
	n := 0
	for _, c := range []byte(params) {
		if c < '0' || c > '9' {
			if final != 'K' || c != ';' {
				return // private or several parameters: not a line edit
			}
			continue
		}
		n = min(n*10+int(c-'0'), 1<<16)
	}
	count := max(n, 1)
	switch final {
	case 'D':
		e.x = max(e.x-count, 0)
	case 'C':
		e.x = max(e.x, min(e.x+count, maxEditCol))
	case 'G':
		e.x = min(count-1, maxEditCol)
	case 'K':
		end := e.rowEnd()
		switch n {
		case 0:
			if e.x < len(e.cells) {
				e.set(e.x, blankCell) // a wide character cut in half
				e.cells = e.cells[:e.x]
			}
			for i := e.x; i < end; i++ {
				e.set(i, e.erased())
			}
		case 1:
			start := 0
			if end > 0 {
				start = end - e.cols
			}
			for i := start; i <= e.x && (i < len(e.cells) || end > 0); i++ {
				e.set(i, e.erased())
			}
		case 2:
			e.cells = e.cells[:0]
			for i := max(end-e.cols, 0); i < end; i++ {
				e.set(i, e.erased())
			}
		}
	case 'P':
		if e.x < len(e.cells) {
			e.set(e.x, blankCell)
			e.cells = append(e.cells[:e.x], e.cells[min(e.x+count, len(e.cells)):]...)
			if e.x < len(e.cells) && e.cells[e.x].width == 0 {
				e.cells[e.x] = blankCell
			}
		}
	case '@':
		if e.x < len(e.cells) && e.x <= maxEditCol {
			if e.cells[e.x].width == 0 { // a wide character cut in half
				e.cells[e.x-1], e.cells[e.x] = blankCell, blankCell
			}
			// Cells pushed past the margin are gone, as on a terminal.
			count = min(count, maxEditCol+1-e.x)
			old := len(e.cells)
			for len(e.cells) < min(old+count, maxEditCol+1) {
				e.cells = append(e.cells, blankCell)
			}
			copy(e.cells[e.x+count:], e.cells[e.x:old])
			for i := e.x; i < e.x+count; i++ {
				e.cells[i] = blankCell
			}
		}
	case 'X':
		end := max(len(e.cells), min(e.x+count, e.rowEnd()))
		for i := e.x; i < e.x+count && i < end; i++ {
			e.set(i, e.erased())
		}
	}
}

// String is the line as drawn, each change of pen written as a reset and
// the new pen.
func (e *lineEditor) String() string {
	var b strings.Builder
	pen := ""
	for _, c := range e.cells {
		if c.width == 0 {
			continue
		}
		if c.pen != pen {
			if pen != "" {
				b.WriteString("\x1b[0m")
			}
			b.WriteString(c.pen)
			pen = c.pen
		}
		b.WriteString(c.text)
	}
	if pen != "" {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}

// background is the pen's background after the SGR sequence seq, from
// bg: one SGR sequence setting it ("\e[41m", "\e[48;5;196m"), or "" for
// the terminal's default.
func background(bg, seq string) string {
	params := seq[2 : len(seq)-1] // an SGR token: ESC [ params m
	if params == "" {
		return ""
	}
	fields := strings.Split(params, ";")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if strings.Contains(f, ":") { // sub-parameters: 48:5:n, 48:2::r:g:b
			if strings.HasPrefix(f, "48:") {
				bg = "\x1b[" + f + "m"
			}
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil && f != "" {
			continue
		}
		switch {
		case n == 0 || n == 49:
			bg = ""
		case n >= 40 && n <= 47 || n >= 100 && n <= 107:
			bg = "\x1b[" + strconv.Itoa(n) + "m"
		case n == 38 || n == 48 || n == 58: // a colour in the parameters that follow
			k := 0
			if i+1 < len(fields) {
				switch fields[i+1] {
				case "5":
					k = 2
				case "2":
					k = 4
				}
			}
			if k == 0 || i+1+k > len(fields) {
				return bg // malformed: a terminal reads no further either
			}
			if n == 48 {
				bg = "\x1b[" + strings.Join(fields[i:i+1+k], ";") + "m"
			}
			i += k
		}
	}
	return bg
}
