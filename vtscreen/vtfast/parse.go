package vtfast

import (
	"strconv"
	"unicode/utf8"
)

// maxParams bounds a control sequence's parameters; those past it are
// ignored.
const maxParams = 32

// maxRepeat bounds REP, which a program could ask for a billion of.
const maxRepeat = 1 << 16

// The parser's states, after ECMA-48 and the DEC parser.
const (
	stGround    uint8 = iota
	stEscape          // after ESC
	stEscInter        // after ESC and an intermediate byte: ESC ( 0
	stCSI             // after ESC [
	stOSC             // in an operating system command, up to BEL or ST
	stString          // in a DCS, SOS, PM or APC string, up to ST
	stStringEsc       // ESC inside a string: ST if '\' follows
)

// parser is the state of the byte state machine between writes.
type parser struct {
	state   uint8
	osc     bool // the string in stStringEsc is an OSC
	params  [maxParams]int32
	nparams int
	colon   uint32 // bit i: parameter i is followed by ':'
	private byte   // '?', '>', '<' or '=' before the parameters
	inter   byte   // the intermediate byte, if any
	bad     bool   // the sequence is malformed or too long: ignore it
	pend    [utf8.UTFMax]byte
	npend   int // bytes of a character split across writes
}

// write runs p through the state machine. Printable ASCII in the ground
// state, nearly all of a full-screen program's output, goes to the row in
// runs.
func (t *term) write(p []byte) {
	for i := 0; i < len(p); {
		if t.state != stGround {
			t.step(p[i])
			i++
			continue
		}
		if t.npend > 0 {
			i = t.finishRune(p, i)
			continue
		}
		b := p[i]
		switch {
		case b >= 0x20 && b < 0x7f:
			j := i + 1
			for j < len(p) && p[j] >= 0x20 && p[j] < 0x7f {
				j++
			}
			t.printASCII(p[i:j])
			i = j
		case b >= 0x80:
			if !utf8.FullRune(p[i:]) {
				t.npend = copy(t.pend[:], p[i:])
				return
			}
			r, n := utf8.DecodeRune(p[i:])
			t.printChar(r)
			i += n
		default:
			t.execute(b)
			i++
		}
	}
}

// finishRune adds bytes from p[i:] to a character begun in an earlier
// write and prints it once whole; it returns where it stopped in p.
func (t *term) finishRune(p []byte, i int) int {
	for i < len(p) && !utf8.FullRune(t.pend[:t.npend]) {
		t.pend[t.npend] = p[i]
		t.npend++
		i++
	}
	if !utf8.FullRune(t.pend[:t.npend]) {
		return i
	}
	r, n := utf8.DecodeRune(t.pend[:t.npend])
	if n < t.npend {
		// The last byte broke the character: print U+FFFD for what came
		// before and read the byte afresh.
		i--
	}
	t.npend = 0
	t.printChar(r)
	return i
}

// printChar prints a decoded character; C1 controls are dropped.
func (t *term) printChar(r rune) {
	if r >= 0x80 && r < 0xa0 {
		return
	}
	t.printRune(r)
}

// execute runs a C0 control.
func (t *term) execute(b byte) {
	switch b {
	case 0x08: // BS
		if t.x > 0 {
			t.x--
		}
		t.wrapNext = false
	case 0x09: // HT
		t.tab(1)
	case 0x0a, 0x0b, 0x0c: // LF, VT, FF
		t.index()
	case 0x0d: // CR
		t.x, t.wrapNext = 0, false
	case 0x0e: // SO
		t.shift = 1
	case 0x0f: // SI
		t.shift = 0
	case 0x18, 0x1a: // CAN, SUB
		t.state = stGround
	case 0x1b:
		t.state, t.inter = stEscape, 0
	}
}

// step runs one byte in any state but ground.
func (t *term) step(b byte) {
	if b < 0x20 && t.state != stOSC && t.state != stString && t.state != stStringEsc {
		t.execute(b) // controls act inside escape sequences too
		return
	}
	switch t.state {
	case stEscape:
		switch {
		case b == '[':
			t.state, t.nparams, t.colon, t.private, t.inter, t.bad = stCSI, 0, 0, 0, 0, false
			t.params[0] = 0
		case b == ']':
			t.state = stOSC
		case b == 'P' || b == 'X' || b == '^' || b == '_':
			t.state = stString
		case b >= 0x20 && b <= 0x2f:
			t.state, t.inter = stEscInter, b
		case b >= 0x30 && b <= 0x7e:
			t.state = stGround
			t.escDispatch(b)
		default:
			t.state = stGround
		}
	case stEscInter:
		switch {
		case b >= 0x20 && b <= 0x2f:
			t.inter = b
		case b >= 0x30 && b <= 0x7e:
			t.state = stGround
			t.escInterDispatch(t.inter, b)
		default:
			t.state = stGround
		}
	case stCSI:
		t.csiByte(b)
	case stOSC, stString:
		switch b {
		case 0x07:
			if t.state == stOSC {
				t.state = stGround
			}
		case 0x18, 0x1a:
			t.state = stGround
		case 0x1b:
			t.osc = t.state == stOSC
			t.state = stStringEsc
		}
	case stStringEsc:
		if b == '\\' {
			t.state = stGround
			return
		}
		// Any other escape ends the string and is itself read.
		t.state, t.inter = stEscape, 0
		t.step(b)
	}
}

