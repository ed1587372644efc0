package jobfile

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseEnvFile(t *testing.T) {
	src := "# comment\n" +
		"\n" +
		"PLAIN=value\n" +
		"  SPACED = padded value  \n" +
		"export EXPORTED=yes\n" +
		"export\tTABBED=yes\n" +
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
		"TABBED":    "yes",
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
	src := "OK=1\nJUST_A_NAME\n=value\nA-B=1\nR=\"x\" y\nQ='open\nS=1\n"
	_, errs := parseEnvFile("dir/x.env", []byte(src), false)
	require.Equal(t, `dir/x.env:2: want NAME=VALUE, got "JUST_A_NAME"
dir/x.env:3: "" is not a variable name (ASCII letters, digits and _, not starting with a digit)
dir/x.env:4: "A-B" is not a variable name (ASCII letters, digits and _, not starting with a digit)
dir/x.env:5: R: unexpected "y" after the closing quote
dir/x.env:6: Q: missing closing ': the quoted value runs to the end of the file`, errs.Error())
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
x.env:2: want NAME=VALUE, got "export F:f"
x.env:3: "a.b" is not a variable name (ASCII letters, digits and _, not starting with a digit)
x.env:5: "C: d" is not a variable name (ASCII letters, digits and _, not starting with a digit)`, errs.Error())
}

// pem is a private key as people paste it into .env: one double-quoted
// value over several lines.
const pem = "KEY=\"-----BEGIN KEY-----\nabc\n-----END KEY-----\"\n"

// A quoted value may span lines, in both syntaxes, as in godotenv 1.5.1
// (its fixtures/quoted.env, OPTION_J to OPTION_M): the newlines are part
// of the value, and the lines after it are read as they are.
func TestParseEnvFileMultiLineQuotes(t *testing.T) {
	tests := []struct {
		name, src string
		want      map[string]string
		dotenv    map[string]string // want as godotenv reads it, when it differs
	}{
		{"pem", pem + "NEXT=1\n", map[string]string{"KEY": "-----BEGIN KEY-----\nabc\n-----END KEY-----", "NEXT": "1"}, nil},
		{"pem at the end of the file", strings.TrimSuffix(pem, "\n"), map[string]string{"KEY": "-----BEGIN KEY-----\nabc\n-----END KEY-----"}, nil},
		{"crlf", strings.ReplaceAll(pem, "\n", "\r\n"), map[string]string{"KEY": "-----BEGIN KEY-----\nabc\n-----END KEY-----"}, nil},
		{"single", "OPTION_J='line 1\nline 2'\n", map[string]string{"OPTION_J": "line 1\nline 2"}, nil},
		{"double", "OPTION_L=\"line 1\nline 2\"\n", map[string]string{"OPTION_L": "line 1\nline 2"}, nil},
		{"escaped quotes inside", "OPTION_M=\"line one\nthis is \\\"quoted\\\"\none more line\"\n",
			map[string]string{"OPTION_M": "line one\nthis is \"quoted\"\none more line"}, nil},
		{"lines that look like comments or statements", "A=\"x\n# not a comment\nB=not a variable\"\nC=3\n",
			map[string]string{"A": "x\n# not a comment\nB=not a variable", "C": "3"}, nil},
		{"a comment after the closing quote", "A='x\ny' # comment\n", map[string]string{"A": "x\ny"}, nil},
		{"expanded as one value", "H=h\nA=\"$H\n${H}\"\n", map[string]string{"H": "h", "A": "$H\n${H}"},
			map[string]string{"H": "h", "A": "h\nh"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, dotenv := range []bool{false, true} {
				env, errs := parseEnvFile("x.env", []byte(tt.src), dotenv)
				require.Empty(t, errs)
				want := tt.want
				if dotenv && tt.dotenv != nil {
					want = tt.dotenv
				}
				require.Equal(t, want, env, "dotenv %v", dotenv)
			}
		})
	}
}

// An error names the line where the bad value starts, and an unclosed
// quote, which takes the rest of the file as its value, is one error, not
// one more for each line after it.
func TestParseEnvFileErrorLinesWithMultiLineValues(t *testing.T) {
	src := "A=\"one\ntwo\"\nBAD LINE\nB='x\ny' z\nC=\"open\nD=1\nE=2\n"
	_, errs := parseEnvFile("x.env", []byte(src), true)
	require.Equal(t, `x.env:3: want NAME=VALUE, got "BAD LINE"
x.env:4: B: unexpected "z" after the closing quote (on line 5)
x.env:6: C: missing closing ": the quoted value runs to the end of the file`, errs.Error())

	_, errs = parseEnvFile("x.env", []byte("OK=1\nA-B='open\nC=1\n"), false)
	require.Equal(t, `x.env:2: "A-B" is not a variable name (ASCII letters, digits and _, not starting with a digit)
x.env:2: A-B: missing closing ': the quoted value runs to the end of the file`, errs.Error(),
		"a bad name does not hide the unclosed quote that took the rest of the file")
}

