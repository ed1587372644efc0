package termtext

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEditLine(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no edit: as it is", "\x1b[31mred\x1b[0m \x1b[?25l plain", "\x1b[31mred\x1b[0m \x1b[?25l plain"},
		{"backspace and erase to the end (readline's erase)", "bash$ echo helloo\b\x1b[K", "bash$ echo hello"},
		{"cursor left, then an insert redrawn", "bash$ echo hello\b\b\bXllo\b\b\b", "bash$ echo heXllo"},
		{"the terminal's echo of an erase", "name? bob\b \b^C", "name? bo^C"},
		{"other sequences dropped", "\x1b[?2004hbash$ ls\b\b\x1b[K", "bash$ "},
		{"CSI D, C and G", "abcdef\x1b[3DX\x1b[CY\x1b[1GZ", "ZbcXeY"},
		{"past the end: blanks", "ab\x1b[3Cc", "ab   c"},
		{"delete and insert characters", "abcdef\x1b[4D\x1b[2P\x1b[1G\x1b[2@", "  abef"},
		{"erase characters and the start of the line", "abcdef\x1b[3D\x1b[2X\x1b[1G\x1b[C\x1b[1K", "  c  f"},
		{"erase the whole line", "abc\x1b[2Kd", "   d"},
		{"colours follow their cells", "\x1b[31mabc\x1b[0m\b\b\bX", "X\x1b[31mbc\x1b[0m"},
		{"a wide character overwritten whole", "日本\b\bx", "日x "},
		{"a wide character cut in half", "日本\bx", "日 x"},
		{"tab moves the cursor", "a\tb\b\bc", "a      cb"},
		{"a bell shows nothing", ">>> os.path.is\a", ">>> os.path.is"},
		{"a spinner over a saved cursor (CSI s, u)", "Working \x1b[s|\x1b[u/\x1b[u-\x1b[udone", "Working done"},
		{"a spinner over a saved cursor (ESC 7, 8), pen and all", "Go \x1b7\x1b[32m|\x1b8/\x1b8ok", "Go ok"},
		{"a restore with nothing saved stays", "ab\x1b8c", "abc"},
		{"CSI u with parameters is no restore", "ab\x1b[s\x1b[1uc", "abc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, EditLine(tc.in))
		})
	}
}

func TestHasLineEdits(t *testing.T) {
	for in, want := range map[string]bool{
		"plain":                   false,
		"\x1b[31mred\x1b[0m":      false,
		"\x1b[?1049h\x1b[5;5H":    false,
		"a\bb":                    true,
		"a\x1b7b\x1b8c":           true,
		"a\x1b[sb\x1b[uc":         true,
		"ring\a":                  true,
		"\x1b]0;title\a":          false,
		"\x1b[K":                  true,
		"\x1b[0m\x1b[12D":         true,
		"\x1b[31m\x1b[?25l\x1b[P": true,
		"\x1b":                    false,
		"\x1b[":                   false,
	} {
		assert.Equal(t, want, HasLineEdits([]byte(in)), "%q", in)
		// A pipe's: the same, but for a bell of its own.
		assert.Equal(t, want && in != "ring\a", HasCursorEdits([]byte(in)), "%q", in)
	}
}

// FuzzEditLine: any line edits to a line with no escape sequence but
// SGR and no control; and Visible lets neither through either.
func FuzzEditLine(f *testing.F) {
	f.Add("bash$ echo helloo\b\x1b[K")
	f.Add("日本\bx\x1b[2@\x1b[3P")
	f.Fuzz(func(t *testing.T, s string) {
		assertNoEscapes(t, s, Visible(s, true), "shows as")
		if HasLineEdits([]byte(s)) {
			assertNoEscapes(t, s, EditLine(s), "edits to")
		}
	})
}

// assertNoEscapes fails when out holds an escape sequence but SGR, or a
// control but a tab.
func assertNoEscapes(t *testing.T, in, out, what string) {
	t.Helper()
	for i := 0; i < len(out); {
		tok := Next(out, i)
		if tok.Kind == Escape || tok.Kind == Control {
			t.Fatalf("%q %s %q, with %q in it", in, what, out, out[i:tok.End])
		}
		for _, c := range []byte(out[i:tok.End]) {
			if tok.Kind != SGR && (c < 0x20 && c != '\t' || c == 0x7f || c == 0x1b) {
				t.Fatalf("%q %s %q, with %q in a %v token", in, what, out, c, tok.Kind)
			}
		}
		i = tok.End
	}
}

func TestCutCells(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abcdef", 4, "abcd"},
		{"abc", 10, "abc"},
		{"\x1b[32m$ \x1b[0mecho", 4, "\x1b[32m$ \x1b[0mec\x1b[0m"},
		{"日本語", 3, "日"},
		{"日本語", 4, "日本"},
		{"a\tb", 9, "a\tb"},
		{"a\x1b[Kb\x07c", 2, "ab"},
	} {
		assert.Equal(t, tc.want, CutCells(tc.in, tc.n), "%q %d", tc.in, tc.n)
	}
}

// TestEditLineInErasesWithTheBackground: on a terminal of a known width,
// an erase with a background colour set fills the cells it erases with
// that colour (as xterm's "back colour erase" does): "\e[41m\e[K" is a
// red row to the terminal's edge. Only the background colours erased
// cells; an erase without one, or on a terminal of no known width past
// the cells written, keeps no cell.
func TestEditLineInErasesWithTheBackground(t *testing.T) {
	bar := func(pen string, n int) string { return pen + strings.Repeat(" ", n) + "\x1b[0m" }
	for _, tc := range []struct {
		name, in string
		cols     int
		want     string
	}{
		{"a red bar", "\x1b[41m\x1b[K", 10, bar("\x1b[41m", 10)},
		{"from the cursor on", "ab\x1b[44m\x1b[K", 6, "ab" + bar("\x1b[44m", 4)},
		{"after a move", "\x1b[3C\x1b[42m\x1b[0K", 6, "   " + bar("\x1b[42m", 3)},
		{"only the background colours erased cells", "\x1b[1;31;43m\x1b[K", 4, bar("\x1b[43m", 4)},
		{"256 and true colours", "\x1b[48;5;196m\x1b[K\x1b[48;2;1;2;3m\x1b[2K", 3, bar("\x1b[48;2;1;2;3m", 3)},
		{"a bright background", "\x1b[101m\x1b[K", 2, bar("\x1b[101m", 2)},
		{"to the cursor", "abcd\x1b[2D\x1b[45m\x1b[1K", 6, bar("\x1b[45m", 3) + "d"},
		{"erase characters", "abcd\x1b[3D\x1b[46m\x1b[5X", 8, "a" + bar("\x1b[46m", 5)},
		{"on the row a long line wrapped to", "abcdef\x1b[41m\x1b[K", 4, "abcdef" + bar("\x1b[41m", 2)},
		{"the background reset: nothing kept", "\x1b[41m\x1b[49m\x1b[K", 10, ""},
		{"a reset: nothing kept", "\x1b[41m\x1b[0m\x1b[K", 10, ""},
		{"no background: nothing kept", "\x1b[31;1m\x1b[K", 10, ""},
		{"foreground only erases as before", "abc\x1b[D\x1b[31m\x1b[K", 10, "ab"},
		{"no known width: nothing kept", "\x1b[41m\x1b[K", 0, ""},
		{"text over a bar keeps the pen it was written with", "\x1b[41m\x1b[K\x1b[0m\x1b[1Gok", 4, "ok" + bar("\x1b[41m", 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := EditLineIn(tc.in, tc.cols)
			assert.Equal(t, tc.want, got)
		})
	}
	// EditLine knows no width: it keeps no erased cell.
	assert.Equal(t, "", EditLine("\x1b[41m\x1b[K"))
}

// TestEditLinePen: the pen a line leaves is what follows it is drawn in.
func TestEditLinePen(t *testing.T) {
	line, x, pen := EditLinePen("\x1b[1m\x1b[41m\x1b[Kab\b", 4)
	assert.Equal(t, "\x1b[1m\x1b[41mab\x1b[0m\x1b[41m  \x1b[0m", line)
	assert.Equal(t, 1, x)
	assert.Equal(t, "\x1b[1m\x1b[41m", pen)
	line, x, pen = EditLinePen("\x1b[33mab\bc", 0)
	assert.Equal(t, "\x1b[33mac\x1b[0m", line, "a played line ends with a reset")
	assert.Equal(t, 2, x)
	assert.Equal(t, "\x1b[33m", pen)
	line, x, pen = EditLinePen("\x1b[31mred", 4)
	assert.Equal(t, "\x1b[31mred", line, "no edit: as it is, its own pen in it")
	assert.Equal(t, 3, x)
	assert.Equal(t, "", pen)
}

// A terminal reset among a line's edits ends its colours: nothing of
// them is in effect at its end, nor on the text after it.
func TestATerminalResetInALineEndsItsColours(t *testing.T) {
	for _, reset := range []string{"\x1bc", "\x1b[!p"} {
		line, pen := EditLineEnd("\x1b[31mabc\b\bX"+reset+"Y", 80)
		assert.Empty(t, pen, "%q", reset)
		assert.Equal(t, "aXY", Printed(line, false))
		assert.Equal(t, "\x1b[31maX\x1b[0mY", line, "%q: Y is drawn in no colour", reset)
	}
}

// TestLineEditsStopAtTheMargin: cursor moves and inserts stop at
// maxEditCol, as at a terminal's right margin, so a short line of long
// moves costs no more than a long line (100 moves of 65,536 columns
// made gigabytes of cells: a pipe job could take serve's memory).
func TestLineEditsStopAtTheMargin(t *testing.T) {
	for name, line := range map[string]string{
		"forward": "y" + strings.Repeat("\x1b[65536Cy", 100),
		"column":  strings.Repeat("\x1b[65536Gy", 100),
		"insert":  "ab" + strings.Repeat("\x1b[1G\x1b[65536@", 100),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, _, _ := EditLinePen(line, 200)
		runtime.ReadMemStats(&after)
		// What the line writes past the margin still shows: 100 y's.
		assert.LessOrEqual(t, Width(got), maxEditCol+1+100, name)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(32<<20), "%s: bytes allocated", name)
	}
	// b lands at the margin, c five columns left of where b left it.
	want := "a" + strings.Repeat(" ", maxEditCol-5) + "c   b"
	assert.Equal(t, want, EditLine("a\x1b[65536Cb\x1b[5Dc"))
}
