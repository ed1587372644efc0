package termtext

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