// A .env with a PEM key starts the jobs of a Procfile and of a
// process-compose file alike (it stopped both, as a file with problems).
func TestEnvFileWithAPEMKeyLoads(t *testing.T) {
	key := "-----BEGIN KEY-----\nabc\n-----END KEY-----"
	inDir(t, map[string]string{
		"Procfile":                "web: ./run\n",
		".env":                    pem,
		"pc/process-compose.yaml": "processes:\n  web:\n    command: ./run\n    env_file: web.env\n",
		"pc/.env":                 pem,
		"pc/web.env":              "WEB_" + pem,
	})
	plan, err := Load("Procfile")
	require.NoError(t, err)
	require.Equal(t, key, plan.Jobs[0].Spec.Env["KEY"])

	plan, err = Load("pc/process-compose.yaml")
	require.NoError(t, err)
	require.Equal(t, key, plan.Jobs[0].Spec.Env["WEB_KEY"])
}

// godotenv 1.5.1's own cases (godotenv_test.go's TestParsing and its
// fixtures), read the way process-compose reads them.
func TestParseEnvFileAsGodotenvTests(t *testing.T) {
	tests := []struct{ src, name, want string }{
		{"FOO=bar", "FOO", "bar"},
		{"FOO =bar", "FOO", "bar"},
		{"FOO= bar", "FOO", "bar"},
		{`FOO="bar"`, "FOO", "bar"},
		{"FOO='bar'", "FOO", "bar"},
		{`FOO="escaped\"bar"`, "FOO", `escaped"bar`},
		{`FOO="'d'"`, "FOO", `'d'`},
		{"OPTION_A: 1", "OPTION_A", "1"},
		{"OPTION_A: Foo=bar", "OPTION_A", "Foo=bar"},
		{"OPTION_A=1:B", "OPTION_A", "1:B"},
		{"export OPTION_A=2", "OPTION_A", "2"},
		{`export OPTION_B='\n'`, "OPTION_B", `\n`},
		{"export exportFoo=2", "exportFoo", "2"},
		{"exportFOO=2", "exportFOO", "2"},
		{"export_FOO =2", "export_FOO", "2"},
		{"export.FOO= 2", "export.FOO", "2"},
		{"export\tOPTION_A=2", "OPTION_A", "2"},
		{"  export OPTION_A=2", "OPTION_A", "2"},
		{"\texport OPTION_A=2", "OPTION_A", "2"},
		{`FOO="bar\nbaz"`, "FOO", "bar\nbaz"},
		{"FOO.BAR=foobar", "FOO.BAR", "foobar"},
		{"FOO=foobar=", "FOO", "foobar="},
		{"FOO=bar ", "FOO", "bar"},
		{"KEY=value value", "KEY", "value value"},
		{"FOO=bar # this is foo", "FOO", "bar"},
		{`FOO="bar#baz" # comment`, "FOO", "bar#baz"},
		{"FOO='bar#baz' # comment", "FOO", "bar#baz"},
		{`FOO="bar#baz#bang" # comment`, "FOO", "bar#baz#bang"},
		{`FOO="ba#r"`, "FOO", "ba#r"},
		{"FOO='ba#r'", "FOO", "ba#r"},
		{`FOO="bar\n\ b\az"`, "FOO", "bar\n baz"},
		{`FOO="bar\\\n\ b\az"`, "FOO", "bar\\\n baz"},
		{`FOO="bar\\r\ b\az"`, "FOO", `bar\r baz`},
		{" KEY =value", "KEY", "value"},
		{"   KEY=value", "KEY", "value"},
		{"\tKEY=value", "KEY", "value"},
		// fixtures/plain.env, comments.env, quoted.env
		{"OPTION_E = 5", "OPTION_E", "5"},
		{"OPTION_F = ", "OPTION_F", ""},
		{"OPTION_G=", "OPTION_G", ""},
		{"OPTION_H=1 2", "OPTION_H", "1 2"},
		{"# Full line comment\nfoo=bar # baz", "foo", "bar"},
		{"bar=foo#baz", "bar", "foo#baz"},
		{`baz="foo"#bar`, "baz", "foo"},
		{"OPTION_C=''", "OPTION_C", ""},
		{`OPTION_D='\n'`, "OPTION_D", `\n`},
		{`OPTION_G=""`, "OPTION_G", ""},
		{`OPTION_H="\n"`, "OPTION_H", "\n"},
		{`OPTION_I = "echo 'asd'"`, "OPTION_I", "echo 'asd'"},
		{"OPTION_K='line one\nthis is \\'quoted\\'\none more line'", "OPTION_K", "line one\nthis is \\'quoted\\'\none more line"},
		{"TEST_URLS=\"stratum+tcp://a:3333\nstratum+tcp://a:443\"", "TEST_URLS", "stratum+tcp://a:3333\nstratum+tcp://a:443"},
		// TestExpanding and fixtures/substitutions.env
		{"FOO=test\nBAR=${FOO}bar", "BAR", "testbar"},
		{`FOO="foo\${BAR}"`, "FOO", "foo${BAR}"},
		{"FOO=test\nBAR=\"foo\\${FOO} ${FOO}\"", "BAR", "foo${FOO} test"},
		{"OPTION_A=1\nOPTION_B=${OPTION_A}\nOPTION_D=${OPTION_A}${OPTION_B}", "OPTION_D", "11"},
	}
	for _, tt := range tests {
		env, errs := parseEnvFile("x.env", []byte(tt.src), true)
		assert.Empty(t, errs, "%q", tt.src)
		assert.Equal(t, tt.want, env[tt.name], "%q", tt.src)
	}
}

