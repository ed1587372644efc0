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

	// A first word a shell would take for an assignment or a keyword is
	// the program: quoted whole. (dash says "not found" for either.)
	for _, first := range []string{"GREETING=hello there", "FOO=1", "while", "if", "!", "{"} {
		line = ShellJoin([]string{first, "x"})
		assert.True(t, strings.HasPrefix(line, "'") || strings.HasPrefix(line, `"`), "%q", line)
		out, err = exec.Command("/bin/sh", "-c", line+" 2>&1; echo $?").Output()
		require.NoError(t, err)
		assert.True(t, strings.HasSuffix(string(out), "127\n"), "%s: %q ran something else: %s", first, line, out)
	}
	// After the program, an argument's value only is quoted: it reads the same.
	assert.Equal(t, `env GREETING='hello there' sh`, ShellJoin([]string{"env", "GREETING=hello there", "sh"}))
	assert.Equal(t, "make -j8 CFLAGS=-O2 EMPTY=", ShellJoin([]string{"make", "-j8", "CFLAGS=-O2", "EMPTY="}))
	assert.Equal(t, `sh -c "printf 'a\n'"`, ShellJoin([]string{"sh", "-c", `printf 'a\n'`}), "a single quote inside reads best in double quotes")
}

// An argv job is shown as a command line that would run it.
func TestDisplayCommandOfAnArgv(t *testing.T) {
	assert.Equal(t, `python3 -c 'print("a b")'`, Spec{Argv: []string{"python3", "-c", `print("a b")`}}.DisplayCommand())
	assert.Equal(t, "make test", Spec{Command: "make test"}.DisplayCommand())
}
