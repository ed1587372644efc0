package vtfast

import (
	"strings"
	"unicode/utf8"
)

// renderBufs are the scratch buffers rows are rendered in, reused.
type renderBufs struct {
	plain, styled []byte
}

// render rebuilds l's frame row from its cells: the plain text, trailing
// blanks trimmed; the text with SGR sequences, reset at the end; and the
// columns that takes. Blanks at the end that a terminal draws in the
// default colours are left out of both; a wide character's continuation
// cell is skipped, so the character fills its two columns.
func (t *term) render(l *line, rb *renderBufs) {
	cells := l.cells
	end := len(cells)
	for end > 0 {
		c := &cells[end-1]
		if c.w == 0 || (c.r == ' ' && c.st == style{}) {
			end--
			continue
		}
		break
	}
	var pen style
	cols := 0
	plain, styled := rb.plain[:0], rb.styled[:0]
	styledRow := false
	for x := 0; x < end; x++ {
		c := &cells[x]
		if c.w == 0 {
			continue
		}
		cols += int(c.w)
		if c.st != pen {
			if pen != (style{}) {
				styled = append(styled, "\x1b[m"...)
			}
			if c.st != (style{}) {
				styled = appendSGR(styled, c.st)
			}
			pen, styledRow = c.st, true
		}
		switch {
		case c.r >= 0 && c.r < utf8.RuneSelf:
			plain = append(plain, byte(c.r))
			styled = append(styled, byte(c.r))
		case c.r >= 0:
			n := len(plain)
			plain = utf8.AppendRune(plain, c.r)
			styled = append(styled, plain[n:]...)
		default:
			text := t.clusters[-c.r-1]
			plain = append(plain, text...)
			styled = append(styled, text...)
		}
	}
	if pen != (style{}) {
		styled = append(styled, "\x1b[m"...)
	}
	full := string(plain)
	l.plain = strings.TrimRight(full, " ")
	if styledRow {
		l.ansi = string(styled)
	} else {
		l.ansi = full
	}
	l.width = cols
	l.dirty = false
	rb.plain, rb.styled = plain, styled
}
