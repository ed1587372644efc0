// Package termtext reads text that jobs wrote for what a terminal would do
// with it: printable text, tabs, SGR colour sequences, and everything that
// must never reach a terminal from a job (other escape sequences: cursor
// moves, screen clears, title changes, clipboard writes, queries; and
// control characters). It is the one scanner behind every place jobtop
// shows job output or names: the TUI lays lines out with it (ui), the CLI
// prints with Visible (cmd).
//
// It imports only charm's ansi package and displaywidth (for grapheme
// clusters and their widths).
package termtext

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kind says what a token is.
type Kind uint8

// The kinds of token.
const (
	// Text is a run of printable ASCII.
	Text Kind = iota
	// Tab is one horizontal tab.
	Tab
	// SGR is a Select Graphic Rendition sequence (colours, bold...).
	SGR
	// Escape is any other escape sequence (CSI, OSC, DCS, APC, PM, SOS,
	// two-byte escapes, their C1 forms), or a bare ESC.
	Escape
	// Control is a C0 control (but tab), DEL, or a C1 control that
	// starts no sequence.
	Control
	// Invalid is a byte that is not UTF-8.
	Invalid
	// Cluster is one grapheme cluster of other printable text.
	Cluster
)

// Token is the piece of text that starts at a given index.
type Token struct {
	Kind Kind
	// End is the index just past the token.
	End int
	// Width is a Cluster's width in cells.
	Width int
}

// Next reads the token that starts at s[i] (i < len(s)).
func Next(s string, i int) Token {
	c := s[i]
	switch {
	case c >= 0x20 && c < 0x7f:
		j := i + 1
		for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f {
			j++
		}
		if j < len(s) && s[j] >= 0x80 {
			j-- // the last may start a cluster with what follows (e and U+0301, # and U+FE0F)
		}
		if j > i {
			return Token{Kind: Text, End: j}
		}
		n, cells := NextCluster(s[i:])
		return Token{Kind: Cluster, End: i + n, Width: cells}
	case c == '\t':
		return Token{Kind: Tab, End: i + 1}
	case c == 0x1b:
		end, sgr := skipEscape(s, i)
		if sgr {
			return Token{Kind: SGR, End: end}
		}
		return Token{Kind: Escape, End: end}
	case c < 0x80:
		return Token{Kind: Control, End: i + 1} // other C0 controls and DEL
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1 && c <= 0x9f:
		return c1Token(s, i+1, c) // raw 8-bit C1
	case r == utf8.RuneError && size == 1:
		return Token{Kind: Invalid, End: i + 1}
	case r <= 0x9f:
		return c1Token(s, i+size, byte(r)) // C1 encoded as UTF-8
	}
	n, cells := NextCluster(s[i:])
	return Token{Kind: Cluster, End: i + n, Width: cells}
}

// c1Token reads a C1 control c whose encoding ended at s[k], with the
// control sequence or string it introduces.
func c1Token(s string, k int, c byte) Token {
	switch c {
	case 0x9b: // CSI
		end, _ := skipCSI(s, k)
		return Token{Kind: Escape, End: end}
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // OSC, DCS, SOS, PM, APC
		return Token{Kind: Escape, End: skipString(s, k)}
	}
	return Token{Kind: Control, End: k}
}

// skipEscape reads the escape sequence starting with ESC at s[i] and
// returns where it ends and whether it is an SGR sequence. A bare ESC (at
// the end, or before a byte that starts no sequence) ends right after the
// ESC.
func skipEscape(s string, i int) (end int, sgr bool) {
	j := i + 1
	if j >= len(s) {
		return j, false
	}
	switch c := s[j]; {
	case c == '[':
		return skipCSI(s, j+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return skipString(s, j+1), false
	case c >= 0x20 && c <= 0x2f: // intermediates, then a final byte
		k := j
		for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
			k++
		}
		if k < len(s) && s[k] >= 0x30 && s[k] <= 0x7e {
			k++
		}
		return k, false
	case c >= 0x30 && c <= 0x7e: // two-byte escape (ESC 7, ESC c, ...)
		return j + 1, false
	}
	return j, false
}

// IsPenReset reports whether an escape sequence that is no SGR resets the
// colours and attributes as "\e[0m" does: a terminal reset (RIS, "\ec",
// what reset and tput reset write) or a soft one (DECSTR, "\e[!p").
func IsPenReset(seq string) bool { return seq == "\x1bc" || seq == "\x1b[!p" }

// skipCSI reads a control sequence whose parameters start at s[k]. It is
// SGR when its final byte is "m" with only digits, ";" and ":" before it.
// A byte that cannot be part of a CSI ends it early (that byte is kept).
func skipCSI(s string, k int) (end int, sgr bool) {
	plain := true
	for k < len(s) && s[k] >= 0x30 && s[k] <= 0x3f {
		if c := s[k]; c != ';' && c != ':' && (c < '0' || c > '9') {
			plain = false // private markers such as ? > < =
		}
		k++
	}
	params := k
	for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
		k++
	}
	if k < len(s) && s[k] >= 0x40 && s[k] <= 0x7e {
		return k + 1, plain && params == k && s[k] == 'm'
	}
	return k, false
}

