package ui

import (
	"unicode"

	"jobtop/termtext"
)

// A row cut at the pane's edge (wrap off) ends with cutMarker in its last
// cell, so cut text gives a sign, unless only blanks are cut off (a line
// padded to a wider terminal's width, a coloured bar drawn to its edge); a pane scrolled sideways hides the
// first cells of each line (lineFormat.skip), as less -S does.

// cutMarker ends a row whose line goes on past the pane's edge.
const cutMarker = "…"

// cutPoint is the row as it was before content reached its last cell:
// where the cut marker goes if the line turns out not to fit.
type cutPoint struct {
	len, col int
	styled   bool
	set      bool
}

// keepCut remembers the row as it is now, before content that reaches
// its last cell.
func (w *rowBuilder) keepCut() {
	w.cut = cutPoint{len: w.b.Len(), col: w.col, styled: w.styled, set: true}
}

// markCut ends a row that is cut: what reached the last cell (if
// anything) makes room for the marker.
func (w *rowBuilder) markCut() {
	if w.cut.set {
		w.b.Truncate(w.cut.len)
		w.col, w.styled = w.cut.col, w.cut.styled
	}
	if w.col < w.f.width {
		w.b.WriteString(cutMarker)
		w.col++
	}
	if w.f.cuts != nil {
		*w.f.cuts++
	}
}

// hideCluster passes over a cluster left of the pane's edge (hidden of
// the line's cells are still hidden); the part of a wide one that
// reaches past the edge is drawn as blanks.
func (w *rowBuilder) hideCluster(text string, cells, hidden int) {
	if w.f.marks != nil {
		w.toMark()
	}
	w.lineCol += cells
	w.pos += len(text)
	for i := hidden; i < cells && w.room(1); i++ {
		w.b.WriteByte(' ')
		w.col++
	}
}

// blankRest reports whether what a cut leaves off the row shows no
// character: spaces, tabs and escape sequences only.
func (w *rowBuilder) blankRest() bool {
	return blankText(w.pending) && blankText(w.rest)
}

// blankText reports whether s shows no character; it stops at the first
// that it shows, so a long line costs no more than its blanks.
func blankText(s string) bool {
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c > ' ' && c < 0x7f:
			return false
		default: // an escape sequence, a control, or a character past ASCII
			t := termtext.Next(s, i)
			if t.Kind == termtext.Cluster && blankCluster(s[i:t.End]) {
				i = t.End
				continue
			}
			if t.Kind == termtext.Cluster || t.Kind == termtext.Invalid || t.Kind == termtext.Text {
				return false
			}
			i = t.End
		}
	}
	return true
}

// blankCluster reports whether a character past ASCII shows nothing: a
// space of another width (no-break, ideographic, thin...; not the Ogham
// mark, drawn as a line), a zero-width one (ZWSP, joiners, word joiner,
// BOM), or a blank used as padding (braille blank, Hangul fillers), which
// pad a row as spaces do.
func blankCluster(c string) bool {
	for _, r := range c {
		switch {
		case r == '\u1680':
			return false
		case unicode.IsSpace(r), r == '\u200b', r == '\u200c', r == '\u200d', r == '\u2060', r == '\ufeff',
			r == '\u2800', r == '\u3164', r == '\u115f', r == '\u1160', r == '\uffa0':
		default:
			return false
		}
	}
	return true
}
