package termtext

import (
	"strconv"
	"strings"
)

// WithoutColours is SGR sequence seq with its colours left out
// (foreground, background and underline colour: 30-39, 40-49, 58, 59,
// 90-97, 100-107, and the fields of a 38;5;N or 38;2;R;G;B), the rest
// kept as one sequence: bold, underline, reverse video, resets. "" when
// nothing is left (or seq is no "\e[...m"). NO_COLOR asks for no
// colours, not for no attributes (no-color.org).
func WithoutColours(seq string) string {
	if len(seq) < 3 || !strings.HasPrefix(seq, "\x1b[") || seq[len(seq)-1] != 'm' {
		return ""
	}
	params := seq[2 : len(seq)-1]
	if params == "" || !hasColour(params) {
		return seq
	}
	fields := strings.Split(params, ";")
	kept := fields[:0]
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		code, sub, _ := strings.Cut(f, ":")
		n, err := strconv.Atoi(code)
		if code == "" {
			n, err = 0, nil
		}
		if err != nil {
			continue // not a parameter a terminal would take
		}
		if !colourCode(n) {
			kept = append(kept, f)
			continue
		}
		if (n == 38 || n == 48 || n == 58) && sub == "" && !strings.Contains(f, ":") && i+1 < len(fields) {
			// 5;N or 2;R;G;B follow as fields of their own.
			switch fields[i+1] {
			case "5":
				i = min(i+2, len(fields)-1)
			case "2":
				i = min(i+4, len(fields)-1)
			}
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return "\x1b[" + strings.Join(kept, ";") + "m"
}

// colourCode reports whether an SGR code sets a colour.
func colourCode(n int) bool {
	return n >= 30 && n <= 39 || n >= 40 && n <= 49 || n == 58 || n == 59 || n >= 90 && n <= 97 || n >= 100 && n <= 107
}

// hasColour reports whether SGR parameters may set a colour: a field
// starting with 3, 4, 5 or 9 or 10 (most sequences hold none).
func hasColour(params string) bool {
	for i := 0; i < len(params); i++ {
		if i == 0 || params[i-1] == ';' {
			switch params[i] {
			case '3', '4', '5', '9':
				return true
			case '1':
				if strings.HasPrefix(params[i:], "10") {
					return true
				}
			}
		}
	}
	return false
}

// StripColours is s with the colours left out of its SGR sequences
// (WithoutColours); every other byte is kept as it is.
func StripColours(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i := 0; i < len(s); {
		t := Next(s, i)
		if t.Kind == SGR {
			b.WriteString(s[last:i])
			b.WriteString(WithoutColours(s[i:t.End]))
			last = t.End
		}
		i = t.End
	}
	b.WriteString(s[last:])
	return b.String()
}
