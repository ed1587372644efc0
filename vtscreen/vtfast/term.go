package vtfast

import (
	"jobtop/termtext"
	"jobtop/vtscreen"
)

// cell is one column of a row. A wide character takes a cell of width 2
// and the continuation cell to its right (width 0, no rune). A rune
// below 0 names a grapheme cluster in term.clusters (a character and the
// combining marks drawn over it).
type cell struct {
	r  rune
	st style
	w  uint8
}

// line is one row of a buffer with the frame row last rendered from it:
// dirty says the cells changed since. Scrolling moves lines, so a line's
// rendering moves with it and is not redone.
type line struct {
	cells []cell
	dirty bool
	plain string
	ansi  string
	width int
}

// buffer is a screen's rows, top first: the main screen or the alternate.
type buffer struct {
	lines []*line
	// shrunk are the rows a resize took off the screen's top, newest
	// last (see term.resize).
	shrunk []*line
}

// cursor is the state DECSC saves and DECRC restores.
type cursor struct {
	x, y     int
	pen      style
	wrapNext bool
	origin   bool
	charsets [2]bool // G0, G1: DEC line drawing
	shift    int     // the set in use: 0 (SI) or 1 (SO)
}

// term is the emulator proper: the screen and the parser's state. Screen
// guards it with its mutex.
type term struct {
	cols, rows int
	main, alt  buffer
	buf        *buffer
	altOn      bool

	cursor
	saved, savedAlt cursor // DECSC's slots, one per screen
	top, bot        int    // the scroll region, rows top..bot inclusive
	autowrap        bool
	insert          bool // IRM
	hidden          bool // the cursor (?25)
	tabs            []bool
	modes           vtscreen.InputModes
	altMainY        int // the main screen's cursor row as the alternate screen was shown

	last  rune // the last character printed, for REP
	prevX int  // where it went, for combining marks to join; -1 if nowhere
	prevY int

	clusters []string
	clusterN map[string]int32

	parser
	reply func([]byte) // answers to queries; called under Screen's lock
}

func newTerm(cols, rows int) *term {
	t := &term{}
	t.cols, t.rows = cols, rows
	t.main.lines = newLines(cols, rows)
	t.alt.lines = newLines(cols, rows)
	t.reset()
	return t
}

func newLines(cols, rows int) []*line {
	ls := make([]*line, rows)
	cells := make([]cell, cols*rows)
	for y := range ls {
		ls[y] = &line{cells: cells[y*cols : (y+1)*cols : (y+1)*cols], dirty: true}
		blank(ls[y].cells, style{})
	}
	return ls
}

// reset is RIS: everything back to how a new terminal starts but its size.
func (t *term) reset() {
	t.buf, t.altOn = &t.main, false
	for _, b := range []*buffer{&t.main, &t.alt} {
		for _, l := range b.lines {
			blank(l.cells, style{})
			l.dirty = true
		}
	}
	t.cursor = cursor{}
	t.saved, t.savedAlt = cursor{}, cursor{}
	t.main.shrunk, t.alt.shrunk = nil, nil
	t.top, t.bot = 0, t.rows-1
	t.autowrap, t.insert, t.hidden = true, false, false
	t.resetTabs()
	t.modes = vtscreen.InputModes{}
	t.last, t.prevX = 0, -1
	t.clusters, t.clusterN = nil, nil
	t.parser = parser{}
}

func (t *term) resetTabs() {
	t.tabs = make([]bool, t.cols)
	for x := 8; x < t.cols; x += 8 {
		t.tabs[x] = true
	}
}

// blank fills cells with spaces in the erase style: a blank keeps the
// background colour of the pen that erased it, as terminals do (BCE).
func blank(cells []cell, s style) {
	c := cell{r: ' ', st: style{bg: s.bg}, w: 1}
	for i := range cells {
		cells[i] = c
	}
}

// line returns row y for writing.
func (t *term) line(y int) *line {
	l := t.buf.lines[y]
	l.dirty = true
	return l
}

