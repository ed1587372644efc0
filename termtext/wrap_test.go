package termtext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWrapCells(t *testing.T) {
	for _, c := range []struct {
		name, text string
		n          int
		want       []string
	}{
		{"empty", "", 4, []string{""}},
		{"fits", "abcd", 4, []string{"abcd"}},
		{"wraps", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"a wide character that does not fit starts the next row", "abc世界", 4, []string{"abc", "世界"}},
		{"a tab stops at the row's last column", "ab\tcd", 4, []string{"ab c", "d"}},
		{"a tab at the last column stays", "abc\tZ", 4, []string{"abcZ"}},
		{"colours go on across rows", "\x1b[31mabcdef\x1b[0mgh", 4,
			[]string{"\x1b[31mabcd\x1b[0m", "\x1b[31mef\x1b[0mgh"}},
		{"reset in the row", "ab\x1b[1mcd\x1b[0m", 4, []string{"ab\x1b[1mcd\x1b[0m"}},
		{"plain text wraps the same", "abcdef", 3, []string{"abc", "def"}},
	} {
		assert.Equal(t, c.want, WrapCells(c.text, c.n), c.name)
	}
}
