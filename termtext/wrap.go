package termtext

import "strings"

// WrapCells cuts text (printable text, tabs and SGR sequences, as Visible
// gives it) into the rows a terminal n cells wide shows it on: a wide
// character that does not fit at the end of a row starts the next, and a
// tab stops at the row's last column at most. Each row starts with the SGR sequences in
// effect where it starts, and ends with a reset if some are in effect
// where it ends. Empty text is one empty row.
func WrapCells(text string, n int) []string {
	n = max(n, 1)
	var rows []string
	var b strings.Builder
	pen := ""
	w := 0
	endRow := func() {
		if pen != "" {
			b.WriteString("\x1b[0m")
		}
		rows = append(rows, b.String())
		b.Reset()
		b.WriteString(pen)
		w = 0
	}
	for i := 0; i < len(text); {
		t := Next(text, i)
		switch t.Kind {
		case Text:
			for i < t.End { // a cell a byte
				if w == n {
					endRow()
				}
				k := min(t.End, i+n-w)
				b.WriteString(text[i:k])
				w += k - i
				i = k
			}
			continue
		case Cluster, Invalid:
			cells := max(t.Width, 1)
			if w+cells > n && w > 0 {
				endRow()
			}
			b.WriteString(text[i:t.End])
			w += cells
		case Tab: // to the next stop, or the last column: a tab never wraps
			if next := min((w/8+1)*8, n-1); next > w {
				b.WriteString(strings.Repeat(" ", next-w))
				w = next
			}
		case SGR:
			seq := text[i:t.End]
			b.WriteString(seq)
			pen = addPen(pen, seq)
		}
		i = t.End
	}
	if w > 0 || b.Len() > len(pen) || len(rows) == 0 {
		endRow()
	}
	return rows
}
