package termtext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCharsetsTranslateLineDrawing: text drawn in the DEC Special
// Graphics set reads as a terminal draws it, however the output is cut
// into pieces; sequences are kept, SO and SI carried out.
func TestCharsetsTranslateLineDrawing(t *testing.T) {
	for _, tc := range []struct{ name, in, out string }{
		{"G0", "\x1b(0lqqk\x1b(B ok\n", "\x1b(0┌──┐\x1b(B ok\n"},
		{"a box", "\x1b(0lqk\nx x\nmqj\x1b(B\n", "\x1b(0┌─┐\n│ │\n└─┘\x1b(B\n"},
		{"colours in it are no text", "\x1b(0\x1b[31mq\x1b[0mx\x1b(B", "\x1b(0\x1b[31m─\x1b[0m│\x1b(B"},
		{"strings in it are no text", "\x1b(0\x1b]0;lqk\x07q\x1b]8;;x\x1b\\q\x1b(B", "\x1b(0\x1b]0;lqk\x07─\x1b]8;;x\x1b\\─\x1b(B"},
		{"G1 shifted in and out", "\x1b)0a\x0eq\x0fq\n", "\x1b)0a─q\n"},
		{"a reset", "\x1b(0q\x1bcq", "\x1b(0─\x1bcq"},
		{"another set is ASCII", "\x1b(0q\x1b(Uq", "\x1b(0─\x1b(Uq"},
		{"no designation", "\x1b[31mlqk\x1b[0m\x0e(0\n", "\x1b[31mlqk\x1b[0m\x0e(0\n"},
		{"UTF-8 stays", "\x1b(0日q\x1b(B", "\x1b(0日─\x1b(B"},
	} {
		for split := range len(tc.in) {
			var c Charsets
			got := string(c.Translate([]byte(tc.in[:split]))) + string(c.Translate([]byte(tc.in[split:])))
			assert.Equal(t, tc.out, got, "%s: split at %d", tc.name, split)
		}
	}
}

// TestCharsetsLeaveOtherOutputAlone: output with no line drawing comes
// back as it is, not a copy.
func TestCharsetsLeaveOtherOutputAlone(t *testing.T) {
	var c Charsets
	for _, in := range []string{"plain\n", "\x1b[31mred\x1b[0m\n", "\x1b(Bascii", "\x1b"} {
		p := []byte(in)
		assert.Same(t, &p[0], &c.Translate(p)[0], "%q", in)
	}
	assert.Equal(t, "(0─", string(c.Translate([]byte("(0q"))), "after the ESC that ended the piece before")
}

// TestScanEscapes: one pass finds the first designation of line drawing
// and any cursor edit, as Charsets and HasCursorEdits would.
func TestScanEscapes(t *testing.T) {
	for _, tc := range []struct {
		in          string
		designation int
		edits       bool
	}{
		{"plain", -1, false},
		{"\x1b[31mred\x1b[0m\x1b(B", -1, false},
		{"ab\x1b(0q\x1b)0", 2, false},
		{"\x1b[2D\x1b)0", 4, true},
		{"a\x1b7b\x1b8", -1, true},
		{"\x1b[s", -1, true},
		{"\x1b[?25l\x1b[1;5H", -1, false},
		{"\x1b", -1, false},
	} {
		d, e := ScanEscapes([]byte(tc.in))
		assert.Equal(t, tc.designation, d, "%q", tc.in)
		assert.Equal(t, tc.edits, e, "%q", tc.in)
		assert.Equal(t, HasCursorEdits([]byte(tc.in)), e, "%q as HasCursorEdits", tc.in)
	}
}