// runeWidth is the columns r takes: 0 for a mark that joins the cell
// before it, 1 or 2. It is termtext.RuneWidth, the width glibc's wcwidth
// gives where that is larger than Unicode's tables: the program on the
// PTY lays its screen out by wcwidth, and the terminal jobtop runs in
// draws the cells by it.
func runeWidth(r rune) int {
	if r < 0x300 {
		return 1 // Latin: nothing below U+0300 joins or is wide
	}
	if r >= 0x2500 && r <= 0x259f {
		return 1 // box drawing and blocks, the bulk of a TUI's frame
	}
	return termtext.RuneWidth(r)
}

// printASCII writes a run of printable ASCII at the cursor, the common
// case, straight into the row.
func (t *term) printASCII(run []byte) {
	if t.insert || t.charsets[t.shift] {
		for _, b := range run {
			t.printRune(rune(b))
		}
		return
	}
	for len(run) > 0 {
		if t.wrapNext {
			if !t.autowrap {
				// Without autowrap the run lands on the last column; its
				// last byte stays.
				l := t.line(t.y)
				t.splitWide(l, t.cols-1, t.cols)
				b := run[len(run)-1]
				l.cells[t.cols-1] = cell{r: rune(b), st: t.pen, w: 1}
				t.last, t.prevX, t.prevY = rune(b), t.cols-1, t.y
				return
			}
			t.wrap()
		}
		l := t.line(t.y)
		n := min(len(run), t.cols-t.x)
		t.splitWide(l, t.x, t.x+n)
		cells := l.cells[t.x : t.x+n]
		for i, b := range run[:n] {
			cells[i] = cell{r: rune(b), st: t.pen, w: 1}
		}
		t.last, t.prevX, t.prevY = rune(run[n-1]), t.x+n-1, t.y
		if t.x+n == t.cols {
			t.x, t.wrapNext = t.cols-1, true
		} else {
			t.x += n
		}
		run = run[n:]
	}
}

// splitWide blanks the halves of wide characters that cells x0..x1-1 of
// l are about to cut in two.
func (t *term) splitWide(l *line, x0, x1 int) {
	if x0 > 0 && l.cells[x0].w == 0 {
		l.cells[x0-1] = cell{r: ' ', st: l.cells[x0-1].st, w: 1}
	}
	if x1 < t.cols && l.cells[x1].w == 0 {
		l.cells[x1] = cell{r: ' ', st: l.cells[x1].st, w: 1}
	}
}

// wrap moves to the start of the next line, scrolling at the bottom of
// the scroll region.
func (t *term) wrap() {
	t.x, t.wrapNext = 0, false
	t.index()
}

// printRune writes one character at the cursor.
func (t *term) printRune(r rune) {
	if t.charsets[t.shift] && r >= '_' && r <= '~' {
		r = lineDrawing[r-'_']
	}
	w := runeWidth(r)
	if w == 0 {
		t.join(r)
		return
	}
	if t.wrapNext && t.autowrap {
		t.wrap()
	}
	if w == 2 && t.x == t.cols-1 {
		if !t.autowrap || t.cols < 2 {
			return // it cannot be drawn
		}
		l := t.line(t.y)
		t.splitWide(l, t.x, t.x+1)
		l.cells[t.x] = cell{r: ' ', st: style{bg: t.pen.bg}, w: 1}
		t.wrap()
	}
	l := t.line(t.y)
	if t.insert {
		t.insertBlanks(w)
	}
	t.splitWide(l, t.x, t.x+w)
	l.cells[t.x] = cell{r: r, st: t.pen, w: uint8(w)}
	if w == 2 {
		l.cells[t.x+1] = cell{st: t.pen}
	}
	t.last, t.prevX, t.prevY = r, t.x, t.y
	if t.x+w >= t.cols {
		t.x, t.wrapNext = t.cols-1, true
	} else {
		t.x += w
	}
}

