package termtext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWithoutColours(t *testing.T) {
	for seq, want := range map[string]string{
		"\x1b[7m":                  "\x1b[7m",
		"\x1b[m":                   "\x1b[m",
		"\x1b[0m":                  "\x1b[0m",
		"\x1b[31m":                 "",
		"\x1b[1;31m":               "\x1b[1m",
		"\x1b[0;4;38;5;208;7m":     "\x1b[0;4;7m",
		"\x1b[38;2;1;2;3;1m":       "\x1b[1m",
		"\x1b[48;5;17m":            "",
		"\x1b[4:3;58:2::9:9:9;22m": "\x1b[4:3;22m",
		"\x1b[39;49;27m":           "\x1b[27m",
		"\x1b[97;104m":             "",
		"\x1b[5;1m":                "\x1b[5;1m",
		"\x1b[38;5m":               "",
	} {
		assert.Equal(t, want, WithoutColours(seq), "%q", seq)
	}
}

func TestStripColours(t *testing.T) {
	assert.Equal(t, "a\x1b[7mb\x1b[0mc d\x1b[1m", StripColours("a\x1b[7;31mb\x1b[0mc\x1b[32m d\x1b[1;44m"))
	assert.Equal(t, "plain", StripColours("plain"))
}
