package jobs

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A shell given ShellJoin's line hands the program the words it was given.
func TestShellJoinRoundTrip(t *testing.T) {
	words := []string{"a b", "it's", `"`, `\`, "$HOME", "`id`", "*", "?", "[a]", "~", "#x", "", "x;y", "a&b", "a|b",
		"<in", "(x)", "{a,b}", "!x", "\t", "\n", "é", "日本", "\u00a0", "--opt=a b", "-", "k=v", "=x", "%@+:,./-_",
		`printf 'a\n'`, `it's $x`, `'\`, `'\"`, "'\\$", "don't!", "it's\\"}
	line := "printf '%s\\0' " + ShellJoin(words)
	out, err := exec.Command("/bin/sh", "-c", line).Output()
	require.NoError(t, err, line)
	assert.Equal(t, words, strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00"))

	// An assignment first stays one, its value quoted, not the whole word.
	line = ShellJoin([]string{"GREETING=hello there", "sh", "-c", `printf %s "$GREETING"`})
	assert.Equal(t, `GREETING='hello there' sh -c 'printf %s "$GREETING"'`, line)
	out, err = exec.Command("/bin/sh", "-c", line).Output()
	require.NoError(t, err)
	assert.Equal(t, "hello there", string(out))

	assert.Equal(t, "make -j8 CFLAGS=-O2 EMPTY=", ShellJoin([]string{"make", "-j8", "CFLAGS=-O2", "EMPTY="}))
	assert.Equal(t, `sh -c "printf 'a\n'"`, ShellJoin([]string{"sh", "-c", `printf 'a\n'`}), "a single quote inside reads best in double quotes")
}

// An argv job is shown as a command line that would run it.
func TestDisplayCommandOfAnArgv(t *testing.T) {
	assert.Equal(t, `python3 -c 'print("a b")'`, Spec{Argv: []string{"python3", "-c", `print("a b")`}}.DisplayCommand())
	assert.Equal(t, "make test", Spec{Command: "make test"}.DisplayCommand())
}