// csiByte takes one byte of a control sequence's parameters, intermediates
// or final byte.
func (t *term) csiByte(b byte) {
	switch {
	case b >= '0' && b <= '9':
		if t.inter != 0 {
			t.bad = true
			return
		}
		if t.nparams == 0 {
			t.nparams = 1
		}
		if t.nparams > maxParams {
			return
		}
		p := &t.params[t.nparams-1]
		if *p < 1<<16 {
			*p = *p*10 + int32(b-'0')
		}
	case b == ';' || b == ':':
		if t.inter != 0 {
			t.bad = true
			return
		}
		if t.nparams == 0 {
			t.nparams = 1
		}
		if t.nparams == maxParams {
			t.nparams++ // past the last: the rest is ignored
			return
		}
		if t.nparams > maxParams {
			return
		}
		if b == ':' {
			t.colon |= 1 << (t.nparams - 1)
		}
		t.params[t.nparams] = 0
		t.nparams++
	case b >= 0x3c && b <= 0x3f:
		if t.nparams > 0 || t.private != 0 || t.inter != 0 {
			t.bad = true
			return
		}
		t.private = b
	case b >= 0x20 && b <= 0x2f:
		t.inter = b
	case b >= 0x40 && b <= 0x7e:
		t.state = stGround
		if !t.bad {
			t.nparams = min(t.nparams, maxParams)
			t.csiDispatch(b)
		}
	case b >= 0x80:
		t.state = stGround
	}
}

// param returns parameter i, or def when it is missing or 0.
func (t *term) param(i int, def int) int {
	if i < t.nparams && t.params[i] != 0 {
		return int(t.params[i])
	}
	return def
}

// escDispatch runs ESC b.
func (t *term) escDispatch(b byte) {
	switch b {
	case '7':
		t.save()
	case '8':
		t.restore()
	case 'D':
		t.index()
	case 'E':
		t.x, t.wrapNext = 0, false
		t.index()
	case 'M':
		t.reverseIndex()
	case 'H':
		t.tabs[t.x] = true
	case 'c':
		t.reset()
	}
}

// escInterDispatch runs ESC inter b: charset designation, DECALN.
func (t *term) escInterDispatch(inter, b byte) {
	switch inter {
	case '(':
		t.charsets[0] = b == '0'
	case ')':
		t.charsets[1] = b == '0'
	case '#':
		if b == '8' { // DECALN: the screen full of E
			for y := range t.rows {
				l := t.line(y)
				for x := range l.cells {
					l.cells[x] = cell{r: 'E', w: 1}
				}
			}
			t.setCursor(0, 0)
		}
	}
}

// csiDispatch runs a complete control sequence with final byte f.
func (t *term) csiDispatch(f byte) {
	switch t.private {
	case 0:
	case '?':
		switch f {
		case 'h', 'l':
			for i := range max(t.nparams, 1) {
				t.decMode(int(t.params[i]), f == 'h')
			}
		case 'J':
			t.eraseDisplay(t.param(0, 0))
		case 'K':
			t.eraseLine(t.param(0, 0))
		case 'n':
			if t.param(0, 0) == 6 {
				t.answer('?', t.reportRow(), t.x+1, 'R')
			}
		}
		return
	case '>':
		if f == 'c' && t.param(0, 0) == 0 {
			t.sendReply([]byte("\x1b[>1;10;0c"))
		}
		return
	default:
		return
	}
	if t.inter != 0 {
		if t.inter == '!' && f == 'p' {
			t.softReset()
		}
		return
	}
	n := t.param(0, 1)
	switch f {
	case '@': // ICH
		t.insertBlanks(n)
	case 'A': // CUU
		t.moveUp(n)
	case 'B', 'e': // CUD, VPR
		t.moveDown(n)
	case 'C', 'a': // CUF, HPR
		t.setCursor(t.x+n, t.y)
	case 'D': // CUB
		t.setCursor(t.x-n, t.y)
	case 'E': // CNL
		t.moveDown(n)
		t.x = 0
	case 'F': // CPL
		t.moveUp(n)
		t.x = 0
	case 'G', '`': // CHA, HPA
		t.setCursor(n-1, t.y)
	case 'H', 'f': // CUP, HVP
		t.moveTo(t.param(1, 1)-1, n-1)
	case 'I': // CHT
		t.tab(n)
	case 'Z': // CBT
		t.tab(-n)
	case 'J': // ED
		t.eraseDisplay(t.param(0, 0))
	case 'K': // EL
		t.eraseLine(t.param(0, 0))
	case 'L': // IL
		if t.y >= t.top && t.y <= t.bot {
			t.scrollDown(t.y, t.bot, n)
			t.x, t.wrapNext = 0, false
		}
	case 'M': // DL
		if t.y >= t.top && t.y <= t.bot {
			t.scrollUp(t.y, t.bot, n)
			t.x, t.wrapNext = 0, false
		}
	case 'P': // DCH
		t.deleteChars(n)
	case 'S': // SU
		t.scrollOff(n)
	case 'T': // SD; with more parameters it is mouse highlighting
		if t.nparams <= 1 {
			t.scrollDown(t.top, t.bot, n)
		}
	case 'X': // ECH
		t.erase(t.y, t.x, t.x+n)
		t.wrapNext = false
	case 'b': // REP
		if t.last != 0 {
			for range min(n, maxRepeat, t.cols*t.rows) {
				t.printRune(t.last)
			}
		}
	case 'c': // DA1
		if t.param(0, 0) == 0 {
			t.sendReply([]byte("\x1b[?62;1;6;22c"))
		}
	case 'd': // VPA
		if t.origin {
			t.moveTo(t.x, n-1)
		} else {
			t.setCursor(t.x, n-1)
		}
	case 'g': // TBC
		switch t.param(0, 0) {
		case 0:
			t.tabs[t.x] = false
		case 3:
			clear(t.tabs)
		}
	case 'h', 'l': // SM, RM: insert mode is the one that draws
		for i := range t.nparams {
			if t.params[i] == 4 {
				t.insert = f == 'h'
			}
		}
	case 'm':
		t.sgr()
	case 'n': // DSR
		switch t.param(0, 0) {
		case 5:
			t.sendReply([]byte("\x1b[0n"))
		case 6:
			t.answer(0, t.reportRow(), t.x+1, 'R')
		}
	case 'r': // DECSTBM
		top, bot := t.param(0, 1)-1, min(t.param(1, t.rows), t.rows)-1
		if top < bot {
			t.top, t.bot = top, bot
			t.moveTo(0, 0)
		}
	case 's': // SCOSC
		t.save()
	case 'u': // SCORC
		t.restore()
	}
}

