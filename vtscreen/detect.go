package vtscreen

import (
	"bytes"
	"slices"
)

// Event is what a Detector saw in a PTY byte stream.
type Event int

// The events a Detector reports.
const (
	// None: nothing that changes how the stream is shown.
	None Event = iota
	// EnterAlt: the program took the alternate screen (?1049h, ?1047h,
	// ?47h): from here on it draws a screen, not lines.
	EnterAlt
	// LeaveAlt: the program gave the alternate screen back (the same
	// modes reset, or a full reset ESC c while on it).
	LeaveAlt
	// CursorAddressed: outside the alternate screen, the program moved
	// the cursor to an absolute position other than home (CUP/HVP), or
	// home and then drew (text, or any sequence but a clear): a
	// full-screen program that skips the alternate screen, or a loop
	// redrawing its lines from home. Reported each time; the caller
	// decides. After home, the bytes ending in the event do not hold the
	// home: it ended the CursorHome before.
	CursorAddressed
	// CursorUp: outside the alternate screen, the program moved the
	// cursor up (CUU, CPL) to draw over lines it wrote: an inline TUI or
	// a multi-line progress display (Ink, as in Claude Code; rich;
	// indicatif; docker's) redrawing its frame. Lines cannot show that:
	// each frame would read as more lines. Reported each time.
	CursorUp
	// CursorHome: outside the alternate screen, the program moved the
	// cursor home (CUP to the top left). Not addressing on its own (a
	// clear starts so): what comes next tells (CursorAddressed, Cleared).
	CursorHome
	// Cleared: outside the alternate screen, the program erased the
	// whole display (ED 2: clear, tput clear, ctrl+l at a shell's
	// prompt) or reset the terminal (ESC c). Not a full-screen program:
	// what follows is lines again.
	Cleared
	// CursorQuery, StatusQuery, AttributesQuery, VersionQuery: the
	// program asked the terminal where the cursor is (DSR 6), whether it
	// is well (DSR 5), what it is (DA1) or which version it is (DA2), and
	// waits for the answer. Reported on either screen: a terminal
	// emulator answers them, and in line mode the caller must.
	CursorQuery
	StatusQuery
	AttributesQuery
	VersionQuery
)

// maxParams bounds the parameter bytes a Detector keeps of one control
// sequence; longer ones are not mode changes it cares about.
const maxParams = 32

// Detector scans a PTY's output for the alternate screen and the input
// modes, across read boundaries, at the cost of a byte search for ESC in
// plain text. The zero value is ready: a stream on the main screen with
// no modes set. It is not safe for concurrent use.
type Detector struct {
	state  uint8 // ground, escape, csi, str, strEsc, escFinal
	params [maxParams]byte
	n      int
	long   bool
	alt    bool
	modes  InputModes
	hidden bool // the cursor is hidden (?25l)
	home   bool // the cursor went home, and no other sequence came yet
	// blank: the program cleared the screen and wrote no text since, so
	// a home there is no addressing: what it writes from there is lines
	// from the top (a dev server's "ESC[2J ESC[3J ESC[H", then its log).
	blank bool
	dcs   bool // the string being skipped is a DCS
	// fromHome: the last CursorAddressed was drawing after a home, which
	// came in an earlier part (FromHome).
	fromHome bool
}

const (
	ground uint8 = iota
	escape
	csi
	str      // an OSC, DCS, APC, PM or SOS string: up to BEL or ST
	strEsc   // an ESC in a string: ST, the string's own, or a new sequence
	escFinal // ESC and intermediates (a charset's ESC ( B): up to the final byte
)

// Alt reports whether the stream is on the alternate screen.
func (d *Detector) Alt() bool { return d.alt }

// Modes returns the input modes the stream has set so far.
func (d *Detector) Modes() InputModes { return d.modes }

// CursorHidden reports whether the stream hid the cursor (ESC[?25l) and
// has not shown it again (ESC[?25h, or a reset).
func (d *Detector) CursorHidden() bool { return d.hidden }

// Homed reports whether the cursor went home and what came since (only
// controls and modes) has not yet told whether the program draws from
// there.
func (d *Detector) Homed() bool { return d.home }

// FromHome reports whether the last CursorAddressed was the program
// drawing after a home: the home ended an earlier part, with its
// CursorHome, and the parts since moved the cursor only.
func (d *Detector) FromHome() bool { return d.fromHome }

