package jobs

import (
	"os/exec"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A shell given ShellJoin's line hands the program the words it was given.
func TestShellJoinRoundTrip(t *testing.T) {
	words := []string{"a b", "it's", `"`, `\`, "$HOME", "`id`", "*", "?", "[a]", "~", "#x", "", "x;y", "a&b", "a|b",
		"<in", "(x)", "{a,b}", "!x", "é", "日本", "\u00a0", "--opt=a b", "-", "k=v", "=x", "%@+:,./-_",
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

// A word with a control character in it is written in bash's ANSI-C
// quotes, each control escaped: the line is one line of printable text
// that bash gives the program the very words (bytes that are not UTF-8
// included).
func TestShellJoinQuotesControlsAsANSIC(t *testing.T) {
	words := []string{"line\nbreak", "\x1b[31mred", "\t", "\n", "\r\n", "a\x7fb", "\x07", "\x01f", "\u0085x", "\u009b2J",
		"\xff\xfe", "\x9b", "it's\n", `back\slash` + "\n", `$HOME` + "\t`id`", "é\n日本", "K=a\nb", "\x1b]0;title\x07"}
	line := ShellJoin(append([]string{"printf", `%s\0`}, words...))
	for i, c := range line {
		require.False(t, c == utf8.RuneError || unicode.IsControl(c), "%q has a control or a byte that is not UTF-8 at %d", line, i)
	}
	out, err := exec.Command("bash", "-c", line).Output()
	require.NoError(t, err, line)
	assert.Equal(t, words, strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00"), line)

	assert.Equal(t, `printf '%s|' $'line\nbreak' $'\e[31mred'`, ShellJoin([]string{"printf", "%s|", "line\nbreak", "\x1b[31mred"}))
	assert.Equal(t, `echo $'it\'s\t\\n' $'\x7f' $'\xc2\x85' $'\xff'`, ShellJoin([]string{"echo", "it's\t\\n", "\x7f", "\u0085", "\xff"}))
	assert.Equal(t, `env X=$'a\nb' $'\x01cmd'`, ShellJoin([]string{"env", "X=a\nb", "\x01cmd"}))
	assert.Equal(t, `$'FOO=1\n' x`, ShellJoin([]string{"FOO=1\n", "x"}), "a first word with a control is no assignment either")
}

// ShellLine's line is run by /bin/sh (dash here, which reads no
// $'...') as the very words, controls and bytes that are not UTF-8
// included: a tab and a line feed as they are in single quotes, any
// other control by printf.
func TestShellLineRunsUnderPOSIXSh(t *testing.T) {
	words := []string{"tab\there", "line\nbreak", "\x1b[31mred", "\t", "\n", "end\n", "\r\n", "a\x7fb", "\x07", "\x01f", "\u0085x",
		"\xff\xfe", "it's\n", `back\slash` + "\n", `$HOME` + "\t`id`", "é\n日本", "K=a\nb", "plain", "a b", "it's"}
	line := ShellLine(append([]string{"printf", `%s\0`}, words...))
	out, err := exec.Command("/bin/sh", "-c", line).Output()
	require.NoError(t, err, line)
	assert.Equal(t, words, strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00"), line)

	assert.Equal(t, "printf '%s|' 'tab\there' 'line\nbreak'", ShellLine([]string{"printf", "%s|", "tab\there", "line\nbreak"}))
	assert.Equal(t, `echo ''"$(printf '\033')"'[1m' 'a'"$(printf '\302\205')"'b'`, ShellLine([]string{"echo", "\x1b[1m", "a\u0085b"}))
	assert.Equal(t, ShellJoin([]string{"make", "-j8", "CFLAGS=-O2 -g", "it's"}), ShellLine([]string{"make", "-j8", "CFLAGS=-O2 -g", "it's"}), "no control: the same line as ShellJoin's")
}

// An argv job is shown as a command line that would run it.
func TestDisplayCommandOfAnArgv(t *testing.T) {
	assert.Equal(t, `python3 -c 'print("a b")'`, Spec{Argv: []string{"python3", "-c", `print("a b")`}}.DisplayCommand())
	assert.Equal(t, "make test", Spec{Command: "make test"}.DisplayCommand())
}