// join adds a zero-width rune (a combining mark, a joiner, a variation
// selector) to the character printed last.
func (t *term) join(r rune) {
	if t.prevX < 0 || t.prevX >= t.cols || t.prevY >= t.rows || r < 0x20 || (r >= 0x7f && r < 0xa0) {
		return
	}
	l := t.line(t.prevY)
	c := &l.cells[t.prevX]
	if c.w == 0 {
		return
	}
	c.r = t.cluster(string(clusterText(t, c.r)) + string(r))
}

// clusterText is the text of a cell's rune or cluster.
func clusterText(t *term, r rune) string {
	if r < 0 {
		return t.clusters[-r-1]
	}
	return string(r)
}

// maxClusters bounds the cluster table; past it, clusters no cell shows
// any more are dropped.
const maxClusters = 1024

// maxClusterLen bounds one cluster: marks past it are dropped.
const maxClusterLen = 32

// cluster returns the rune that names text in the cluster table.
func (t *term) cluster(text string) rune {
	if len(text) > maxClusterLen {
		text = text[:maxClusterLen]
	}
	if i, ok := t.clusterN[text]; ok {
		return -i - 1
	}
	if len(t.clusters) >= maxClusters {
		t.compactClusters()
	}
	if t.clusterN == nil {
		t.clusterN = map[string]int32{}
	}
	i := int32(len(t.clusters))
	t.clusters = append(t.clusters, text)
	t.clusterN[text] = i
	return -i - 1
}

// compactClusters keeps only the clusters some cell shows.
func (t *term) compactClusters() {
	old := t.clusters
	t.clusters, t.clusterN = nil, map[string]int32{}
	for _, b := range []*buffer{&t.main, &t.alt} {
		for _, l := range b.lines {
			for i := range l.cells {
				if c := &l.cells[i]; c.r < 0 {
					text := old[-c.r-1]
					n, ok := t.clusterN[text]
					if !ok {
						n = int32(len(t.clusters))
						t.clusters = append(t.clusters, text)
						t.clusterN[text] = n
					}
					c.r = -n - 1
				}
			}
		}
	}
	if len(t.clusters) >= maxClusters { // every one in use: start afresh
		for _, b := range []*buffer{&t.main, &t.alt} {
			for _, l := range b.lines {
				for i := range l.cells {
					if c := &l.cells[i]; c.r < 0 {
						c.r = []rune(t.clusters[-c.r-1])[0]
						l.dirty = true
					}
				}
			}
		}
		t.clusters, t.clusterN = nil, map[string]int32{}
	}
}

// lineDrawing is the DEC Special Graphics set for '_' to '~'.
var lineDrawing = [...]rune{
	' ', '◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼',
	'⎺', '⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '⩽', '⩾', 'π', '≠', '£', '·',
}

// index is LF (and IND): down a row, scrolling at the region's bottom.
func (t *term) index() {
	switch {
	case t.y == t.bot:
		t.scrollOff(1)
	case t.y < t.rows-1:
		t.y++
	}
}

// reverseIndex is RI: up a row, scrolling down at the region's top.
func (t *term) reverseIndex() {
	switch {
	case t.y == t.top:
		t.scrollDown(t.top, t.bot, 1)
	case t.y > 0:
		t.y--
	}
}

// scrollUp moves rows top+n..bot up by n, blanking the n at the bottom.
// The lines move, not their cells.
func (t *term) scrollUp(top, bot, n int) {
	n = min(n, bot-top+1)
	if n <= 0 {
		return
	}
	ls := t.buf.lines[top : bot+1]
	gone := append([]*line(nil), ls[:n]...)
	copy(ls, ls[n:])
	copy(ls[len(ls)-n:], gone)
	for _, l := range gone {
		blank(l.cells, t.pen)
		l.dirty = true
	}
}

// scrollOff scrolls the region up by n rows as new lines do (LF, IND,
// SU). Rows a resize took off the screen's top are above those it
// scrolls off the top: they go on after them, so that growing brings
// the rows back in their order.
func (t *term) scrollOff(n int) {
	if t.top == 0 && len(t.buf.shrunk) > 0 {
		for _, l := range t.buf.lines[:min(n, t.bot+1)] {
			t.buf.keepShrunk(&line{cells: append([]cell(nil), l.cells...)})
		}
	}
	t.scrollUp(t.top, t.bot, n)
}

