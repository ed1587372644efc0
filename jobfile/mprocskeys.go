package jobfile

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// mprocsKeyNames are the keys mprocs names between < and > (its
// src/term/key.rs), lower-cased, as a terminal sends them (xterm's
// sequences, as a terminal in its normal cursor mode sends them).
var mprocsKeyNames = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"enter": "\r", "tab": "\t", "bs": "\x7f", "esc": "\x1b", "nul": "\x00",
		"space": " ", "lt": "<", "gt": ">", "minus": "-",
		"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
		"home": "\x1b[H", "end": "\x1b[F", "insert": "\x1b[2~", "del": "\x1b[3~",
		"pageup": "\x1b[5~", "pagedown": "\x1b[6~",
		"f1": "\x1bOP", "f2": "\x1bOQ", "f3": "\x1bOR", "f4": "\x1bOS",
		"f5": "\x1b[15~", "f6": "\x1b[17~", "f7": "\x1b[18~", "f8": "\x1b[19~",
		"f9": "\x1b[20~", "f10": "\x1b[21~", "f11": "\x1b[23~", "f12": "\x1b[24~",
	}
})

// mprocsKey is what a terminal sends for one of mprocs' key specs:
// <q>, <Enter>, <C-c> (ctrl), <M-x> (alt: ESC first), <S-a> (shift).
func mprocsKey(spec string) (string, error) {
	inner, ok := strings.CutPrefix(spec, "<")
	if inner, ok = strings.CutSuffix(inner, ">"); !ok || inner == "" {
		return "", fmt.Errorf("%q is not a key: write it as mprocs does, between < and >: <q>, <Enter>, <C-c>", spec)
	}
	var ctrl, alt, shift bool
	for len(inner) > 2 && inner[1] == '-' {
		switch inner[0] {
		case 'c', 'C':
			ctrl = true
		case 'm', 'M':
			alt = true
		case 's', 'S':
			shift = true
		default:
			return "", fmt.Errorf("%q: %q is not a modifier: use C- (ctrl), M- (alt) or S- (shift)", spec, inner[:2])
		}
		inner = inner[2:]
	}
	seq, named := mprocsKeyNames()[strings.ToLower(inner)]
	if !named {
		if utf8.RuneCountInString(inner) != 1 {
			return "", fmt.Errorf("%q: %q is not a key jobtop can type (a character, Enter, Tab, BS, Esc, Space, the arrows, Home, End, PageUp, PageDown, Insert, Del, F1 to F12)", spec, inner)
		}
		seq = inner
	}
	if shift && len(seq) == 1 {
		seq = strings.ToUpper(seq)
	}
	if ctrl {
		if len(seq) != 1 || !(seq[0] >= '@' && seq[0] <= '_' || seq[0] >= 'a' && seq[0] <= 'z' || seq[0] == ' ' || seq[0] == '?') {
			return "", fmt.Errorf("%q: a terminal has no ctrl form of %s", spec, inner)
		}
		switch c := seq[0]; {
		case c == ' ':
			seq = "\x00"
		case c == '?':
			seq = "\x7f"
		default:
			seq = string(rune(c & 0x1f))
		}
	}
	if alt {
		seq = "\x1b" + seq
	}
	return seq, nil
}
