package jobfile

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseEnvFile(t *testing.T) {
	src := "# comment\n" +
		"\n" +
		"PLAIN=value\n" +
		"  SPACED = padded value  \n" +
		"export EXPORTED=yes\n" +
		"SINGLE='raw \\n $HOME # not a comment'\n" +
		"DOUBLE=\"line\\nnext \\\"q\\\" \\\\ \\$HOME\" # comment\n" +
		"COMMENTED=abc # trailing\n" +
		"HASH=abc#def\n" +
		"EMPTY=\n" +
		"URL=postgres://u:p@h/db?x=1\n" +
		"WINDOWS=crlf\r\n"
	env, errs := parseEnvFile("x.env", []byte(src), false)
	require.Empty(t, errs)
	require.Equal(t, map[string]string{
		"PLAIN":     "value",
		"SPACED":    "padded value",
		"EXPORTED":  "yes",
		"SINGLE":    `raw \n $HOME # not a comment`,
		"DOUBLE":    "line\nnext \"q\" \\ $HOME",
		"COMMENTED": "abc",
		"HASH":      "abc#def",
		"EMPTY":     "",
		"URL":       "postgres://u:p@h/db?x=1",
		"WINDOWS":   "crlf",
	}, env)
}

func TestParseEnvFileErrors(t *testing.T) {
	src := "OK=1\nJUST_A_NAME\n=value\nA-B=1\nQ='open\nR=\"x\" y\n"
	_, errs := parseEnvFile("dir/x.env", []byte(src), false)
	require.Equal(t, `dir/x.env:2: want NAME=VALUE, got "JUST_A_NAME"
dir/x.env:3: "" is not a variable name (ASCII letters, digits and _, not starting with a digit)
dir/x.env:4: "A-B" is not a variable name (ASCII letters, digits and _, not starting with a digit)
dir/x.env:5: Q: missing closing '
dir/x.env:6: R: unexpected "y" after the closing quote`, errs.Error())
}

// process-compose reads env files with godotenv 1.5.1, which expands
// $NAME and ${NAME} (upper case) in unquoted and double-quoted values from
// earlier lines of the same file, and not in single-quoted ones.
func TestParseEnvFileExpandsAsGodotenv(t *testing.T) {
	t.Setenv("FROM_SHELL", "shell")
	src := "HOST=db.local\n" +
		"URL=postgres://${HOST}:5432/$HOST\n" +
		"QUOTED=\"at $HOST, ${HOST}\"\n" +
		"SINGLE='$HOST ${HOST}'\n" +
		"ESCAPED=\"\\$HOST\"\n" +
		"ESCAPED_PLAIN=\\$HOST\n" +
		"LATER=$NEXT\n" +
		"NEXT=n\n" +
		"SHELL=$FROM_SHELL\n" +
		"LOWER=$home\n"
	env, errs := parseEnvFile("x.env", []byte(src), true)
	require.Empty(t, errs)
	require.Equal(t, map[string]string{
		"HOST":          "db.local",
		"URL":           "postgres://db.local:5432/db.local",
		"QUOTED":        "at db.local, db.local",
		"SINGLE":        "$HOST ${HOST}",
		"ESCAPED":       "$HOST",
		"ESCAPED_PLAIN": "$HOST",
		"LATER":         "",
		"NEXT":          "n",
		"SHELL":         "",
		"LOWER":         "$home",
	}, env)

	plain, errs := parseEnvFile("x.env", []byte(src), false)
	require.Empty(t, errs)
	require.Equal(t, "postgres://${HOST}:5432/$HOST", plain["URL"], "foreman and honcho expand nothing")
}

// godotenv 1.5.1 also reads NAME: VALUE lines (the name ends at the first
// = or :) and names with dots; a Procfile's and a jobtop.yaml's env files
// (foreman's and honcho's rules) do not.
func TestParseEnvFileReadsYAMLStyleAsGodotenv(t *testing.T) {
	src := "E: yaml style\nexport F:f\na.b=dotted\nURL=http://x:1/y\nC: d=e\n"
	env, errs := parseEnvFile("x.env", []byte(src), true)
	require.Empty(t, errs)
	require.Equal(t, map[string]string{"E": "yaml style", "F": "f", "a.b": "dotted", "URL": "http://x:1/y", "C": "d=e"}, env)

	_, errs = parseEnvFile("x.env", []byte("A-B: 1\nJUST_A_NAME\n"), true)
	require.Equal(t, `x.env:1: "A-B" is not a variable name (letters, digits, _ and .)
x.env:2: want NAME=VALUE, got "JUST_A_NAME"`, errs.Error())

	_, errs = parseEnvFile("x.env", []byte(src), false)
	require.Equal(t, `x.env:1: want NAME=VALUE, got "E: yaml style"
x.env:2: want NAME=VALUE, got "F:f"
x.env:3: "a.b" is not a variable name (ASCII letters, digits and _, not starting with a digit)
x.env:5: "C: d" is not a variable name (ASCII letters, digits and _, not starting with a digit)`, errs.Error())
}