// An unquoted value's comment starts at a # after a space or a tab (or
// another of godotenv's blanks); godotenv 1.5.1 takes the last such #,
// jobtop's syntax (honcho's) the first.
func TestParseEnvFileComments(t *testing.T) {
	tests := []struct{ src, plain, dotenv string }{
		{"A=x # c", "x", "x"},
		{"A=x\t# c", "x", "x"},
		{"A=x\u00a0# c", "x", "x"},
		{"A=x#c", "x#c", "x#c"},
		{"A=# c", "# c", "# c"},
		{"A= \t# c", "# c", "# c"},
		{"A=x # y # z", "x", "x # y"},
		{"A=x # y #z\t", "x", "x # y"},
		{"A=x\t# y\t# z", "x", "x\t# y"},
	}
	for _, tt := range tests {
		env, errs := parseEnvFile("x.env", []byte(tt.src), false)
		assert.Empty(t, errs)
		assert.Equal(t, tt.plain, env["A"], "%q", tt.src)
		env, errs = parseEnvFile("x.env", []byte(tt.src), true)
		assert.Empty(t, errs)
		assert.Equal(t, tt.dotenv, env["A"], "%q as godotenv reads it", tt.src)
	}
}

// In double quotes, godotenv 1.5.1 reads \n and \r, and \X as X for any
// other X, \t too; jobtop's syntax (honcho's) also reads \t as a tab.
func TestParseEnvFileDoubleQuoteEscapes(t *testing.T) {
	tests := []struct{ src, plain, dotenv string }{
		{`A="a\nb\rc"`, "a\nb\rc", "a\nb\rc"},
		{`A="a\tb"`, "a\tb", "atb"},
		{`A="\"\\\'\x"`, `"\'x`, `"\'x`},
		{`A="a\\nb"`, `a\nb`, `a\nb`},
		{"A=\"a\\\nb\"", "a\nb", "a\nb"},
		{`A="a\$B"`, "a$B", "a$B"},
		{`A="a\\$B"`, `a\$B`, "a$B"}, // godotenv's \$ is read after its \\
		{`A="a\"`, "", ""},
	}
	for _, tt := range tests {
		env, _ := parseEnvFile("x.env", []byte(tt.src), false)
		assert.Equal(t, tt.plain, env["A"], "%q", tt.src)
		env, _ = parseEnvFile("x.env", []byte(tt.src), true)
		assert.Equal(t, tt.dotenv, env["A"], "%q as godotenv reads it", tt.src)
	}
}

