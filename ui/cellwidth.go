package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/clipperhouse/displaywidth"
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
	for _, r := range cl {
		sum += displaywidth.Rune(r)
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
	if c >= 0x80 {
		// A rune followed by ASCII (or nothing) is a cluster of its own:
		// nothing in ASCII extends a cluster. The common case for
		// jobtop's own marks (▸ ● … │).
		r, size := utf8.DecodeRuneInString(s)
		if size == len(s) || s[size] < 0x80 {
			if r == utf8.RuneError && size == 1 {
				return 1, 1 // drawn as U+FFFD
			}
			return size, displaywidth.Rune(r)
		}
	}
	cl, gw := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if len(cl) == 0 {
		_, size := utf8.DecodeRuneInString(s)
		return size, 1
	}
	return len(cl), clusterWidth(cl, gw)
}

// measureText is the cells s may take on screen (escape sequences take
// none, clusters as clusterWidth says), and the byte where the cells
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
			i, _ = skipEscape(s, i)
			continue
		}
		n, cells := nextCluster(s[i:])
		width += cells
		if width > limit && over == len(s) {
			over = i
		}
		i += n
	}
	return width, over
}

// textWidth is the cells a string drawn by jobtop may take on screen:
// escape sequences take none, clusters as clusterWidth says.
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
			end, _ := skipEscape(s, i)
			b.WriteString(s[i:end])
			i = end
			continue
		}
		n, _ := nextCluster(s[i:])
		i += n
	}
	return b.String()
}
