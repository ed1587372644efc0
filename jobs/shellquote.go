package jobs

import (
	"strings"
	"unicode"
)

// ShellJoin is words as one POSIX shell command line that hands the
// program exactly these words: a word holding anything the shell would
// read (a space, a quote, "*", "$", "(", ...) is single-quoted, and of an
// assignment (FOO='a b') only the value, so that it stays one.
func ShellJoin(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if isAssignment(w) {
			name, value, _ := strings.Cut(w, "=")
			b.WriteString(name)
			b.WriteByte('=')
			if value == "" {
				continue
			}
			w = value
		}
		writeShellWord(&b, w)
	}
	return b.String()
}

// writeShellWord writes w as the shell reads it back: as it is when
// nothing in it is the shell's, else in single quotes, or in double quotes
// when it holds a single quote and nothing double quotes would read.
func writeShellWord(b *strings.Builder, w string) {
	switch {
	case w != "" && strings.IndexFunc(w, shellSpecial) < 0:
		b.WriteString(w)
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
