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
	designation, _ := ScanEscapes(p)
	return c.TranslateScanned(p, designation)
}

// TranslateScanned is Translate of p whose first designation of line
// drawing ScanEscapes found (-1: none), for a caller that scans p for
// its other sequences too.
func (c *Charsets) TranslateScanned(p []byte, designation int) []byte {
	if len(p) == 0 || !c.idle() {
		return c.translate(p, 0)
	}
	// Only a designation of line drawing changes anything: ESC ( 0 or
	// ESC ) 0, or the start of one at the piece's end.
	if c.state == csEsc && (p[0] == '(' || p[0] == ')') { // ESC ended the piece before
		switch {
		case len(p) == 1:
			c.state, c.inter = csEscInter, p[0]
			return p
		case p[1] == '0':
			return c.translate(p, 0)
		}
	}
	c.state = csGround
	if designation >= 0 {
		return c.translate(p, designation)
	}
	switch n := len(p); {
	case p[n-1] == 0x1b:
		c.state = csEsc
	case n >= 2 && p[n-2] == 0x1b && (p[n-1] == '(' || p[n-1] == ')'):
		c.state, c.inter = csEscInter, p[n-1]
	}
	return p
}

// ScanEscapes goes once through p's escape sequences for what line mode
// looks for in output: the index of the first designation of line
// drawing (ESC ( 0, ESC ) 0; -1 for none: Charsets), and whether one
// is a cursor edit (HasCursorEdits's sequences; its backspaces are
// not looked for).
func ScanEscapes(p []byte) (designation int, edits bool) {
	designation = -1
	for i := bytes.IndexByte(p, 0x1b); i >= 0 && i+1 < len(p); {
		switch b := p[i+1]; b {
		case '(', ')':
			if designation < 0 && i+2 < len(p) && p[i+2] == '0' {
				designation = i
			}
		case '7', '8':
			edits = true
		case '[':
			k := i + 2
			for k < len(p) && (p[k] >= '0' && p[k] <= '9' || p[k] == ';') {
				k++
			}
			if k < len(p) {
				switch p[k] {
				case 'C', 'D', 'G', 'K', 'P', '@', 'X', 's', 'u':
					edits = true
				}
			}
			i = k - 1 // what follows its parameters
		}
		if edits && designation >= 0 {
			break
		}
		next := bytes.IndexByte(p[i+1:], 0x1b)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return designation, edits
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
