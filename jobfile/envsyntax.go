package jobfile

// This file reads an env file's text: the syntax of foreman's and honcho's
// .env, and of godotenv 1.5.1's for process-compose's files.

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// parseEnvFile reads NAME=VALUE statements the way godotenv 1.5.1 lays
// them out. Blank lines and lines starting with # are skipped, "export"
// and a blank before a name are allowed, a value in single quotes is taken
// as is, one in double quotes understands \n, \r, \t, and \X as X (\",
// \\, \$), and an unquoted value ends at a # after a blank and is
// trimmed. A quoted value may span lines (a PEM key): it ends at the first
// quote of its kind after an even number of backslashes, and it is an
// error when none follows. An error names the line its statement starts
// on; each bad statement is reported and the next one read, except after
// an unclosed quote, which takes the rest of the file. Where godotenv
// 1.5.1 misreads (\\ before a closing quote, a value ending in \", a byte
// order mark, text after a closing quote) this reads what was meant or
// reports a problem.
//
// With expand (process-compose's files, read by godotenv 1.5.1 there),
// the rest of godotenv's rules: a line may be NAME: VALUE too, a name may
// hold dots, \t is a t, a comment starts at the last # after a blank, and
// $NAME and ${NAME} in unquoted and double-quoted values are replaced by
// NAME's value from an earlier line of the same file ("" if none: godotenv
// does not look at the environment), NAME being upper-case letters, digits
// and _; \$ is a literal $. Foreman and honcho expand nothing, so a
// Procfile's .env is read without, and with honcho's \t and first #.
func parseEnvFile(path string, data []byte, expand bool) (map[string]string, ErrorList) {
	s := envScanner{src: strings.ReplaceAll(string(withoutBOM(data)), "\r\n", "\n"), line: 1}
	env := map[string]string{}
	var errs ErrorList
	for s.nextStatement() {
		line := s.line
		name, value, problems := s.statement(expand, env)
		for _, msg := range problems {
			errs = append(errs, &Error{File: path, Line: line, Msg: msg})
		}
		if problems == nil {
			env[name] = value
		}
	}
	return env, errs
}

// envScanner reads an env file's text (CRLF made LF) statement by
// statement, counting lines.
type envScanner struct {
	src  string
	pos  int
	line int // the line of src[pos], from 1
}

// advance moves to offset to, counting the lines it passes.
func (s *envScanner) advance(to int) {
	passed := s.src[s.pos:to]
	s.line += strings.Count(passed, "\n") + strings.Count(passed, "\r")
	s.pos = to
}

// lineEnd is the offset of the end of the current line; outside quotes a
// lone carriage return ends a line too, as in godotenv and honcho.
func (s *envScanner) lineEnd() int {
	if i := strings.IndexAny(s.src[s.pos:], "\r\n"); i >= 0 {
		return s.pos + i
	}
	return len(s.src)
}

// nextStatement skips blank lines and comment lines and says whether a
// statement follows.
func (s *envScanner) nextStatement() bool {
	for {
		i := strings.IndexFunc(s.src[s.pos:], func(r rune) bool { return !unicode.IsSpace(r) })
		if i < 0 {
			s.advance(len(s.src))
			return false
		}
		s.advance(s.pos + i)
		if s.src[s.pos] != '#' {
			return true
		}
		s.advance(s.lineEnd())
	}
}

// statement reads one NAME=VALUE and moves past it; with expand, as
// godotenv 1.5.1 reads it (see parseEnvFile), expanding from env. It says
// what is wrong with it, if anything: a bad name and a bad value both.
func (s *envScanner) statement(expand bool, env map[string]string) (name, value string, problems []string) {
	text := s.src[s.pos:s.lineEnd()]
	seps, check := "=", checkEnvName
	if expand {
		seps, check = "=:", checkDotenvName // godotenv also reads NAME: VALUE, as YAML writes it
	}
	at := strings.IndexAny(text, seps)
	if at < 0 {
		s.advance(s.lineEnd())
		return "", "", []string{fmt.Sprintf("want NAME=VALUE, got %q", strings.TrimSpace(text))}
	}
	name = text[:at]
	if rest, ok := strings.CutPrefix(name, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		name = rest // export, then a space or a tab, as godotenv and the shell read it
	}
	name = strings.TrimSpace(name)
	s.advance(s.pos + at + 1)
	value, err := s.value(expand, env)
	if msg := check(name); msg != "" {
		problems = append(problems, msg)
	}
	if err != nil {
		problems = append(problems, name+": "+err.Error())
	}
	return name, value, problems
}

// value reads the value after NAME= and moves past it and what follows it
// on its last line.
func (s *envScanner) value(expand bool, env map[string]string) (string, error) {
	start := s.line
	rest := strings.TrimLeftFunc(s.src[s.pos:], func(r rune) bool { return r != '\r' && isDotenvBlank(r) })
	s.advance(len(s.src) - len(rest))
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		v := s.src[s.pos:s.lineEnd()]
		s.advance(s.lineEnd())
		v = strings.TrimFunc(v[:commentStart(v, expand)], isDotenvBlank)
		if expand {
			v = expandDotenv(v, env)
		}
		return v, nil
	}
	quote := rest[0]
	end := closingQuote(rest)
	if end < 0 {
		s.advance(len(s.src))
		return "", fmt.Errorf("missing closing %c: the quoted value runs to the end of the file", quote)
	}
	v := rest[1:end]
	s.advance(s.pos + end + 1)
	if after := strings.TrimSpace(s.src[s.pos:s.lineEnd()]); after != "" && after[0] != '#' {
		where := ""
		if s.line != start {
			where = fmt.Sprintf(" (on line %d)", s.line)
		}
		s.advance(s.lineEnd())
		return "", fmt.Errorf("unexpected %q after the closing quote%s", after, where)
	}
	s.advance(s.lineEnd())
	if quote == '\'' {
		return v, nil
	}
	v = unescapeDoubleQuoted(v, expand)
	if expand {
		v = expandDotenv(v, env)
	}
	return v, nil
}

// commentStart is where an unquoted value's comment starts: at a # after
// a blank, the first one, or with last (godotenv 1.5.1's rule) the last
// one, so that "a # b # c" is "a # b" there; len(v) when there is none.
func commentStart(v string, last bool) int {
	at, prev := len(v), rune(0)
	for i, r := range v {
		if r == '#' && isDotenvBlank(prev) {
			at = i
			if !last {
				break
			}
		}
		prev = r
	}
	return at
}

// isDotenvBlank is godotenv's space: the blanks within a line.
func isDotenvBlank(r rune) bool {
	switch r {
	case ' ', '\t', '\v', '\f', '\r', '\u0085', '\u00a0':
		return true
	}
	return false
}

// closingQuote is the offset in s of the quote that closes the one s
// starts with: the first of its kind after an even number of backslashes
// (none, or escaped ones); -1 when there is none.
func closingQuote(s string) int {
	backslashes := 0
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case s[0]:
			if backslashes%2 == 0 {
				return i
			}
		case '\\':
			backslashes++
			continue
		}
		backslashes = 0
	}
	return -1
}

// unescapeDoubleQuoted reads the backslash escapes of a double-quoted
// value: \n and \r, \t (a tab, but with expand a t, as godotenv 1.5.1
// reads it), and \X as X for any other X; with expand, \$ is kept for
// expandDotenv, which makes it a $.
func unescapeDoubleQuoted(s string, expand bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			c = s[i]
			switch {
			case c == 'n':
				c = '\n'
			case c == 'r':
				c = '\r'
			case c == 't' && !expand:
				c = '\t'
			case c == '$' && expand:
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
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
