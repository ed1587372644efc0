package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Terminals do not agree on how wide some text is. A grapheme cluster
// such as 👍🏽 (a skin-tone modifier), 👩‍💻 (a ZWJ sequence) or 🇫🇷 (a
// flag) is two cells to a terminal that draws clusters (kitty, WezTerm,
// ghostty, iTerm2), but the sum of its runes to one that draws rune by
// rune (xterm, VTE, and tmux 3.3 for modifiers: 👍🏽 takes four cells
// there). A row measured narrower than the terminal draws it reaches the
// last column and wraps: the screen scrolls by a line and every later
// frame is drawn one row off.
//
// So jobtop measures every cluster at the most any of them draws it: the
// larger of its grapheme width and the sum of its runes' widths. A row is
// then never wider on screen than jobtop counted; on a terminal that draws
// the cluster narrower, the row ends early and the renderer clears the
// rest of it.

// clusterWidth is the cells a grapheme cluster may take on screen, given
// its width as one grapheme.
func clusterWidth(cl string, graphemeWidth int) int {
	if len(cl) <= 1 {
		return graphemeWidth
	}
	sum := 0
	for i := 0; i < len(cl); {
		_, size := utf8.DecodeRuneInString(cl[i:])
		sum += ansi.StringWidth(cl[i : i+size])
		i += size
	}
	return max(graphemeWidth, sum)
}

// nextCluster reads the grapheme cluster at the start of s (not an
// escape sequence): its length in bytes and the cells it may take.
func nextCluster(s string) (int, int) {
	c := s[0]
	if c < 0x80 && (len(s) == 1 || s[1] < 0x80) {
		if c < 0x20 || c == 0x7f {
			return 1, 0
		}
		return 1, 1
	}
	cl, gw := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if len(cl) == 0 {
		_, size := utf8.DecodeRuneInString(s)
		return size, 1
	}
	return len(cl), clusterWidth(cl, gw)
}

// textWidth is the cells a string drawn by jobtop may take on screen:
// escape sequences take none, clusters as clusterWidth says.
func textWidth(s string) int {
	w := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i, _ = skipEscape(s, i)
			continue
		}
		n, cells := nextCluster(s[i:])
		w += cells
		i += n
	}
	return w
}

// truncateText cuts s to at most width cells (as textWidth counts them),
// ending it with tail when it was cut. Escape sequences after the cut are
// kept, so styles opened before it are still closed.
func truncateText(s string, width int, tail string) string {
	if textWidth(s) <= width {
		return s
	}
	tailW := textWidth(tail)
	if width < tailW {
		tail, tailW = "", 0
	}
	limit := width - tailW
	var b strings.Builder
	b.Grow(len(s))
	w, cut := 0, false
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			end, _ := skipEscape(s, i)
			b.WriteString(s[i:end])
			i = end
			continue
		}
		n, cells := nextCluster(s[i:])
		if !cut && w+cells > limit {
			b.WriteString(tail)
			cut = true
		}
		if !cut {
			b.WriteString(s[i : i+n])
			w += cells
		}
		i += n
	}
	return b.String()
}
