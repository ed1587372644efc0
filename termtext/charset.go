package termtext

import "bytes"

// lineDrawing is the DEC Special Graphics set for '_' to '~', as
// jobtop's emulator (vtfast) draws it.
var lineDrawing = [...]string{
	" ", "◆", "▒", "␉", "␌", "␍", "␊", "°", "±", "␤", "␋", "┘", "┐", "┌", "└", "┼",
	"⎺", "⎻", "─", "⎼", "⎽", "├", "┤", "┴", "┬", "│", "⩽", "⩾", "π", "≠", "£", "·",
}

// The states of Charsets' scan of escape sequences.
const (
	csGround    = iota
	csEsc       // after ESC
	csEscInter  // after ESC and an intermediate byte ("(", ")", "#"...)
	csCSI       // in a control sequence
	csString    // in an OSC, DCS, APC, PM or SOS string
	csStringEsc // after ESC in a string: ST ("\") or a new sequence
)

// Charsets follows a terminal's character sets through output read in
// pieces, so that text drawn in the DEC Special Graphics set (line
// drawing) reads as the terminal draws it: "\e(0lqqk\e(B" is "┌──┐". ESC
// ( 0 and ESC ) 0 make the set G0 and G1, ESC ( B (or any other final)
// gives them back ASCII, SO and SI shift G1 and G0 in, a reset (ESC c)
// gives both back. The zero value is a terminal's state at its start.
//
// While no set is line drawing, only the designations are looked for
// (a shift out then goes unseen: it matters once G1 is line drawing, and
// a program designates G1 before it shifts to it).
type Charsets struct {
	g     [2]bool // G0, G1 are line drawing
	shift bool    // SO: G1 is in use
	state uint8
	inter byte // csEscInter's intermediate
}

// Plain reports whether no set is line drawing and no sequence is
// begun: output without ESC needs no Translate.
func (c *Charsets) Plain() bool { return !c.g[0] && !c.g[1] && c.state == csGround }

// idle reports whether no set is line drawing and no designation is
// under way: Translate then only looks for one.
func (c *Charsets) idle() bool {
	return !c.g[0] && !c.g[1] && (c.state == csGround || c.state == csEsc)
}

// Translate reads the next piece of output and returns it with the text
// drawn in line drawing as the characters a terminal draws for it, and
// SO and SI, which it carries out, left out; escape sequences (the
// designations too) are kept as they are. It returns p itself when no
// set is line drawing in it, else a copy.
func (c *Charsets) Translate(p []byte) []byte {
	if len(p) == 0 || !c.idle() {
		return c.translate(p, 0)
	}
	// Only a designation of line drawing changes anything: ESC ( 0 or
	// ESC ) 0, or the start of one at the piece's end. k is the index
	// after an ESC.
	pending := c.state == csEsc // ESC ended the piece before
	c.state = csGround
	k := -1
	if pending {
		k = 0
	} else if i := bytes.IndexByte(p, 0x1b); i >= 0 {
		k = i + 1
	}
	for k >= 0 {
		if k == len(p) {
			c.state = csEsc
			break
		}
		if b := p[k]; b == '(' || b == ')' {
			if k+1 == len(p) {
				c.state, c.inter = csEscInter, b
				break
			}
			if p[k+1] == '0' {
				if k == 0 { // after the piece before's ESC
					c.state = csEsc
					return c.translate(p, 0)
				}
				return c.translate(p, k-1) // from the ESC
			}
		}
		next := bytes.IndexByte(p[k:], 0x1b)
		if next < 0 {
			break
		}
		k += next + 1
	}
	return p
}

// translate is Translate's scan of p from from, which starts in c's
// state (p[:from] is kept as it is).
func (c *Charsets) translate(p []byte, from int) []byte {
	out := make([]byte, from, len(p)+len(p)/2)
	copy(out, p[:from])
	for _, b := range p[from:] {
		switch c.state {
		case csGround:
			switch {
			case b == 0x1b:
				c.state = csEsc
			case b == 0x0e:
				c.shift = true
				continue
			case b == 0x0f:
				c.shift = false
				continue
			case b >= '_' && b <= '~' && c.g[c.gl()]:
				out = append(out, lineDrawing[b-'_']...)
				continue
			}
		case csEsc:
			c.esc(b)
		case csEscInter:
			switch {
			case b >= 0x20 && b <= 0x2f:
			case b >= 0x30 && b <= 0x7e:
				if c.inter == '(' || c.inter == ')' {
					c.g[c.inter-'('] = b == '0'
				}
				c.state = csGround
			default:
				c.control(b)
			}
		case csCSI:
			switch {
			case b >= 0x40 && b <= 0x7e:
				c.state = csGround
			case b < 0x20:
				c.control(b)
			}
		case csString:
			switch b {
			case 0x07, 0x18, 0x1a:
				c.state = csGround
			case 0x1b:
				c.state = csStringEsc
			}
		case csStringEsc:
			if b == '\\' {
				c.state = csGround
			} else {
				c.esc(b) // the string ends, a sequence begins
			}
		}
		out = append(out, b)
	}
	return out
}

// gl is the set in use: 1 for G1 after SO.
func (c *Charsets) gl() int {
	if c.shift {
		return 1
	}
	return 0
}

// esc reads the byte after ESC.
func (c *Charsets) esc(b byte) {
	switch {
	case b == '[':
		c.state = csCSI
	case b == ']' || b == 'P' || b == '_' || b == '^' || b == 'X':
		c.state = csString
	case b >= 0x20 && b <= 0x2f:
		c.state, c.inter = csEscInter, b
	case b == 'c': // a reset
		c.g, c.shift, c.state = [2]bool{}, false, csGround
	case b >= 0x30 && b <= 0x7e:
		c.state = csGround
	default:
		c.control(b)
	}
}

// control is a control byte inside a sequence: ESC begins another, CAN
// and SUB cancel it, the rest leave it as it is.
func (c *Charsets) control(b byte) {
	switch b {
	case 0x1b:
		c.state = csEsc
	case 0x18, 0x1a:
		c.state = csGround
	}
}
