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
// not follow.
func (st *penState) apply(params string) bool {
	if strings.IndexByte(params, ':') >= 0 {
		return false
	}
	p := strings.Split(params, ";")
	for k := 0; k < len(p); k++ {
		n, err := strconv.Atoi(p[k])
		if p[k] == "" {
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
			st.fg = p[k]
		case n == 39:
			st.fg = ""
		case n >= 40 && n <= 47 || n >= 100 && n <= 107:
			st.bg = p[k]
		case n == 49:
			st.bg = ""
		case n == 38 || n == 48:
			take := 0
			switch {
			case k+2 < len(p) && p[k+1] == "5":
				take = 2
			case k+4 < len(p) && p[k+1] == "2":
				take = 4
			default:
				return false
			}
			colour := strings.Join(p[k:k+take+1], ";")
			if n == 38 {
				st.fg = colour
			} else {
				st.bg = colour
			}
			k += take
		default:
			return false
		}
	}
	return true
}

// String is the one sequence that sets the state from a reset ("" for
// none to set).
func (st penState) String() string {
	var codes []string
	for n, on := range st.attrs {
		if on {
			codes = append(codes, strconv.Itoa(n))
		}
	}
	for _, c := range []string{st.fg, st.bg} {
		if c != "" {
			codes = append(codes, c)
		}
	}
	if len(codes) == 0 {
		return ""
	}
	return "\x1b[" + strings.Join(codes, ";") + "m"
}
