package vtfast

import "strconv"

// color is a packed colour: its kind in the top byte, its value below.
// The zero color is the terminal's default.
type color uint32

// The kinds of color.
const (
	colorBasic   color = 1 << 24 // one of the 16 ANSI colours (30-37, 90-97)
	colorIndexed color = 2 << 24 // one of the 256 (38;5;n)
	colorRGB     color = 3 << 24 // truecolor (38;2;r;g;b)
	colorKind    color = 0xff << 24
)

// The attribute bits of a style; the underline's kind takes attrUnderline.
const (
	attrBold uint16 = 1 << iota
	attrFaint
	attrItalic
	attrBlink
	attrRapidBlink
	attrReverse
	attrConceal
	attrStrike

	underlineShift = 8
	attrUnderline  = 7 << underlineShift // 0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed
)

// style is how a cell is drawn: colours and attributes, no pointers, so a
// screen of cells is one flat allocation the garbage collector skips.
type style struct {
	fg, bg, ul color
	attrs      uint16
}

// sgrAttrs are the attribute bits in the order an SGR sequence lists them
// (the order x/vt's renderer used, so frames read the same).
var sgrAttrs = [...]struct {
	bit  uint16
	code string
}{
	{attrBold, "1"}, {attrFaint, "2"}, {attrItalic, "3"}, {attrBlink, "5"},
	{attrRapidBlink, "6"}, {attrReverse, "7"}, {attrConceal, "8"}, {attrStrike, "9"},
}

// appendSGR appends the sequence that sets s on a terminal in the default
// style. s is not the zero style.
func appendSGR(b []byte, s style) []byte {
	b = append(b, "\x1b["...)
	start := len(b)
	for _, a := range sgrAttrs {
		if s.attrs&a.bit != 0 {
			b = sep(b, start)
			b = append(b, a.code...)
		}
	}
	if u := s.attrs & attrUnderline >> underlineShift; u != 0 {
		b = sep(b, start)
		b = append(b, '4')
		if u > 1 {
			b = append(b, ':', byte('0'+u))
		}
	}
	if s.fg != 0 {
		b = appendColor(sep(b, start), s.fg, 30, 90, "38")
	}
	if s.bg != 0 {
		b = appendColor(sep(b, start), s.bg, 40, 100, "48")
	}
	if s.ul != 0 {
		c := s.ul
		if c&colorKind == colorBasic {
			c = colorIndexed | c&0xff
		}
		b = appendColor(sep(b, start), c, 0, 0, "58")
	}
	return append(b, 'm')
}

// sep appends the ';' between two parameters of a sequence whose
// parameters start at start.
func sep(b []byte, start int) []byte {
	if len(b) > start {
		return append(b, ';')
	}
	return b
}

// appendColor appends c's SGR parameters: base+n or bright+n-8 for a basic
// colour, ext;5;n or ext;2;r;g;b for the others.
func appendColor(b []byte, c color, base, bright int, ext string) []byte {
	v := int(c & 0xffffff)
	switch c & colorKind {
	case colorBasic:
		if v < 8 {
			return strconv.AppendInt(b, int64(base+v), 10)
		}
		return strconv.AppendInt(b, int64(bright+v-8), 10)
	case colorIndexed:
		b = append(b, ext...)
		b = append(b, ";5;"...)
		return strconv.AppendInt(b, int64(v), 10)
	default:
		b = append(b, ext...)
		b = append(b, ";2;"...)
		b = strconv.AppendInt(b, int64(v>>16), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(v>>8&0xff), 10)
		b = append(b, ';')
		return strconv.AppendInt(b, int64(v&0xff), 10)
	}
}
