package cmd

import (
	"bytes"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnfinishedRune(t *testing.T) {
	for in, want := range map[string]int{
		"":                  0,
		"abc":               0,
		"ab\xc3":            1, // é cut after its first byte
		"a\xe6\x97":         2, // 日 cut after two of three
		"a\xf0\x9f\x91":     3, // 👍 cut after three of four
		"a日":                0,
		"a\x80":             0, // a stray continuation byte: nothing to wait for
		"a\xf0\x9f\x91\x8d": 0,
		"\xff":              0,
	} {
		assert.Equal(t, want, unfinishedRune([]byte(in)), "%q", in)
	}
}

// Reads of 256 bytes, as Bubble Tea makes them, never end inside a
// character, and every byte arrives.
func TestRuneSafeInputKeepsCharactersWhole(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	text := bytes.Repeat([]byte("é日👍🏽a"), 400)
	go func() {
		w.Write(text) //nolint:errcheck // the reader checks what came
		w.Close()
	}()
	in := &runeSafeInput{File: r}
	var got []byte
	buf := make([]byte, 256)
	for {
		n, err := in.Read(buf)
		require.True(t, utf8.Valid(buf[:n]), "a read ended inside a character: %q", buf[max(0, n-4):n])
		got = append(got, buf[:n]...)
		if err != nil {
			break
		}
	}
	require.Equal(t, string(text), string(got))
}
