package ui

import (
	"strings"

	"jobtop/termtext"
)

// measureText is the cells s may take on screen (escape sequences take
// none, clusters as termtext.ClusterWidth says), and the byte where the cells
// first pass limit (len(s) when they never do).
func measureText(s string, limit int) (width, over int) {
	over = len(s)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f && (i+1 == len(s) || s[i+1] < 0x80):
			width++
			i++
			if width > limit && over == len(s) {
				over = i - 1
			}
			continue
		case c == 0x1b:
			i = termtext.Next(s, i).End
			continue
		}
		n, cells := termtext.NextCluster(s[i:])
		width += cells
		if width > limit && over == len(s) {
			over = i
		}
		i += n
	}
	return width, over
}

// textWidth is the cells a string drawn by jobtop may take on screen:
// escape sequences take none, clusters as termtext.ClusterWidth says.
func textWidth(s string) int {
	w, _ := measureText(s, int(^uint(0)>>1))
	return w
}

// truncateText cuts s to at most width cells (as textWidth counts them),
// ending it with tail when it was cut. Escape sequences after the cut are
// kept, so styles opened before it are still closed.
func truncateText(s string, width int, tail string) string {
	tailW := textWidth(tail)
	if width < tailW {
		tail, tailW = "", 0
	}
	total, over := measureText(s, width-tailW)
	if total <= width {
		return s
	}
	var b strings.Builder
	b.Grow(over + len(tail) + 16)
	b.WriteString(s[:over])
	b.WriteString(tail)
	for i := over; i < len(s); {
		if s[i] == 0x1b {
			end := termtext.Next(s, i).End
			b.WriteString(s[i:end])
			i = end
			continue
		}
		n, _ := termtext.NextCluster(s[i:])
		i += n
	}
	return b.String()
}
