package jobs

import (
	"bytes"
	"os"
	"sync"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// lineKeys are what a terminal's settings make of typed bytes while it
// edits a line (canonical mode): its erase, word erase, kill, end-of-file,
// end-of-line and literal-next keys, and the signal keys that flush it.
type lineKeys struct {
	canonical, signals, extended, utf8, crToNL, ignoreCR bool

	erase, wordErase, kill, eof, eol, eol2, next, intr, quit, susp byte
}

// terminalKeys reads a terminal's line keys; the zero lineKeys (not
// canonical) when it cannot.
func terminalKeys(term *os.File) lineKeys {
	var k lineKeys
	rc, err := term.SyscallConn()
	if err != nil {
		return k
	}
	rc.Control(func(fd uintptr) { //nolint:errcheck // the zero lineKeys on error
		t, err := unix.IoctlGetTermios(int(fd), ioctlReadTermios)
		if err != nil {
			return
		}
		k = lineKeys{
			canonical: t.Lflag&unix.ICANON != 0, signals: t.Lflag&unix.ISIG != 0,
			extended: t.Lflag&unix.IEXTEN != 0, utf8: utf8Input != 0 && t.Iflag&utf8Input != 0,
			crToNL: t.Iflag&unix.ICRNL != 0, ignoreCR: t.Iflag&unix.IGNCR != 0,
			erase: t.Cc[unix.VERASE], wordErase: t.Cc[unix.VWERASE], kill: t.Cc[unix.VKILL],
			eof: t.Cc[unix.VEOF], eol: t.Cc[unix.VEOL], eol2: t.Cc[unix.VEOL2], next: t.Cc[unix.VLNEXT],
			intr: t.Cc[unix.VINTR], quit: t.Cc[unix.VQUIT], susp: t.Cc[unix.VSUSP],
		}
	})
	return k
}

// is reports whether c is the key k (a key set to 0 or 0xff is off).
func is(c, k byte) bool { return c == k && k != 0 && k != 0xff }

// typedLine follows the line typed into a terminal and not yet ended, as
// the terminal edits it, so that an end of input is sent as the terminal
// needs it (see midLine).
type typedLine struct {
	mu      sync.Mutex
	line    []byte // at most a terminal's line: 4 KiB
	literal bool   // the last byte typed was the literal-next key
	dropped int    // bytes a full line did not take (overflow's count)
}

// maxTypedLine is the most a canonical terminal keeps of a line.
const maxTypedLine = 4 << 10

// add follows b typed into a terminal with keys k. Outside canonical
// mode the program reads bytes as they come: no line is left behind.
func (t *typedLine) add(b []byte, k lineKeys) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !k.canonical {
		t.line, t.literal = t.line[:0], false
		return
	}
	for _, c := range b {
		switch {
		case t.literal:
			t.literal = false
			t.keep(c)
		case k.extended && is(c, k.next):
			t.literal = true
		case c == '\r' && k.ignoreCR:
		case c == '\n' || c == '\r' && k.crToNL || is(c, k.eol) || is(c, k.eol2) || is(c, k.eof):
			t.line = t.line[:0] // ended, or handed over
		case k.signals && (is(c, k.intr) || is(c, k.quit) || is(c, k.susp)):
			t.line = t.line[:0] // flushed
		case is(c, k.erase):
			t.eraseChar(k.utf8)
		case k.extended && is(c, k.wordErase):
			t.eraseWord()
		case is(c, k.kill):
			t.line = t.line[:0]
		default:
			t.keep(c)
		}
	}
}

func (t *typedLine) keep(c byte) {
	if len(t.line) < maxTypedLine {
		t.line = append(t.line, c)
	}
	if canonicalLineMax > 0 && len(t.line) > canonicalLineMax {
		t.line = t.line[:canonicalLineMax]
		t.dropped++
	}
}

// overflow reports whether typing b with keys k would leave a line
// longer than a canonical terminal keeps: the terminal would drop its
// end, and the program read it cut.
func (t *typedLine) overflow(b []byte, k lineKeys) bool {
	t.mu.Lock()
	trial := &typedLine{line: bytes.Clone(t.line), literal: t.literal}
	t.mu.Unlock()
	trial.add(b, k)
	return trial.dropped > 0
}

// eraseWord erases a word as the system's terminals do: on Linux the
// characters back to the last letter, digit or "_", then those back to
// the next other one; elsewhere the blanks, then the rest back to the
// next blank.
func (t *typedLine) eraseWord() {
	if !alnumWords {
		t.line = bytes.TrimRight(t.line, " \t")
		t.line = t.line[:bytes.LastIndexAny(t.line, " \t")+1]
		return
	}
	seen := false
	for len(t.line) > 0 {
		c := t.line[len(t.line)-1]
		word := c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
		if !word && seen {
			return
		}
		seen = seen || word
		t.line = t.line[:len(t.line)-1]
	}
}

// eraseChar erases the last character: with utf8, all its bytes.
func (t *typedLine) eraseChar(utf8Chars bool) {
	if len(t.line) == 0 {
		return
	}
	n := 1
	if utf8Chars {
		_, n = utf8.DecodeLastRune(t.line)
	}
	t.line = t.line[:len(t.line)-n]
}

// pending reports whether a line was typed and not ended.
func (t *typedLine) pending() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.line) > 0
}
