package cmd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnescape(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{in: `plain text`, want: "plain text"},
		{in: `y\n`, want: "y\n"},
		{in: `a\r\t\e[A\a\b\0\\z`, want: "a\r\t\x1b[A\a\b\x00\\z"},
		{in: `\x03\x1B\xff`, want: "\x03\x1b\xff"},
		{in: `日本\x21`, want: "日本!"},
		{in: `bad \q`, err: `unknown escape \q at byte 4`},
		{in: `end\`, err: "lone backslash"},
		{in: `\x3`, err: `\x at byte 0 needs two hex digits`},
		{in: `\xzz`, err: `\x at byte 0 needs two hex digits`},
	} {
		got, err := unescape(tc.in)
		if tc.err != "" {
			require.Error(t, err, tc.in)
			assert.Contains(t, err.Error(), tc.err)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, string(got), tc.in)
	}
}
