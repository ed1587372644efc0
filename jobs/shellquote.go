package jobs

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// ShellJoin is an argv as one shell command line that runs exactly it: a
// word holding anything the shell would read (a space, a quote, "*",
// "$", "(", ...) is quoted; so is a first word the shell would take for
// an assignment (FOO=1) or a keyword (while). An argument NAME=value has
// only its value quoted (CFLAGS='-O2 -g'): it reads the same.
//
// A word holding a control character (a newline, a tab, ESC, any other
// C0 or C1 control, DEL) or bytes that are not UTF-8 is written in
// bash's ANSI-C quotes, each of those escaped ($'line\nbreak',
// $'\e[31mred'): the line stays one line, no escape sequence in it
// reaches a terminal that shows it, and it can be pasted back into bash,
// zsh or ksh (a POSIX.1-2024 sh reads it too; dash 0.5.12 does not).
// Other words are quoted as any POSIX shell reads them.
func ShellJoin(words []string) string { return shellJoin(words, writeANSIC) }

// ShellLine is an argv as a command line that /bin/sh runs as exactly
// it, whichever POSIX shell that is (dash reads no $'...'): ShellJoin's
// line, but for a word holding a control character or bytes that are not
// UTF-8, which is single-quoted with a tab and a line feed in it as they
// are, and any other of those bytes written by printf
// ('\e'"$(printf '\033')"'[31mred'). The line may span lines: it is to
// be run, not shown as it is.
func ShellLine(words []string) string { return shellJoin(words, writePOSIXControls) }

func shellJoin(words []string, controls func(*strings.Builder, string)) string {
	var b strings.Builder
	for i, w := range words {
		switch {
		case i == 0 && (isAssignment(w) || shellKeywords()[w]):
			quoteShellWord(&b, w, controls)
			continue
		case i == 0:
		case isAssignment(w):
			b.WriteByte(' ')
			name, value, _ := strings.Cut(w, "=")
			b.WriteString(name)
			b.WriteByte('=')
			if value != "" {
				writeShellWord(&b, value, controls)
			}
			continue
		default:
			b.WriteByte(' ')
		}
		writeShellWord(&b, w, controls)
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
// when it holds a single quote and nothing double quotes would read, or
// by controls when it holds a control character.
func writeShellWord(b *strings.Builder, w string, controls func(*strings.Builder, string)) {
	if w != "" && strings.IndexFunc(w, shellSpecial) < 0 {
		b.WriteString(w)
		return
	}
	quoteShellWord(b, w, controls)
}

// quoteShellWord writes w quoted: by controls (writeANSIC,
// writePOSIXControls) when it holds a control character or bytes that are
// not UTF-8, in double quotes when it holds a single quote and nothing
// double quotes would read, else in single quotes.
func quoteShellWord(b *strings.Builder, w string, controls func(*strings.Builder, string)) {
	switch {
	case needsANSIC(w):
		controls(b, w)
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

// needsANSIC reports whether w holds what only ANSI-C quotes write
// without the byte itself: a C0 control, DEL, a C1 control (U+0080 to
// U+009F) or bytes that are not UTF-8 (a lone 0x9b is CSI to a terminal
// that reads 8-bit controls).
func needsANSIC(w string) bool {
	for i := 0; i < len(w); {
		c, size := utf8.DecodeRuneInString(w[i:])
		if c == utf8.RuneError && size == 1 || unicode.IsControl(c) {
			return true
		}
		i += size
	}
	return false
}

// writeANSIC writes w in bash's ANSI-C quotes ($'...'): a backslash and
// a single quote escaped, a newline, tab, carriage return and ESC by
// name, every other control and every byte that is not UTF-8 as \xHH
// (two digits, so that a hex digit after it is not read into it; a C1
// control as its two UTF-8 bytes, which bash gives back as they are
// whatever the locale).
func writeANSIC(b *strings.Builder, w string) {
	b.WriteString("$'")
	for i := 0; i < len(w); {
		c, size := utf8.DecodeRuneInString(w[i:])
		switch {
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\x1b':
			b.WriteString(`\e`)
		case c == utf8.RuneError && size == 1 || unicode.IsControl(c):
			for _, x := range []byte(w[i : i+size]) {
				fmt.Fprintf(b, `\x%02x`, x)
			}
		default:
			b.WriteString(w[i : i+size])
		}
		i += size
	}
	b.WriteByte('\'')
}

// writePOSIXControls writes w in single quotes as any POSIX sh reads it:
// a single quote by closing the quotes, a backslash-escaped quote and
// opening them again, a tab and a line feed as they are (single
// quotes hold them), every other control and every byte that is not UTF-8
// as printf's octal escape in a command substitution spliced into the
// word ('a'"$(printf '\033')"'b'; never a line feed, which a command
// substitution would drop at its end).
func writePOSIXControls(b *strings.Builder, w string) {
	b.WriteByte('\'')
	for i := 0; i < len(w); {
		c, size := utf8.DecodeRuneInString(w[i:])
		switch {
		case c == '\'':
			b.WriteString(`'\''`)
		case c == '\t' || c == '\n':
			b.WriteRune(c)
		case c == utf8.RuneError && size == 1 || unicode.IsControl(c):
			b.WriteString(`'"$(printf '`)
			for _, x := range []byte(w[i : i+size]) {
				fmt.Fprintf(b, `\%03o`, x)
			}
			b.WriteString(`')"'`)
		default:
			b.WriteString(w[i : i+size])
		}
		i += size
	}
	b.WriteByte('\'')
}