// reportRow is the cursor's row in a position report, from 1 (from the
// scroll region's top in origin mode).
func (t *term) reportRow() int {
	if t.origin {
		return t.y - t.top + 1
	}
	return t.y + 1
}

// answer sends ESC [ private row ; col final.
func (t *term) answer(private byte, row, col int, final byte) {
	b := append(make([]byte, 0, 16), "\x1b["...)
	if private != 0 {
		b = append(b, private)
	}
	b = strconv.AppendInt(b, int64(row), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(col), 10)
	t.sendReply(append(b, final))
}

func (t *term) sendReply(b []byte) {
	if t.reply != nil {
		t.reply(b)
	}
}

// eraseDisplay is ED: 0 from the cursor on, 1 up to it, 2 all. 3 erases
// the scrollback: here only the rows a resize took (buffer.shrunk).
func (t *term) eraseDisplay(mode int) {
	switch mode {
	case 0:
		t.erase(t.y, t.x, t.cols)
		for y := t.y + 1; y < t.rows; y++ {
			t.erase(y, 0, t.cols)
		}
	case 1:
		for y := 0; y < t.y; y++ {
			t.erase(y, 0, t.cols)
		}
		t.erase(t.y, 0, t.x+1)
	case 2:
		for y := range t.rows {
			t.erase(y, 0, t.cols)
		}
		t.buf.shrunk = nil // a clear screen is all there is
	case 3: // the scrollback, which here is only the rows a resize took
		t.buf.shrunk = nil
		return
	default:
		return
	}
	t.wrapNext = false
}

// eraseLine is EL: 0 from the cursor on, 1 up to it, 2 all the row.
func (t *term) eraseLine(mode int) {
	switch mode {
	case 0:
		t.erase(t.y, t.x, t.cols)
	case 1:
		t.erase(t.y, 0, t.x+1)
	case 2:
		t.erase(t.y, 0, t.cols)
	default:
		return
	}
	t.wrapNext = false
}

// decMode sets or resets DEC private mode n.
func (t *term) decMode(n int, on bool) {
	t.modes.SetDEC(n, on)
	switch n {
	case 6:
		t.origin = on
		t.moveTo(0, 0)
	case 7:
		t.autowrap = on
	case 25:
		t.hidden = !on
	case 47:
		t.setAlt(on, false)
	case 1047:
		t.setAlt(on, true)
	case 1048:
		if on {
			t.save()
		} else {
			t.restore()
		}
	case 1049:
		if on {
			if !t.altOn {
				t.save()
				t.setAlt(true, true)
			}
		} else if t.altOn {
			t.setAlt(false, false)
			t.restore()
		}
	}
}

// softReset is DECSTR: modes and pen back to their defaults, the screen
// kept.
func (t *term) softReset() {
	t.pen, t.origin, t.insert, t.autowrap, t.hidden = style{}, false, false, true, false
	t.top, t.bot = 0, t.rows-1
	t.charsets, t.shift = [2]bool{}, 0
	t.modes.AppCursor = false
	t.saved, t.savedAlt = cursor{}, cursor{}
}