// scrollDown moves rows top..bot-n down by n, blanking the n at the top.
func (t *term) scrollDown(top, bot, n int) {
	n = min(n, bot-top+1)
	if n <= 0 {
		return
	}
	ls := t.buf.lines[top : bot+1]
	gone := append([]*line(nil), ls[len(ls)-n:]...)
	copy(ls[n:], ls[:len(ls)-n])
	copy(ls, gone)
	for _, l := range gone {
		blank(l.cells, t.pen)
		l.dirty = true
	}
}

// erase blanks cells x0..x1-1 of row y.
func (t *term) erase(y, x0, x1 int) {
	x0, x1 = max(x0, 0), min(x1, t.cols)
	if x0 >= x1 {
		return
	}
	l := t.line(y)
	t.splitWide(l, x0, x1)
	blank(l.cells[x0:x1], t.pen)
}

// insertBlanks is ICH: n blanks at the cursor, the rest of the row moving
// right and off its end.
func (t *term) insertBlanks(n int) {
	l := t.line(t.y)
	n = min(n, t.cols-t.x)
	t.splitWide(l, t.x, t.x)
	copy(l.cells[t.x+n:], l.cells[t.x:])
	blank(l.cells[t.x:t.x+n], t.pen)
	if l.cells[t.cols-1].w == 2 {
		l.cells[t.cols-1] = cell{r: ' ', st: l.cells[t.cols-1].st, w: 1}
	}
}

// deleteChars is DCH: n cells at the cursor go, the rest of the row moving
// left, blanks coming in at its end.
func (t *term) deleteChars(n int) {
	l := t.line(t.y)
	n = min(n, t.cols-t.x)
	t.splitWide(l, t.x, t.x+n)
	copy(l.cells[t.x:], l.cells[t.x+n:])
	blank(l.cells[t.cols-n:], t.pen)
}

// setCursor moves the cursor to x, y on the screen, clamped.
func (t *term) setCursor(x, y int) {
	t.x, t.y = min(max(x, 0), t.cols-1), min(max(y, 0), t.rows-1)
	t.wrapNext = false
}

// moveTo is CUP: x, y from the top left, or from the region's top with
// origin mode, where the cursor stays inside the region.
func (t *term) moveTo(x, y int) {
	if t.origin {
		y = min(max(y+t.top, t.top), t.bot)
	}
	t.setCursor(x, y)
}

// moveUp is CUU: up n rows, stopping at the region's top if it starts
// below it.
func (t *term) moveUp(n int) {
	stop := 0
	if t.y >= t.top {
		stop = t.top
	}
	t.setCursor(t.x, max(t.y-n, stop))
}

// moveDown is CUD: down n rows, stopping at the region's bottom if it
// starts above it.
func (t *term) moveDown(n int) {
	stop := t.rows - 1
	if t.y <= t.bot {
		stop = t.bot
	}
	t.setCursor(t.x, min(t.y+n, stop))
}

// tab moves to the n-th next tab stop (back with n < 0), or the row's end.
func (t *term) tab(n int) {
	x := t.x
	for ; n > 0 && x < t.cols-1; n-- {
		for x++; x < t.cols-1 && !t.tabs[x]; x++ {
		}
	}
	for ; n < 0 && x > 0; n++ {
		for x--; x > 0 && !t.tabs[x]; x-- {
		}
	}
	t.x = x
	t.wrapNext = false
}

// setAlt switches to the alternate screen or back. clear blanks the
// alternate screen first (1049, 1047).
func (t *term) setAlt(on, clear bool) {
	if on == t.altOn {
		return
	}
	t.altOn = on
	t.alt.shrunk = nil // rows of an alternate screen shown before
	if on {
		t.altMainY = t.y
		t.buf = &t.alt
		if clear {
			for _, l := range t.alt.lines {
				blank(l.cells, style{})
				l.dirty = true
			}
		}
	} else {
		t.buf = &t.main
	}
	t.prevX = -1
}

