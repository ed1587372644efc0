package ui

import (
	"strings"
	"unicode/utf8"

	"jobtop/termtext"
)

// cellReader reads the cell at the start of s (not an escape sequence):
// its length in bytes and the columns it takes.
type cellReader func(s string) (n, cells int)

// emulatorCell reads a cell as the screen-mode emulator lays a row out:
// rune by rune at termtext.RuneWidth, a zero-width rune joining the
// cell before it (so ✔️ is one cell there, as on the program's terminal).
func emulatorCell(s string) (n, cells int) {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n <= 1 {
		return max(n, 1), 1
	}
	if r < 0x7f {
		return n, 1
	}
	for n < len(s) {
		next, size := utf8.DecodeRuneInString(s[n:])
		if next < 0x7f || next == utf8.RuneError || termtext.RuneWidth(next) != 0 {
			break
		}
		n += size
	}
	return n, termtext.RuneWidth(r)
}

// clusterCell reads a cell as jobtop lays its own rows out (textWidth):
// a grapheme cluster at the most any terminal draws it.
func clusterCell(s string) (n, cells int) { return termtext.NextCluster(s) }

// cutAtColumn splits a row drawn with SGR at column x, as cell counts it.
// head is the text of the cells before x with every escape sequence of
// the row (so colours opened are closed); tail is the row from x on,
// after the escape sequences of the cells before it (so it starts in the
// colours in force at x). A wide cell across x goes to tail. width is
// head's columns.
func cutAtColumn(s string, x int, cell cellReader) (head, tail string, width int) {
	var h, t strings.Builder
	i := 0
	for i < len(s) {
		if s[i] == 0x1b {
			end := termtext.Next(s, i).End
			h.WriteString(s[i:end])
			t.WriteString(s[i:end])
			i = end
			continue
		}
		n, cells := cell(s[i:])
		if width+cells > x {
			break
		}
		h.WriteString(s[i : i+n])
		width += cells
		i += n
	}
	t.WriteString(s[i:])
	for j := i; j < len(s); {
		if s[j] == 0x1b {
			end := termtext.Next(s, j).End
			h.WriteString(s[j:end])
			j = end
			continue
		}
		n, _ := cell(s[j:])
		j += n
	}
	return h.String(), t.String(), width
}
