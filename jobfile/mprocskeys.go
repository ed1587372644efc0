package jobfile

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// mprocsKeyNames are the keys mprocs names between < and > (its
// src/term/key.rs), lower-cased, that a terminal sends as one character.
var mprocsKeyNames = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"enter": "\r", "tab": "\t", "bs": "\x7f", "esc": "\x1b", "nul": "\x00",
		"space": " ", "lt": "<", "gt": ">", "minus": "-",
	}
})

// xtermKey is how xterm sends a cursor, editing or function key: CSI
// then final (ESC [ A), or CSI param ~ (ESC [ 3 ~), or SS3 then final
// (ESC O P) for F1 to F4; with a modifier always CSI param ; 1+mods
// final (ESC [ 1 ; 2 A, ESC [ 3 ; 5 ~, ESC [ 1 ; 2 P).
type xtermKey struct {
	param string
	final byte
	ss3   bool
}

// mprocsFuncKeys are the keys mprocs names that xterm sends as an
// escape sequence, in its normal cursor mode.
var mprocsFuncKeys = sync.OnceValue(func() map[string]xtermKey {
	return map[string]xtermKey{
		"up": {"1", 'A', false}, "down": {"1", 'B', false}, "right": {"1", 'C', false}, "left": {"1", 'D', false},
		"home": {"1", 'H', false}, "end": {"1", 'F', false},
		"insert": {"2", '~', false}, "del": {"3", '~', false}, "pageup": {"5", '~', false}, "pagedown": {"6", '~', false},
		"f1": {"1", 'P', true}, "f2": {"1", 'Q', true}, "f3": {"1", 'R', true}, "f4": {"1", 'S', true},
		"f5": {"15", '~', false}, "f6": {"17", '~', false}, "f7": {"18", '~', false}, "f8": {"19", '~', false},
		"f9": {"20", '~', false}, "f10": {"21", '~', false}, "f11": {"23", '~', false}, "f12": {"24", '~', false},
	}
})

// xtermMods is xterm's modifier parameter: 1 + (shift 1, alt 2, ctrl 4).
func xtermMods(ctrl, alt, shift bool) string {
	n := 1
	if shift {
		n++
	}
	if alt {
		n += 2
	}
	if ctrl {
		n += 4
	}
	return strconv.Itoa(n)
}

// mprocsKey is what a terminal sends for one of mprocs' key specs:
// <q>, <Enter>, <C-c> (ctrl), <M-x> (alt: ESC first), <S-a> (shift).
// The cursor, editing and function keys carry their modifiers as xterm
// sends them (<S-Up> is ESC [ 1 ; 2 A), <S-Tab> is ESC [ Z.
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
	name := strings.ToLower(inner)
	if k, ok := mprocsFuncKeys()[name]; ok {
		switch {
		case ctrl || alt || shift:
			return "\x1b[" + k.param + ";" + xtermMods(ctrl, alt, shift) + string(k.final), nil
		case k.ss3:
			return "\x1bO" + string(k.final), nil
		case k.final == '~':
			return "\x1b[" + k.param + "~", nil
		}
		return "\x1b[" + string(k.final), nil
	}
	seq, named := mprocsKeyNames()[name]
	if !named {
		if utf8.RuneCountInString(inner) != 1 {
			return "", fmt.Errorf("%q: %q is not a key jobtop can type (a character, Enter, Tab, BS, Esc, Space, the arrows, Home, End, PageUp, PageDown, Insert, Del, F1 to F12)", spec, inner)
		}
		seq = inner
	}
	if name == "tab" && shift && !ctrl {
		seq = "\x1b[Z" // back-tab, as xterm sends it
		shift = false
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