// save is DECSC.
func (t *term) save() {
	if t.altOn {
		t.savedAlt = t.cursor
	} else {
		t.saved = t.cursor
	}
}

// restore is DECRC.
func (t *term) restore() {
	c := t.saved
	if t.altOn {
		c = t.savedAlt
	}
	t.cursor = c
	t.x, t.y = min(t.x, t.cols-1), min(t.y, t.rows-1)
}

// resize changes the size, keeping what fits of each screen (the rows by
// the cursor, from the left) and blanking what is new, as a terminal
// without reflow does.
func (t *term) resize(cols, rows int) {
	// Fewer rows keep the cursor's: the rows above it go, as in xterm
	// and tmux (they scroll off), so a program drawing below its earlier
	// lines (an inline TUI, a prompt) stays in sight, and one on the
	// alternate screen that does not redraw shows the rows it wrote last
	// with the cursor on its own row; more rows bring them back (as
	// tmux's history does), so a pane made smaller for a while (a split)
	// is as it was once it is back. The alternate screen while not shown
	// keeps its top left.
	mainY, altY := t.y, 0 // the cursor's row on each screen
	if t.altOn {
		mainY, altY = t.altMainY, t.y // the main one's as the alternate one was shown
	}
	var moved [2]int // how far each screen's rows went down
	for i, b := range []*buffer{&t.main, &t.alt} {
		y := mainY
		if b == &t.alt {
			y = altY
		}
		drop := min(max(y-(rows-1), 0), len(b.lines)-1)
		pull := min(max(rows-t.rows, 0), len(b.shrunk))
		src := b.shrink(drop, pull)
		moved[i] = pull - drop
		ls := newLines(cols, rows)
		for y := 0; y < min(rows, len(src)); y++ {
			copy(ls[y].cells, src[y].cells)
			if cols < len(src[y].cells) {
				if c := &ls[y].cells[cols-1]; c.w == 2 {
					*c = cell{r: ' ', st: c.st, w: 1}
				}
			}
		}
		b.lines = ls
	}
	if t.altOn {
		t.altMainY = min(max(t.altMainY+moved[0], 0), rows-1)
		t.y += moved[1]
	} else {
		t.y += moved[0]
	}
	t.saved.y = min(max(t.saved.y+moved[0], 0), rows-1)
	t.savedAlt.y = min(max(t.savedAlt.y+moved[1], 0), rows-1)
	if t.wrapNext && t.x < cols-1 {
		t.x++
		t.wrapNext = false
	}
	t.cols, t.rows = cols, rows
	t.x, t.y = min(t.x, cols-1), min(max(t.y, 0), rows-1)
	t.top, t.bot = 0, rows-1
	t.resetTabs()
	t.prevX = -1
}

// maxShrunk bounds the rows kept of a screen's top (keepShrunk).
const maxShrunk = 200

// keepShrunk keeps rows that left the screen's top: the newest
// maxShrunk of them at least, twice that at most.
func (b *buffer) keepShrunk(ls ...*line) {
	b.shrunk = append(b.shrunk, ls...)
	if n := len(b.shrunk); n > 2*maxShrunk {
		b.shrunk = append([]*line(nil), b.shrunk[n-maxShrunk:]...)
	}
}

// shrink is the screen's rows for a resize: drop rows off the top kept
// in shrunk, or pull rows back from it above them.
func (b *buffer) shrink(drop, pull int) []*line {
	lines := b.lines
	if drop > 0 {
		b.keepShrunk(lines[:drop]...)
		return lines[drop:]
	}
	if pull > 0 {
		n := len(b.shrunk)
		back := append(append([]*line(nil), b.shrunk[n-pull:]...), lines...)
		b.shrunk = b.shrunk[:n-pull]
		return back
	}
	return lines
}
