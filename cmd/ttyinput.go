package cmd

import (
	"os"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
)

// runeSafeInput is the terminal the TUI reads keys from, read so that no
// read ends inside a UTF-8 character. Bubble Tea v1 reads 256 bytes at a
// time and drops a character split across two reads (as two invalid
// bytes), so a fast paste without bracketed paste (tmux paste-buffer,
// xdotool, an ssh link) lost every é, 日 or 👍 that straddled a 256-byte
// boundary. The bytes of an unfinished character wait for the next read.
// It is still the *os.File (Fd, Write, Close), so Bubble Tea puts the
// terminal in raw mode and can cancel a read.
type runeSafeInput struct {
	*os.File
	held []byte // the start of a character the last read cut
}

// Read reads from the terminal, keeping back an unfinished character at
// the end for the next read.
func (r *runeSafeInput) Read(p []byte) (int, error) {
	if len(p) <= utf8.UTFMax {
		return r.File.Read(p)
	}
	n := copy(p, r.held)
	r.held = r.held[:0]
	m, err := r.File.Read(p[n:])
	n += m
	if cut := unfinishedRune(p[:n]); cut > 0 && err == nil {
		r.held = append(r.held, p[n-cut:n]...)
		n -= cut // 0 is fine: Bubble Tea reads again
	}
	return n, err
}

// unfinishedRune is how many bytes at the end of b begin a UTF-8
// character that b does not finish; 0 when b ends on a character's end
// (or with bytes no more input could make valid).
func unfinishedRune(b []byte) int {
	for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
		c := b[len(b)-k]
		if utf8.RuneStart(c) {
			if c >= utf8.RuneSelf && !utf8.FullRune(b[len(b)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

// inputOption is the TUI's input: the terminal on stdin (or /dev/tty when
// stdin is not one, as Bubble Tea would open), read by runeSafeInput;
// done closes what it opened. Without a terminal it leaves the choice to
// Bubble Tea.
func inputOption() (opts []tea.ProgramOption, done func()) {
	f := os.Stdin
	done = func() {}
	if !term.IsTerminal(f.Fd()) {
		tty, err := os.Open("/dev/tty")
		if err != nil {
			return nil, done
		}
		f, done = tty, func() { tty.Close() }
	}
	return []tea.ProgramOption{tea.WithInput(&runeSafeInput{File: f})}, done
}
