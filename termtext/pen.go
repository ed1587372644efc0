package termtext

import (
	"strconv"
	"strings"
)

// addPen is pen after SGR sequence seq: the sequences since the last
// reset, one after another. Past maxPen bytes (a progress bar that sets
// its colour at every frame) they are folded into the one sequence that
// sets the same state (foldPen), so a colour set long ago, a background
// under every frame, is kept. A pen is never longer than maxPen: a
// sequence that cannot be folded within it (hundreds of bytes of
// parameters foldPen does not follow) is left out, the pen before it
// kept.
func addPen(pen, seq string) string {
	switch {
	case seq == "\x1b[m" || seq == "\x1b[0m":
		return ""
	case len(pen)+len(seq) > maxPen:
		if folded := foldPen(pen + seq); len(folded) <= maxPen {
			return folded
		}
		return pen
	}
	return pen + seq
}

// inEffect is pen, or "" when its sequences leave every attribute and
// colour as a reset does ("\e[1m\e[31m\e[39m\e[22m"): there is nothing
// to carry to more text.
func inEffect(pen string) string {
	if pen == "" || foldPen(pen) != "" {
		return pen
	}
	return ""
}

// penState is what SGR sequences set: the attributes on (by their
// codes, 1 to 9), the foreground and the background ("" for the
// default; else their parameters, "31" or "38;5;208").
type penState struct {
	attrs  [10]bool
	fg, bg string
}

// foldPen is the one SGR sequence that leaves a terminal as the
// sequences in pen do. A sequence it does not know (colon
// subparameters, a code past those it follows) leaves the newest
// sequence alone as the pen, as before such folding.
func foldPen(pen string) string {
	var st penState
	last := ""
	for i := 0; i < len(pen); {
		end := strings.IndexByte(pen[i:], 'm')
		if end < 0 || !strings.HasPrefix(pen[i:], "\x1b[") {
			return last
		}
		last = pen[i : i+end+1]
		if !st.apply(pen[i+2 : i+end]) {
			return last
		}
		i += end + 1
	}
	return st.String()
}

// apply sets what one sequence's parameters set; false for what it does
// not follow. It allocates nothing: colours are kept as parts of params.
func (st *penState) apply(params string) bool {
	if strings.IndexByte(params, ':') >= 0 {
		return false
	}
	for i := 0; i <= len(params); {
		f, next := sgrField(params, i)
		n, err := strconv.Atoi(f)
		if f == "" {
			n, err = 0, nil
		}
		if err != nil {
			return false
		}
		switch {
		case n == 0:
			*st = penState{}
		case n >= 1 && n <= 9:
			st.attrs[n] = true
		case n == 22:
			st.attrs[1], st.attrs[2] = false, false
		case n >= 23 && n <= 29 && n != 26:
			st.attrs[n-20] = false
		case n >= 30 && n <= 37 || n >= 90 && n <= 97:
			st.fg = f
		case n == 39:
			st.fg = ""
		case n >= 40 && n <= 47 || n >= 100 && n <= 107:
			st.bg = f
		case n == 49:
			st.bg = ""
		case n == 38 || n == 48:
			// 5;N or 2;R;G;B follow: the colour is those fields with n's.
			take := 0
			if next <= len(params) {
				switch kind, _ := sgrField(params, next); kind {
				case "5":
					take = 2
				case "2":
					take = 4
				}
			}
			if take == 0 {
				return false
			}
			for range take {
				if next > len(params) {
					return false
				}
				_, next = sgrField(params, next)
			}
			if colour := params[i : next-1]; n == 38 {
				st.fg = colour
			} else {
				st.bg = colour
			}
		default:
			return false
		}
		i = next
	}
	return true
}

// sgrField is the parameter of an SGR sequence's params that starts at
// i, and where the next one starts (past len(params) after the last).
func sgrField(params string, i int) (field string, next int) {
	if k := strings.IndexByte(params[i:], ';'); k >= 0 {
		return params[i : i+k], i + k + 1
	}
	return params[i:], len(params) + 1
}

// String is the one sequence that sets the state from a reset ("" for
// none to set).
func (st penState) String() string {
	var buf [64]byte
	b := append(buf[:0], "\x1b["...)
	for n, on := range st.attrs {
		if on {
			b = append(b, byte('0'+n), ';')
		}
	}
	for _, c := range []string{st.fg, st.bg} {
		if c != "" {
			b = append(b, c...)
			b = append(b, ';')
		}
	}
	if len(b) == len("\x1b[") {
		return ""
	}
	b[len(b)-1] = 'm'
	return string(b)
}
