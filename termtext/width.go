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
//
// A single code point is counted the same way: at the larger of its
// width in Unicode's tables (displaywidth) and glibc's wcwidth, which
// tmux 3.3, VTE and xterm draw by. They differ in a few places only,
// and those are all in RuneWidth.

// ClusterWidth is the cells a grapheme cluster may take on screen, given
// its width as one grapheme.
func ClusterWidth(cl string, graphemeWidth int) int {
	if len(cl) <= 1 {
		return graphemeWidth
	}
	sum := 0
	for _, r := range cl {
		sum += RuneWidth(r)
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
			return size, RuneWidth(r)
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

// RuneWidth is the cells a code point may take on screen: its width in
// Unicode's tables (displaywidth), raised where glibc's wcwidth draws it
// wider. Checked against glibc 2.36 for every code point
// (TestRuneWidthIsNeverBelowWcwidth in termtext pins the list):
//
//   - U+00AD SOFT HYPHEN and the prepended concatenation marks (U+0600-
//     U+0605, U+06DD, U+070F, U+0890-U+0891, U+08E2, U+110BD, U+110CD)
//     are format characters, 0 cells by the tables; terminals draw them
//     as 1 (a hyphen, or a sign that joins the digits after it).
//   - U+3248-U+324F, circled numbers on black squares, are East Asian
//     ambiguous, 1 cell by the tables; glibc makes them 2.
//
// Where glibc counts narrower (wcwidth -1 for unassigned code points,
// which tmux draws as nothing), the table's width stands: a row then ends
// early, never wraps.
func RuneWidth(r rune) int {
	w := displaywidth.Rune(r)
	switch {
	case w == 0 && r < 0x8e3:
		if r == 0xad || r >= 0x600 && r <= 0x605 || r == 0x6dd || r == 0x70f || r == 0x890 || r == 0x891 || r == 0x8e2 {
			return 1
		}
	case w == 0:
		if r == 0x110bd || r == 0x110cd {
			return 1
		}
	case w == 1 && r >= 0x3248 && r <= 0x324f:
		return 2
	}
	return w
}