// skipString skips a control string (OSC, DCS, SOS, PM, APC) whose body
// starts at s[k], through its terminator: BEL, ESC \, or ST as a raw byte
// or UTF-8 encoded. An unterminated string runs to the end of the text.
func skipString(s string, k int) int {
	for ; k < len(s); k++ {
		switch s[k] {
		case 0x07, 0x9c:
			return k + 1
		case 0x1b:
			if k+1 < len(s) && s[k+1] == '\\' {
				return k + 2
			}
		case 0xc2:
			if k+1 < len(s) && s[k+1] == 0x9c {
				return k + 2
			}
		}
	}
	return k
}

// OneLine joins a multi-line name or command into one line, each line
// break shown as " ⏎ ", so it stays readable on one row.
func OneLine(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, " ⏎ ")
}

// Visible makes text safe to print on a terminal as it is shown to people
// (as journalctl does): SGR sequences are kept when keepSGR is set, every
// other escape sequence is removed, control characters are shown as
// \xNN, bytes that are not UTF-8 become U+FFFD; text and tabs are left as
// they are. Text without anything to change is returned as is.
func Visible(s string, keepSGR bool) string {
	return filter(s, keepSGR, true)
}

// Printed is the text a terminal prints of s, as Visible scans it: SGR
// sequences kept when keepSGR is set, every other escape sequence and
// every control character but tab removed; text, tabs and bytes that are
// not UTF-8 are left as they are, so it is never longer than s. It is
// what a terminal's line is kept as, and what patterns are matched
// against (keepSGR false). Text without anything to remove is returned
// as is.
func Printed(s string, keepSGR bool) string {
	return filter(s, keepSGR, false)
}

// filter is Visible (forPeople) or Printed.
func filter(s string, keepSGR, forPeople bool) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	coloured := false // an SGR was kept since the last reset
	for i := 0; i < len(s); {
		t := Next(s, i)
		switch t.Kind {
		case Text, Tab, Cluster:
			b.WriteString(s[i:t.End])
		case SGR:
			if keepSGR {
				b.WriteString(s[i:t.End])
				coloured = true
			}
		case Escape:
			if coloured && IsPenReset(s[i:t.End]) {
				b.WriteString("\x1b[0m") // its colours end here, as on a terminal
				coloured = false
			}
		case Control:
			if !forPeople {
				break
			}
			for _, c := range []byte(s[i:t.End]) {
				b.WriteString(`\x`)
				b.WriteByte("0123456789abcdef"[c>>4])
				b.WriteByte("0123456789abcdef"[c&15])
			}
		case Invalid:
			if forPeople {
				b.WriteString("\uFFFD")
			} else {
				b.WriteString(s[i:t.End])
			}
		}
		i = t.End
	}
	return b.String()
}

// HasHidden reports whether b may hold something Printed(b, true) would
// remove: an escape sequence other than a plain SGR, or a control other
// than tab. It is a quick check for text that is almost always without
// them; false means Printed would return it as is.
func HasHidden(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if i += printableRun(b[i:]); i == len(b) {
			break
		}
		switch c := b[i]; {
		case c == 0x1b:
			k := i + 1
			if k >= len(b) || b[k] != '[' {
				return true
			}
			for k++; k < len(b) && (b[k] >= '0' && b[k] <= '9' || b[k] == ';' || b[k] == ':'); k++ {
			}
			if k >= len(b) || b[k] != 'm' {
				return true
			}
			i = k
		case c < 0x20 && c != '\t', c == 0x7f:
			return true
		case c >= 0x80:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 && c <= 0x9f || r >= 0x80 && r <= 0x9f {
				return true // a C1 control, raw or UTF-8 encoded
			}
			i += size - 1
		}
	}
	return false
}

// printableRun is how many bytes at the start of b are printable ASCII
// (0x20-0x7e), counted eight at a time: it stops at the first eight that
// are not all printable (HasHidden looks at those one by one). Lines of
// plain text are most of what a flood of output is.
func printableRun(b []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// A byte under 0x20 borrows into its high bit when 0x20 is taken
		// from it, 0x7f carries into it when 1 is added, and one of 0x80
		// or more has it already; a borrow or carry from a lower byte only
		// comes from one of those.
		if ((w-0x20*ones)|(w+ones)|w)&highs != 0 {
			break
		}
	}
	return i
}

// PlacesCursor reports whether b moves the cursor to a row (CUP, HVP,
// VPA): a program that draws a screen so, on the main one, leaves pieces
// of rows run together in a line.
func PlacesCursor(b []byte) bool { return hasCSI(b, "Hfd", "") }

// plain reports whether s is printable ASCII and tabs only.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// ShowControls shows every control character in s as an escape, removing
// nothing, for text a person reads to learn what it does (a job file's
// command, as check prints it): \a \b \t \n \v \f \r by name, the other
// C0 characters and DEL as \xNN (ESC is \x1b), the C1 ones as \u0080...,
// bytes that are not UTF-8 as \xNN. Backslashes are left as they are.
// Text without a control character is returned as is.
func ShowControls(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20 || r == 0x7f:
			if k := strings.IndexByte("\a\b\t\n\v\f\r", byte(r)); k >= 0 {
				b.WriteByte('\\')
				b.WriteByte("abtnvfr"[k])
			} else {
				fmt.Fprintf(&b, `\x%02x`, r)
			}
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// hasControl reports whether s holds a control character (C0, DEL, C1)
// or a byte that is not UTF-8.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			if c < 0x80 {
				return true
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 || r >= 0x80 && r <= 0x9f {
				return true
			}
			i += size - 1
		}
	}
	return false
}
