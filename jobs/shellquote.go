package jobs

import (
	"strings"
	"sync"
	"unicode"
)

// ShellJoin is an argv as one POSIX shell command line that runs exactly
// it: a word holding anything the shell would read (a space, a quote,
// "*", "$", "(", ...) is quoted; so is a first word the shell would take
// for an assignment (FOO=1) or a keyword (while). An argument NAME=value
// has only its value quoted (CFLAGS='-O2 -g'): it reads the same.
func ShellJoin(words []string) string {
	var b strings.Builder
	for i, w := range words {
		switch {
		case i == 0 && (isAssignment(w) || shellKeywords()[w]):
			quoteShellWord(&b, w)
			continue
		case i == 0:
		case isAssignment(w):
			b.WriteByte(' ')
			name, value, _ := strings.Cut(w, "=")
			b.WriteString(name)
			b.WriteByte('=')
			if value != "" {
				writeShellWord(&b, value)
			}
			continue
		default:
			b.WriteByte(' ')
		}
		writeShellWord(&b, w)
	}
	return b.String()
}

// shellKeywords are the words a shell reads as its own where a command
// starts (POSIX's reserved words, and bash's).
var shellKeywords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true, "esac": true,
		"for": true, "while": true, "until": true, "do": true, "done": true, "in": true,
		"!": true, "{": true, "}": true, "function": true, "select": true, "time": true, "[[": true, "]]": true, "coproc": true,
	}
})

// writeShellWord writes w as the shell reads it back: as it is when
// nothing in it is the shell's, else in single quotes, or in double quotes
// when it holds a single quote and nothing double quotes would read.
func writeShellWord(b *strings.Builder, w string) {
	if w != "" && strings.IndexFunc(w, shellSpecial) < 0 {
		b.WriteString(w)
		return
	}
	quoteShellWord(b, w)
}

// quoteShellWord writes w quoted: in double quotes when it holds a single
// quote and nothing double quotes would read, else in single quotes.
func quoteShellWord(b *strings.Builder, w string) {
	switch {
	case strings.ContainsRune(w, '\'') && doubleQuotable(w):
		b.WriteByte('"')
		b.WriteString(w)
		b.WriteByte('"')
	default:
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(w, "'", `'\''`))
		b.WriteByte('\'')
	}
}

// doubleQuotable reports whether w reads as itself in double quotes: no
// "$", "`", '"' or "!" (an interactive shell's history), and no
// backslash before one of those, a backslash or the end.
func doubleQuotable(w string) bool {
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case '$', '`', '"', '!':
			return false
		case '\\':
			if i+1 == len(w) || strings.IndexByte("$`\"\\\n!", w[i+1]) >= 0 {
				return false
			}
		}
	}
	return true
}

// shellSpecial reports whether a shell could read c as more than itself
// (or a reader could miss it: spaces of every kind are quoted).
func shellSpecial(c rune) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return false
	case c < 0x80:
		return !strings.ContainsRune("_@%+=:,./-", c)
	}
	return !unicode.IsLetter(c) && !unicode.IsDigit(c) && !unicode.IsMark(c)
}
