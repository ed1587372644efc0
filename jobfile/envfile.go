package jobfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"

	"jobtop/jobs"
)

// maxEnvFileSize bounds an env file; anything larger is surely not one.
const maxEnvFileSize = 1 << 20

// readEnvFiles reads env_file: one path or a list of them, later files
// winning.
func (y *yamlFile) readEnvFiles(e entry) map[string]string {
	items := []entry{e}
	if seq, ok := e.value.(*ast.SequenceNode); ok {
		items = items[:0]
		for i, v := range seq.Values {
			items = append(items, entry{key: v, value: y.resolve(v), path: fmt.Sprintf("%s[%d]", e.path, i)})
		}
	}
	var layers []map[string]string
	for _, item := range items {
		p, ok := y.text(item)
		if !ok {
			continue
		}
		layers = append(layers, y.readEnvFile(item, p))
	}
	return mergeEnv(layers...)
}

// envFileNames are the files an env_file entry names, as people read them.
func (y *yamlFile) envFileNames(e entry) []string {
	items := []ast.Node{e.value}
	if seq, ok := e.value.(*ast.SequenceNode); ok {
		items = seq.Values
	}
	var out []string
	for _, v := range items {
		if s, ok := scalarText(y.resolve(v)); ok {
			out = append(out, y.display(s))
		}
	}
	return out
}

func (y *yamlFile) readEnvFile(e entry, given string) map[string]string {
	path := y.abs(given)
	if env, done := y.envFiles[path]; done {
		return env
	}
	data, err := readSmallFile(path, maxEnvFileSize)
	if err != nil {
		y.errorf(e.value, "%s: %q %v", e.path, given, err)
		y.envFiles[path] = nil
		return nil
	}
	env, errs := parseEnvFile(y.display(given), data, y.expandEnvFiles)
	y.errs = append(y.errs, errs...)
	y.envFiles[path] = env
	return env
}

// readSmallFile reads a regular file of at most limit bytes; it looks
// before it opens, so that a FIFO or a device is never opened. Its errors
// read after the file's name: "does not exist".
func readSmallFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errors.New("does not exist")
	case err != nil:
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, pe.Err
		}
		return nil, err
	case !st.Mode().IsRegular():
		return nil, errors.New("is not a regular file")
	case st.Size() > limit:
		return nil, fmt.Errorf("is larger than %s", jobs.FormatBytes(limit))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// utf8BOM is the byte order mark some Windows editors put first in a
// UTF-8 file.
const utf8BOM = "\ufeff"

// withoutBOM is data without a leading UTF-8 byte order mark, which no
// format jobtop reads means as text (dotenv, foreman and YAML skip it).
func withoutBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte(utf8BOM)) }

// parseEnvFile reads KEY=VALUE lines: blank lines and lines starting with
// # are skipped, "export " before a name is allowed, a value in single
// quotes is taken as is, one in double quotes understands \n, \t, \", \\
// and \$, and an unquoted value ends at " #" and is trimmed.
//
// With expand (process-compose's files, read by godotenv 1.5.1 there),
// a line may be NAME: VALUE too, a name may hold dots, and
// $NAME and ${NAME} in unquoted and double-quoted values are replaced by
// NAME's value from an earlier line of the same file ("" if none: godotenv
// does not look at the environment), NAME being upper-case letters, digits
// and _; \$ is a literal $. Foreman and honcho expand nothing, so a
// Procfile's .env is read without.
func parseEnvFile(path string, data []byte, expand bool) (map[string]string, ErrorList) {
	env := map[string]string{}
	var errs ErrorList
	for i, raw := range strings.Split(string(withoutBOM(data)), "\n") {
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fail := func(format string, args ...any) {
			errs = append(errs, &Error{File: path, Line: i + 1, Msg: fmt.Sprintf(format, args...)})
		}
		line = strings.TrimPrefix(line, "export ")
		seps := "="
		if expand {
			seps = "=:" // godotenv also reads NAME: VALUE, as YAML writes it
		}
		at := strings.IndexAny(line, seps)
		if at < 0 {
			fail("want NAME=VALUE, got %q", line)
			continue
		}
		name, value := strings.TrimSpace(line[:at]), line[at+1:]
		check := checkEnvName
		if expand {
			check = checkDotenvName
		}
		if msg := check(name); msg != "" {
			fail("%s", msg)
			continue
		}
		v, err := envValue(strings.TrimSpace(value), expand, env)
		if err != nil {
			fail("%s: %v", name, err)
			continue
		}
		env[name] = v
	}
	return env, errs
}

// envValue reads a value as written after NAME=; with expand, its $VAR
// references are expanded from env (see parseEnvFile).
func envValue(s string, expand bool, env map[string]string) (string, error) {
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		if i := strings.Index(s, " #"); i >= 0 {
			s = s[:i]
		}
		s = strings.TrimSpace(s)
		if expand {
			s = expandDotenv(s, env)
		}
		return s, nil
	}
	quote := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote:
			rest := strings.TrimSpace(s[i+1:])
			if rest != "" && !strings.HasPrefix(rest, "#") {
				return "", fmt.Errorf("unexpected %q after the closing quote", rest)
			}
			if expand && quote == '"' {
				return expandDotenv(b.String(), env), nil
			}
			return b.String(), nil
		case c == '\\' && quote == '"' && i+1 < len(s):
			i++
			if expand && s[i] == '$' {
				b.WriteByte('\\') // kept for expandDotenv, which makes it a $
			}
			b.WriteByte(unescape(s[i]))
		default:
			b.WriteByte(c)
		}
	}
	return "", fmt.Errorf("missing closing %c", quote)
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	}
	return c // \" \\ \$ and anything else: the character itself
}

// dotenvVarRef is godotenv 1.5.1's pattern for a variable reference in a
// value: an optional backslash, $, then NAME or {NAME} (upper case).
var dotenvVarRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(\\)?(\$)(\()?\{?([A-Z0-9_]+)?\}?`)
})

// expandDotenv replaces $NAME and ${NAME} in s with NAME's value in env
// ("" when env has none), and \$ with $, as godotenv 1.5.1 does.
func expandDotenv(s string, env map[string]string) string {
	return dotenvVarRef().ReplaceAllStringFunc(s, func(m string) string {
		sub := dotenvVarRef().FindStringSubmatch(m)
		switch {
		case sub[1] == `\`:
			return m[1:]
		case sub[4] != "":
			return env[sub[4]]
		}
		return m
	})
}
