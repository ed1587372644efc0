package vtfast

// sgr applies Select Graphic Rendition parameters to the pen. A parameter
// followed by ':' carries sub-parameters (38:2::r:g:b, 4:3); unknown
// parameters are skipped.
func (t *term) sgr() {
	if t.nparams == 0 {
		t.pen = style{}
		return
	}
	for i := 0; i < t.nparams; {
		// The group is the parameter and its sub-parameters.
		j := i + 1
		for j < t.nparams && t.colon&(1<<(j-1)) != 0 {
			j++
		}
		p := t.params[i]
		sub := t.params[i+1 : j]
		next := j
		switch {
		case p == 0:
			t.pen = style{}
		case p == 1:
			t.pen.attrs |= attrBold
		case p == 2:
			t.pen.attrs |= attrFaint
		case p == 3:
			t.pen.attrs |= attrItalic
		case p == 4:
			u := uint16(1)
			if len(sub) > 0 {
				u = uint16(min(sub[0], 5))
			}
			t.pen.attrs = t.pen.attrs&^attrUnderline | u<<underlineShift
		case p == 5:
			t.pen.attrs |= attrBlink
		case p == 6:
			t.pen.attrs |= attrRapidBlink
		case p == 7:
			t.pen.attrs |= attrReverse
		case p == 8:
			t.pen.attrs |= attrConceal
		case p == 9:
			t.pen.attrs |= attrStrike
		case p == 21:
			t.pen.attrs = t.pen.attrs&^attrUnderline | 2<<underlineShift
		case p == 22:
			t.pen.attrs &^= attrBold | attrFaint
		case p == 23:
			t.pen.attrs &^= attrItalic
		case p == 24:
			t.pen.attrs &^= attrUnderline
		case p == 25:
			t.pen.attrs &^= attrBlink | attrRapidBlink
		case p == 27:
			t.pen.attrs &^= attrReverse
		case p == 28:
			t.pen.attrs &^= attrConceal
		case p == 29:
			t.pen.attrs &^= attrStrike
		case p >= 30 && p <= 37:
			t.pen.fg = colorBasic | color(p-30)
		case p == 39:
			t.pen.fg = 0
		case p >= 40 && p <= 47:
			t.pen.bg = colorBasic | color(p-40)
		case p == 49:
			t.pen.bg = 0
		case p == 59:
			t.pen.ul = 0
		case p >= 90 && p <= 97:
			t.pen.fg = colorBasic | color(p-90+8)
		case p >= 100 && p <= 107:
			t.pen.bg = colorBasic | color(p-100+8)
		case p == 38 || p == 48 || p == 58:
			var c color
			var ok bool
			if len(sub) > 0 {
				c, ok = extColor(sub, true)
			} else {
				var n int
				c, ok, n = extColorSemi(t.params[j:t.nparams])
				next = j + n
			}
			if ok {
				switch p {
				case 38:
					t.pen.fg = c
				case 48:
					t.pen.bg = c
				default:
					t.pen.ul = c
				}
			}
		}
		i = next
	}
}

// extColor reads the colour of 38:5:n or 38:2:[cs:]r:g:b from its
// sub-parameters.
func extColor(sub []int32, colon bool) (color, bool) {
	switch {
	case sub[0] == 5 && len(sub) >= 2:
		return colorIndexed | color(sub[1]&0xff), true
	case sub[0] == 2 && len(sub) >= 4:
		rgb := sub[1:4]
		if colon && len(sub) >= 5 {
			rgb = sub[2:5] // the colour space id comes first
		}
		return colorRGB | color(rgb[0]&0xff)<<16 | color(rgb[1]&0xff)<<8 | color(rgb[2]&0xff), true
	}
	return 0, false
}

// extColorSemi reads the colour of 38;5;n or 38;2;r;g;b from the
// parameters after the 38 and says how many it took.
func extColorSemi(rest []int32) (color, bool, int) {
	if len(rest) == 0 {
		return 0, false, 0
	}
	switch rest[0] {
	case 5:
		if len(rest) < 2 {
			return 0, false, len(rest)
		}
		c, ok := extColor(rest[:2], false)
		return c, ok, 2
	case 2:
		if len(rest) < 4 {
			return 0, false, len(rest)
		}
		c, ok := extColor(rest[:4], false)
		return c, ok, 4
	}
	return 0, false, 1
}
