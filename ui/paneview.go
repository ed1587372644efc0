package ui

import (
	"strconv"
	"strings"
)

// View draws the header and the rows: exactly height lines.
func (p *outputPane) View() string {
	if p.height <= 0 || p.width <= 0 {
		return ""
	}
	var b strings.Builder
	header := p.headerView()
	h := p.bodyHeight()
	// A screen's rows are long (a colour change every few cells): one
	// allocation, not a dozen of growing copies, per frame.
	size := len(header) + h
	for _, r := range p.rows[:min(len(p.rows), h)] {
		size += len(r)
	}
	b.Grow(size + 64)
	b.WriteString(header)
	for i := 0; i < h; i++ {
		b.WriteByte('\n')
		if row, ok := p.bodyRow(i); ok {
			b.WriteString(row)
		}
	}
	return b.String()
}

// bodyRow is the i-th row of the body, and whether it has any text.
func (p *outputPane) bodyRow(i int) (string, bool) {
	switch {
	case i < len(p.rows):
		return p.shownRow(i), true
	case i == 0 && p.has:
		return p.pal.muted.Wrap(cut(p.emptyText(), p.width)), true
	}
	return "", false
}

// bodyRowWidth is the width in cells of bodyRow(i).
func (p *outputPane) bodyRowWidth(i int) int {
	switch {
	case i < len(p.widths):
		return p.widths[i]
	case i == 0 && p.has:
		return textWidth(cut(p.emptyText(), p.width))
	}
	return 0
}

// emptyText is what the body says when it has no lines.
func (p *outputPane) emptyText() string {
	switch {
	case p.logSearch != nil && !p.logSearch.complete:
		return "(searching the log file…)"
	case p.logSearch != nil:
		return "(no line of the log file matches " + p.logSearch.m.label() + ")"
	case p.search != nil && p.search.filter && !p.search.complete:
		return "(searching…)"
	case p.search != nil && p.search.filter:
		return "(no line matches " + p.search.m.label() + ")"
	case p.kind == allPane:
		return "(no output from any job yet)"
	case p.cleared():
		return "" // a terminal's cleared screen is blank; its lines are above
	case p.job.State.Ended():
		return "(no output)" // none is coming: it ended
	}
	return "(no output yet)"
}

// Borders of the panes of a split view: the focused pane's is heavy, so
// it shows without colour too; the pane typed into (input mode) is
// double.
var (
	borderLight = [6]string{"╭", "─", "╮", "│", "╰", "╯"}
	borderHeavy = [6]string{"┏", "━", "┓", "┃", "┗", "┛"}
	borderInput = [6]string{"╔", "═", "╗", "║", "╚", "╝"}
)

// box is a pane drawn in a box of width × height cells, with the header
// in its top edge; the pane's own size must be (width-2) × (height-1).
// Rows are written one at a time, so boxes side by side can be drawn
// into one buffer.
//
// A terminal may draw a row's text narrower than jobtop counts it (⚠️ is
// one cell in tmux 3.3, two in kitty, and counted two), which would pull
// the box's right edge, and every box after it on the row, to the left.
// So where a row holds such text, writeRow ends it by erasing what is
// left of the row and moving the cursor to the right edge's column
// (EL, CHA) before it draws the edge: the boxes stay in place, the text
// just ends early. Rows of ASCII alone need neither.
type box struct {
	p             *outputPane
	width, height int
	// top is the top edge with the header, but its right corner.
	top, corner, side, bot string
}

func (p *outputPane) box(width, height int) box {
	chars, style := borderLight, p.pal.border
	switch {
	case p.typing:
		chars, style = borderInput, p.pal.inputBorder
	case p.focused:
		chars, style = borderHeavy, p.pal.borderFocused
	}
	x := box{p: p, width: width, height: height, side: style.Wrap(chars[3])}
	key := p.headerKey(width, true)
	if key == p.header.key {
		x.top, x.corner, x.bot = p.header.text, p.header.corner, p.header.bottom
		return x
	}
	inner := width - 2
	mark, left, right := p.headerParts()
	title := p.pal.title
	if p.focused {
		title = p.pal.titleFocused
	} else {
		mark = style.Wrap(chars[1]) + " "
	}
	right += " " + style.Wrap(chars[1])
	rightW := textWidth(right)
	if rightW+len("▸ ")+1 >= inner {
		right, rightW = "", 0
	}
	left = cut(left+" ", inner-rightW-2)
	fill := max(inner-rightW-2-textWidth(left), 0)
	x.top = style.Wrap(chars[0]) + mark + title.Wrap(left) + style.Wrap(strings.Repeat(chars[1], fill)) + right
	x.corner = style.Wrap(chars[2])
	x.bot = style.Wrap(chars[4] + strings.Repeat(chars[1], inner) + chars[5])
	p.header = headerCache{key: key, text: x.top, corner: x.corner, bottom: x.bot}
	return x
}

// writeRow writes row i of the box, whose right edge is in column edge
// of the screen (from 0).
func (x box) writeRow(b *strings.Builder, i, edge int) {
	switch {
	case i == 0:
		b.WriteString(x.top)
		moveTo(b, edge) // the header holds a job's name and command
		b.WriteString(x.corner)
	case i == x.height-1:
		b.WriteString(x.bot)
	default:
		b.WriteString(x.side)
		row, _ := x.p.bodyRow(i - 1)
		b.WriteString(row)
		writeSpaces(b, x.width-2-x.p.bodyRowWidth(i-1))
		if !printableASCII(row) {
			moveTo(b, edge)
		}
		b.WriteString(x.side)
	}
}

// moveTo erases the rest of the screen's row and puts the cursor in
// column x (from 0) of it: EL, then CHA. Both take no cells, for jobtop's
// count and for the renderer's.
func moveTo(b *strings.Builder, x int) {
	b.WriteString("\x1b[K\x1b[")
	b.WriteString(strconv.Itoa(x + 1))
	b.WriteByte('G')
}

// printableASCII says s holds no byte above ASCII: text every terminal
// draws as jobtop counts it (escape sequences take no cells, and what
// jobtop draws holds no other control).
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// spaces pads rows without allocating.
const spaces = "                                                                "

func writeSpaces(b *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
}