// A carriage return ends an unquoted value and what follows a closing
// quote, as godotenv and honcho read it, so a file with CR line ends
// (classic Mac) reads as one with LF.
func TestParseEnvFileCarriageReturns(t *testing.T) {
	for _, dotenv := range []bool{false, true} {
		env, errs := parseEnvFile("x.env", []byte("A=1\rB='2'\rC=3 # c\rEMPTY=\rD=4"), dotenv)
		require.Empty(t, errs)
		require.Equal(t, map[string]string{"A": "1", "B": "2", "C": "3", "EMPTY": "", "D": "4"}, env, "dotenv %v", dotenv)

		_, errs = parseEnvFile("x.env", []byte("A=1\r# c\rJUNK\rB=2\r"), dotenv)
		require.Equal(t, `x.env:3: want NAME=VALUE, got "JUNK"`, errs.Error())
	}
}

// Where godotenv 1.5.1 misreads a file, jobtop does not follow it: \\
// before a closing quote is an escaped backslash (godotenv read on, past
// the line, until the next quote; fixed after 1.5.1), a value ending in
// an escaped quote keeps it (godotenv drops it and keeps the backslash),
// a byte order mark is skipped, and what godotenv reads oddly or stops at
// is reported, every problem at once, each on its own line.
func TestParseEnvFileWhereGodotenvMisreads(t *testing.T) {
	env, errs := parseEnvFile("x.env", []byte("\ufeffA=\"C:\\\\\"\nB=\"say \\\"hi\\\"\"\nC='it\\''\n"), true)
	require.Empty(t, errs)
	require.Equal(t, map[string]string{"A": `C:\`, "B": `say "hi"`, "C": `it\'`}, env)

	_, errs = parseEnvFile("x.env", []byte("A=\"x\" B=2\nA B=1\n=x\nOK=1\n"), true)
	require.Equal(t, `x.env:1: A: unexpected "B=2" after the closing quote
x.env:2: "A B" is not a variable name (letters, digits, _ and .)
x.env:3: "" is not a variable name (letters, digits, _ and .)`, errs.Error())
}

// FuzzParseEnvFile feeds the env file reader any bytes, in both syntaxes:
// it must never panic, and each problem it reports must name a line of
// the file.
func FuzzParseEnvFile(f *testing.F) {
	for _, seed := range []string{pem, "A='x\\'\ny' # c\r\nB=\"\\\\\"\rC: $A ${B}\n", "export\tA=1 # x # y\nQ='open\n"} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, dotenv bool) {
		_, errs := parseEnvFile("x.env", data, dotenv)
		lines := 1 + strings.Count(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(string(data), "\r\n", ""), "\r")
		for _, e := range errs {
			if e.Line < 1 || e.Line > lines || e.Msg == "" {
				t.Fatalf("%q: problem %q at line %d of %d", data, e.Msg, e.Line, lines)
			}
		}
	})
}
