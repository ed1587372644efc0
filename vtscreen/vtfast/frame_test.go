package vtfast

import (
	"fmt"
	"strings"
)

// frame returns one full redraw of a cols x rows screen the way a TUI
// sends it (the same frame as vtscreen/emucompare): every row addressed,
// coloured runs, a box of line-drawing characters, some wide characters.
func frame(cols, rows, n int) []byte {
	var b strings.Builder
	b.WriteString("\x1b[?25l\x1b[H")
	for y := 1; y <= rows; y++ {
		fmt.Fprintf(&b, "\x1b[%d;1H", y)
		switch y {
		case 1:
			b.WriteString("\x1b[38;5;39m┌" + strings.Repeat("─", cols-2) + "┐\x1b[m")
		case rows:
			b.WriteString("\x1b[38;2;200;120;40m└" + strings.Repeat("─", cols-2) + "┘\x1b[m")
		default:
			b.WriteString("\x1b[38;5;39m│\x1b[m")
			w := 0
			for w < cols-2 {
				c := (y + n + w) % 8
				seg := fmt.Sprintf("\x1b[3%d;4%dm row %d col %d ", c, (c+3)%8, y, w)
				vis := len(fmt.Sprintf(" row %d col %d ", y, w))
				if y%7 == 0 && w+vis+6 <= cols-2 {
					seg += "日本語"
					vis += 6
				}
				if w+vis > cols-2 {
					seg = "\x1b[m" + strings.Repeat(" ", cols-2-w)
					vis = cols - 2 - w
				}
				b.WriteString(seg)
				w += vis
			}
			b.WriteString("\x1b[m\x1b[38;5;39m│\x1b[m")
		}
	}
	b.WriteString("\x1b[?25h")
	return []byte(b.String())
}