// Next scans p up to and including the first sequence that is an Event
// other than None, and returns how many bytes it consumed and the event.
// With no event in p it consumes all of p and returns None. Callers loop:
//
//	for len(p) > 0 {
//		n, ev := d.Next(p)
//		handle(p[:n], ev) // p[:n] ends with the sequence that caused ev
//		p = p[n:]
//	}
func (d *Detector) Next(p []byte) (int, Event) {
	for i := 0; i < len(p); i++ {
		switch d.state {
		case ground:
			if d.blank {
				// Text after a clear ends the blank; scanned only then.
				j := bytes.IndexByte(p[i:], 0x1b)
				if j < 0 {
					j = len(p) - i
				}
				if printable(p[i : i+j]) {
					d.blank = false
				}
			}
			if d.home {
				// Home, then text: drawn at the top left, over what is
				// there (a loop redrawing its lines from home). Controls
				// (a newline, a return) only move the cursor.
				if drawn(p[i]) {
					d.home, d.fromHome = false, true
					return i + 1, CursorAddressed
				}
				if p[i] != 0x1b {
					continue
				}
			}
			j := bytes.IndexByte(p[i:], 0x1b)
			if j < 0 {
				return len(p), None
			}
			i += j
			d.state = escape
		case escape:
			switch b := p[i]; b {
			case '[':
				d.state, d.n, d.long = csi, 0, false
			case 0x1b:
				// ESC ESC: the second one starts afresh.
			case 'c':
				d.state, d.blank, d.home, d.modes, d.hidden = ground, true, false, InputModes{}, false // a reset clears the screen
				if d.alt {
					d.alt = false
					return i + 1, LeaveAlt
				}
				d.fromHome = false
				return i + 1, Cleared
			case ']', 'P', '_', '^', 'X':
				d.state, d.dcs = str, b == 'P' // its text is no text on the screen
			default:
				if b >= 0x20 && b <= 0x2f {
					d.state = escFinal
				} else {
					d.state = ground
				}
			}
		case str:
			j := bytes.IndexAny(p[i:], "\x07\x1b\x18\x1a")
			if j < 0 {
				return len(p), None
			}
			i += j
			if p[i] == 0x1b {
				d.state = strEsc
			} else {
				d.state = ground
			}
		case strEsc:
			// As tmux reads strings: only ST ends a DCS (its passthrough
			// doubles the ESCs it carries); any other ESC ends an OSC, APC,
			// PM or SOS string and starts a sequence.
			switch b := p[i]; {
			case b == '\\':
				d.state = ground // ST
			case d.dcs && b == 0x1b:
				// perhaps ST's ESC
			case d.dcs:
				d.state = str
			default:
				d.state = escape
				i--
			}
		case escFinal:
			switch b := p[i]; {
			case b == 0x1b:
				d.state = escape
			case b < 0x20 || b > 0x2f:
				d.state = ground
			}
		case csi:
			b := p[i]
			switch {
			case b >= 0x40 && b <= 0x7e:
				d.state = ground
				if ev := d.finish(b); ev != None {
					return i + 1, ev
				}
			case b >= 0x20 && b <= 0x3f:
				if d.n < maxParams {
					d.params[d.n] = b
					d.n++
				} else {
					d.long = true
				}
			case b == 0x1b:
				d.state = escape
			case b == 0x18 || b == 0x1a:
				d.state = ground // CAN, SUB abort the sequence
			}
		}
	}
	return len(p), None
}

// finish acts on a complete CSI sequence with final byte f.
func (d *Detector) finish(f byte) Event {
	if d.long {
		return None
	}
	par := d.params[:d.n]
	switch {
	case (f == 'h' || f == 'l') && len(par) > 0 && par[0] == '?':
		on := f == 'h'
		ev := None
		for _, n := range numbers(par[1:]) {
			d.modes.SetDEC(n, on)
			if n == 25 {
				d.hidden = !on
			}
			if n == 1049 || n == 1047 || n == 47 {
				if on && !d.alt {
					d.alt, ev, d.home = true, EnterAlt, false // another screen: no drawing from that home
				} else if !on && d.alt {
					d.alt, ev, d.blank = false, LeaveAlt, false // the main screen is back
				}
			}
		}
		return ev
	case f == 'n' && string(par) == "6":
		return CursorQuery
	case f == 'n' && string(par) == "5":
		return StatusQuery
	case f == 'c' && (len(par) == 0 || string(par) == "0"):
		return AttributesQuery
	case f == 'c' && (string(par) == ">" || string(par) == ">0"):
		return VersionQuery
	case d.alt:
		return None
	}
	// Home then a clear is a clear (clear, ctrl+l; busybox's clear is
	// ESC[H ESC[J); home then anything else draws from the top left: a
	// full-screen program that skips the alternate screen (procps top
	// redraws its frames so).
	wasHome := d.home
	d.home, d.fromHome = false, false
	switch {
	case (f == 'H' || f == 'f') && (len(par) == 0 || home(par)):
		d.home = !d.blank
		return CursorHome
	case f == 'H' || f == 'f':
		return CursorAddressed
	case f == 'A' || f == 'F':
		return CursorUp
	case f == 'J' && (string(par) == "2" || wasHome && (len(par) == 0 || string(par) == "0")):
		d.blank = true
		return Cleared
	case wasHome:
		d.fromHome = true
		return CursorAddressed
	}
	return None
}

// home reports whether CUP parameters name the top left cell ("1;1",
// "1", ";", "0;0"...): where clear puts the cursor, no addressing.
func home(par []byte) bool {
	for _, n := range numbers(par) {
		if n > 1 {
			return false
		}
	}
	return len(numbers(par)) > 0
}

// numbers parses "1;1049;25" into its numbers; an empty field is 0 and
// anything not a digit or ';' makes the whole list empty.
func numbers(p []byte) []int {
	var out []int
	n := 0
	for _, b := range p {
		switch {
		case b >= '0' && b <= '9':
			n = n*10 + int(b-'0')
			if n > 1<<20 {
				return nil
			}
		case b == ';':
			out = append(out, n)
			n = 0
		default:
			return nil
		}
	}
	return append(out, n)
}

// printable reports whether p holds a character a terminal would draw.
func printable(p []byte) bool { return slices.ContainsFunc(p, drawn) }

// drawn reports whether b is (a part of) a character a terminal draws:
// no control.
func drawn(b byte) bool { return b >= 0x20 && b != 0x7f }
