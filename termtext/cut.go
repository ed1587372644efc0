package termtext

import (
	"strings"
	"unicode/utf8"
)

// Unfinished is where the escape sequence or UTF-8 character that s ends
// inside of starts (more bytes would still belong to it), or len(s) when
// s ends between them. Sequences are read as Next reads them (CSI, OSC,
// DCS, SOS, PM, APC, ESC with intermediates, their C1 forms raw or UTF-8
// encoded), from the start of s: a text cut at Unfinished and the rest
// read on from there is read as the whole text would be. A bare ESC at
// the end is taken as the start of a sequence. Bytes that are not UTF-8
// and could not become so are taken as they are.
func Unfinished(s string) int {
	// Valid UTF-8 without ESC or a C1 control as UTF-8 (0xc2 0x80-0x9f)
	// starts no sequence (a raw C1 byte there is a character's part):
	// only a character its end cuts may be left open.
	if strings.IndexByte(s, 0x1b) < 0 && strings.IndexByte(s, 0xc2) < 0 {
		if k := openCharacter(s); utf8.ValidString(s[:k]) {
			return k
		}
	}
	return scanUnfinished(s)
}

// scanUnfinished is Unfinished, reading every sequence and character.
func scanUnfinished(s string) int {
	for i := 0; i < len(s); {
		if i+8 <= len(s) && plain8(s[i:i+8]) {
			i += 8
			continue
		}
		c := s[i]
		if c != 0x1b && c < 0x80 {
			i++
			continue
		}
		end, done := sequenceAt(s, i)
		if !done {
			return i
		}
		i = end
	}
	return len(s)
}

// openCharacter is where a UTF-8 character that s's end cuts starts (a
// lead byte with fewer continuation bytes after it than it needs), or
// len(s).
func openCharacter(s string) int {
	for k := len(s) - 1; k >= 0 && k >= len(s)-3; k-- {
		c := s[k]
		if c&0xc0 == 0x80 {
			continue // a continuation: its lead is further back
		}
		if c >= 0xc2 && c <= 0xf4 && k+utf8.RuneLen(leadRune(c)) > len(s) {
			return k
		}
		break
	}
	return len(s)
}

// plain8 reports whether the 8 bytes of s are ASCII without an ESC,
// eight at a time: a long line is mostly such.
func plain8(s string) bool {
	const ones, highs, escs = 0x0101010101010101, 0x8080808080808080, 0x1b1b1b1b1b1b1b1b
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	x := w ^ escs // a zero byte where w has an ESC
	return w&highs == 0 && (x-ones)&^x&highs == 0
}

// sequenceAt reads the escape sequence or non-ASCII character at s[i]
// and returns where it ends and whether it was done within s.
func sequenceAt(s string, i int) (end int, done bool) {
	c := s[i]
	switch {
	case c == 0x1b:
		return escapeAt(s, i+1)
	case c <= 0x9f: // raw 8-bit C1
		return c1At(s, i+1, c)
	case c < 0xc2 || c > 0xf4: // a continuation byte on its own, or never UTF-8
		return i + 1, true
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		if i+utf8.RuneLen(leadRune(c)) > len(s) && continues(s[i+1:]) {
			return len(s), false // its last bytes are still to come
		}
		return i + 1, true
	}
	if r <= 0x9f {
		return c1At(s, i+size, byte(r)) // C1 encoded as UTF-8
	}
	return i + size, true
}

// leadRune is a rune whose UTF-8 encoding starts with lead byte c, for
// its length.
func leadRune(c byte) rune {
	switch {
	case c < 0xe0:
		return 0x80
	case c < 0xf0:
		return 0x800
	}
	return 0x10000
}

// continues reports whether every byte of s is a UTF-8 continuation byte.
func continues(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i]&0xc0 != 0x80 {
			return false
		}
	}
	return true
}

// escapeAt reads an escape sequence whose ESC ended at s[j], as
// skipEscape does.
func escapeAt(s string, j int) (int, bool) {
	if j >= len(s) {
		return j, false
	}
	switch c := s[j]; {
	case c == '[':
		return csiAt(s, j+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return stringAt(s, j+1)
	case c >= 0x20 && c <= 0x2f:
		k := j
		for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
			k++
		}
		if k >= len(s) {
			return k, false
		}
		if s[k] >= 0x30 && s[k] <= 0x7e {
			k++
		}
		return k, true
	case c >= 0x30 && c <= 0x7e:
		return j + 1, true
	}
	return j, true
}

// c1At reads what C1 control c, whose encoding ended at s[k],
// introduces, as c1Token does.
func c1At(s string, k int, c byte) (int, bool) {
	switch c {
	case 0x9b:
		return csiAt(s, k)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f:
		return stringAt(s, k)
	}
	return k, true
}

// csiAt reads a control sequence whose parameters start at s[k], as
// skipCSI does.
func csiAt(s string, k int) (int, bool) {
	for k < len(s) && s[k] >= 0x30 && s[k] <= 0x3f {
		k++
	}
	for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
		k++
	}
	if k >= len(s) {
		return k, false
	}
	if s[k] >= 0x40 && s[k] <= 0x7e {
		return k + 1, true
	}
	return k, true
}

// stringAt reads a control string whose body starts at s[k] through its
// terminator, as skipString does.
func stringAt(s string, k int) (int, bool) {
	for ; k < len(s); k++ {
		switch s[k] {
		case 0x07, 0x9c:
			return k + 1, true
		case 0x1b:
			if k+1 < len(s) && s[k+1] == '\\' {
				return k + 2, true
			}
		case 0xc2:
			if k+1 < len(s) && s[k+1] == 0x9c {
				return k + 2, true
			}
		}
	}
	return k, false
}

// Pen is the colours (SGR sequences) in effect after s: those since the
// last reset, as a terminal's line editor keeps them (at most maxPen
// bytes: past that, folded into one, addPen), or "" when they leave none
// (each closed by its own code, as chalk writes "\e[31mx\e[39m"). Written
// before more text, it draws that text as it would be drawn after s.
//
// It reads s once, its escape sequences only, and allocates nothing but
// the pen it returns: colours that leave none cost no allocation.
func Pen(s string) string {
	i := strings.IndexByte(s, 0x1b)
	if i < 0 {
		return "" // most lines (a "\r" flood's frames): one quick look
	}
	from := -1 // the first SGR sequence since the last reset
	var st penState
	followed := true // st is what they set (else one it does not follow)
	for {
		end, sgr := skipEscape(s, i)
		switch {
		case !sgr && IsPenReset(s[i:end]):
			from, st, followed = -1, penState{}, true
		case !sgr:
		case s[i:end] == "\x1b[m" || s[i:end] == "\x1b[0m":
			from, st, followed = -1, penState{}, true
		default:
			if from < 0 {
				from = i
			}
			followed = followed && st.apply(s[i+2:end-1])
		}
		next := strings.IndexByte(s[end:], 0x1b)
		if next < 0 {
			break
		}
		i = end + next
	}
	if from < 0 || followed && st == (penState{}) {
		return ""
	}
	if followed {
		// The one sequence that sets the same state: a pen carried from
		// line to line stays as short as what it sets, "\e[31m" however
		// many lines each set red again.
		if pen := st.String(); len(pen) <= maxPen {
			return pen
		}
	}
	pen := ""
	for i := from; i >= 0; {
		end, sgr := skipEscape(s, i)
		if sgr {
			pen = addPen(pen, s[i:end])
		}
		next := strings.IndexByte(s[end:], 0x1b)
		if next < 0 {
			break
		}
		i = end + next
	}
	return pen
}
