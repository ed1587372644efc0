package termtext

import (
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
	"github.com/clipperhouse/uax29/v2/graphemes"
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
// So termtext measures every cluster at the most any of them draws it: the
// larger of its grapheme width and the sum of its runes' widths. A row is
// then never wider on screen than jobtop counted; on a terminal that draws
// the cluster narrower, the row ends early and the renderer clears the
// rest of it.

// ClusterWidth is the cells a grapheme cluster may take on screen, given
// its width as one grapheme.
func ClusterWidth(cl string, graphemeWidth int) int {
	if len(cl) <= 1 {
		return graphemeWidth
	}
	sum := 0
	for _, r := range cl {
		sum += displaywidth.Rune(r)
	}
	return max(graphemeWidth, sum)
}

// NextCluster reads the grapheme cluster at the start of s (not an
// escape sequence): its length in bytes and the cells it may take.
func NextCluster(s string) (int, int) {
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
	cl := clusterText(graphemes.FromString(s).First())
	if len(cl) == 0 {
		_, size := utf8.DecodeRuneInString(s)
		return size, 1
	}
	return len(cl), ClusterWidth(cl, displaywidth.String(cl))
}

// clusterText is a cluster the segmenter found, cut before any byte that
// is not UTF-8 and any control: the segmenter takes a bad lead byte with
// the bytes after it, a backspace or a newline among them, and those are
// never printable text.
func clusterText(cl string) string {
	for j := 0; j < len(cl); {
		r, size := utf8.DecodeRuneInString(cl[j:])
		if r == utf8.RuneError && size == 1 || r < 0x20 || r >= 0x7f && r <= 0x9f {
			return cl[:j]
		}
		j += size
	}
	return cl
}
