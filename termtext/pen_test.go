package termtext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPenFoldsPastItsBound: a pen past maxPen bytes is folded into one
// sequence that sets the same state, so a background set before a
// colour that changes at every frame stays.
func TestPenFoldsPastItsBound(t *testing.T) {
	s := "\x1b[1m\x1b[44m"
	for i := range 40 {
		s += "\x1b[3" + string(rune('1'+i%7)) + "mframe\r"
	}
	pen := Pen(s)
	assert.LessOrEqual(t, len(pen), maxPen)
	assert.Equal(t, "\x1b[1;35;44m", foldPen(pen), "bold, the newest colour and the background: %q", pen)

	for in, want := range map[string]string{
		"\x1b[1;2m\x1b[22m\x1b[3m":               "\x1b[3m",
		"\x1b[38;5;208m\x1b[48;2;1;2;3m\x1b[39m": "\x1b[48;2;1;2;3m",
		"\x1b[4m\x1b[24m\x1b[49m":                "",
		"\x1b[31m\x1b[0;32m":                     "\x1b[32m",
		"\x1b[1m\x1b[4:3m":                       "\x1b[4:3m", // not followed: the newest alone
	} {
		assert.Equal(t, want, foldPen(in), "%q", in)
	}
	long := strings.Repeat("\x1b[31m\x1b[32m", 20) // 200 bytes
	assert.Equal(t, "\x1b[33m", addPen(long[:130], "\x1b[33m"), "folded when it passes the bound")
}

// TestPenStaysWithinItsBound: however long the SGR sequences a line
// sets, its pen (what the store carries to the next line) stays within
// maxPen bytes; a sequence too long to fold is left out, the colours
// before it kept.
func TestPenStaysWithinItsBound(t *testing.T) {
	for name, s := range map[string]string{
		"a code not followed, after 400 bytes": "\x1b[31m\x1b[" + strings.Repeat("1;", 200) + "200m",
		"a colour of 300 digits":               "\x1b[31m\x1b[38;2;" + strings.Repeat("0", 300) + "1;2;3m",
		"a number past int":                    "\x1b[31m\x1b[" + strings.Repeat("9", 300) + "m",
		"subparameters, many":                  "\x1b[31m" + strings.Repeat("\x1b[58:5:1m", 40),
	} {
		pen := Pen(s)
		assert.LessOrEqual(t, len(pen), maxPen, "%s: %q", name, pen)
		assert.NotEmpty(t, pen, name)
	}
	assert.Equal(t, "\x1b[31m", Pen("\x1b[31m\x1b["+strings.Repeat("1;", 200)+"200m"), "the red before it kept")
}
