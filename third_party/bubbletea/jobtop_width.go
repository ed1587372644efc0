package tea

import "github.com/charmbracelet/x/ansi"

// This file is jobtop's, not upstream's: see JOBTOP.md.

// LineWidth is ansi.StringWidth(s), the cells a line of a view takes,
// counted without grapheme segmentation when the line holds only
// printable ASCII, box drawing and block elements (U+2500-U+259F: one
// cell each, and none of them joins its neighbours into a cluster) and
// complete CSI sequences, which is almost every line a TUI draws.
// Anything else is measured by ansi.StringWidth. The renderer measures
// every line that changed, each frame: segmenting each ASCII byte as a
// grapheme was most of a full-screen frame's cost.
func LineWidth(s string) int {
	w, _ := lineWidth(s)
	return w
}

// lineWidth is LineWidth, and whether s is all of the kinds it counts
// itself (plain): every terminal draws such a line as wide as counted.
func lineWidth(s string) (w int, plain bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			w++
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
				j++
			}
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
				j++
			}
			if j == len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return ansi.StringWidth(s), false
			}
			i = j + 1
		case c == 0xe2 && i+2 < len(s) && isBoxOrBlock(s[i+1], s[i+2]):
			w++
			i += 3
		default:
			return ansi.StringWidth(s), false
		}
	}
	return w, true
}

// isBoxOrBlock reports whether E2 b1 b2 encodes U+2500-U+259F.
func isBoxOrBlock(b1, b2 byte) bool {
	return (b1 == 0x94 || b1 == 0x95 || b1 == 0x96 && b2 < 0xa0) && b2 >= 0x80 && b2 <= 0xbf
}
