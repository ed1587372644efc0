// Package termkeys turns the keys, pastes and mouse events the TUI
// receives into the bytes an xterm-like terminal would send the program
// running in it, so that input mode can type into a PTY job: ctrl+c is
// 0x03, an arrow is ESC [ A (ESC O A when the program asked for
// application cursor keys), a paste is bracketed when the program asked
// for it, the mouse is reported the way the program asked.
//
// It imports bubbletea's key and mouse types and vtscreen's InputModes,
// nothing else of jobtop.
package termkeys

import (
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/vtscreen"
)

// Bracketed paste's markers.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// cursorKeys are the keys whose normal form is CSI final and whose
// application form (DECCKM) is SS3 final.
var cursorKeys = map[tea.KeyType]byte{
	tea.KeyUp: 'A', tea.KeyDown: 'B', tea.KeyRight: 'C', tea.KeyLeft: 'D',
	tea.KeyHome: 'H', tea.KeyEnd: 'F',
}

// ModeDependent reports whether how k is sent depends on the program's
// input modes other than the mouse's: a cursor key (application cursor
// keys) or a paste (bracketed paste).
func ModeDependent(k tea.KeyMsg) bool {
	return k.Paste || cursorKeys[k.Type] != 0
}

// modified are keys with modifiers: CSI 1;mod final, mod as xterm counts
// it (2 shift, 5 ctrl, 6 ctrl+shift).
var modified = map[tea.KeyType]string{
	tea.KeyShiftUp: "1;2A", tea.KeyShiftDown: "1;2B", tea.KeyShiftRight: "1;2C", tea.KeyShiftLeft: "1;2D",
	tea.KeyShiftHome: "1;2H", tea.KeyShiftEnd: "1;2F",
	tea.KeyCtrlUp: "1;5A", tea.KeyCtrlDown: "1;5B", tea.KeyCtrlRight: "1;5C", tea.KeyCtrlLeft: "1;5D",
	tea.KeyCtrlHome: "1;5H", tea.KeyCtrlEnd: "1;5F",
	tea.KeyCtrlShiftUp: "1;6A", tea.KeyCtrlShiftDown: "1;6B", tea.KeyCtrlShiftRight: "1;6C", tea.KeyCtrlShiftLeft: "1;6D",
	tea.KeyCtrlShiftHome: "1;6H", tea.KeyCtrlShiftEnd: "1;6F",
	tea.KeyPgUp: "5~", tea.KeyPgDown: "6~", tea.KeyCtrlPgUp: "5;5~", tea.KeyCtrlPgDown: "6;5~",
	tea.KeyDelete: "3~", tea.KeyInsert: "2~", tea.KeyShiftTab: "Z",
	tea.KeyF5: "15~", tea.KeyF6: "17~", tea.KeyF7: "18~", tea.KeyF8: "19~",
	tea.KeyF9: "20~", tea.KeyF10: "21~", tea.KeyF11: "23~", tea.KeyF12: "24~",
	tea.KeyF13: "1;2P", tea.KeyF14: "1;2Q", tea.KeyF15: "1;2R", tea.KeyF16: "1;2S",
	tea.KeyF17: "15;2~", tea.KeyF18: "17;2~", tea.KeyF19: "18;2~", tea.KeyF20: "19;2~",
}

// ss3Keys are F1-F4, SS3 P..S in either cursor mode.
var ss3Keys = map[tea.KeyType]byte{tea.KeyF1: 'P', tea.KeyF2: 'Q', tea.KeyF3: 'R', tea.KeyF4: 'S'}

// Key returns the bytes a terminal sends for k, given the program's input
// modes; nil for a key it cannot encode. Alt is sent as an ESC before
// the key. A paste (k.Paste) is encoded as Paste does.
func Key(k tea.KeyMsg, m vtscreen.InputModes) []byte {
	if k.Paste {
		return Paste(string(k.Runes), m)
	}
	var b []byte
	switch {
	case k.Type == tea.KeyRunes:
		b = []byte(string(k.Runes))
	case k.Type == tea.KeySpace:
		b = []byte{' '}
	case k.Type >= 0 && k.Type < 0x20 || k.Type == 0x7f:
		b = []byte{byte(k.Type)}
	case cursorKeys[k.Type] != 0:
		if m.AppCursor {
			b = []byte{0x1b, 'O', cursorKeys[k.Type]}
		} else {
			b = []byte{0x1b, '[', cursorKeys[k.Type]}
		}
	case ss3Keys[k.Type] != 0:
		b = []byte{0x1b, 'O', ss3Keys[k.Type]}
	case modified[k.Type] != "":
		b = []byte("\x1b[" + modified[k.Type])
	default:
		return nil
	}
	if k.Alt {
		b = append([]byte{0x1b}, b...)
	}
	return b
}

// Paste returns the bytes of pasted text: wrapped in the bracketed-paste
// markers when the program asked for them, with any end marker inside
// the text taken out so the text cannot end the paste early. Newlines
// are sent as carriage returns, as a terminal sends Enter.
func Paste(text string, m vtscreen.InputModes) []byte {
	text = strings.ReplaceAll(text, "\r\n", "\r")
	text = strings.ReplaceAll(text, "\n", "\r")
	if !m.BracketedPaste {
		return []byte(text)
	}
	for strings.Contains(text, pasteEnd) {
		text = strings.ReplaceAll(text, pasteEnd, "")
	}
	return []byte(pasteStart + text + pasteEnd)
}

// Mouse returns the report of a mouse event at column x, row y of the
// program's screen (from 0), in the tracking and encoding the program
// asked for; nil when it asked for none, or not for this kind of event.
func Mouse(ev tea.MouseMsg, x, y int, m vtscreen.InputModes) []byte {
	if x < 0 || y < 0 {
		return nil
	}
	motion := ev.Action == tea.MouseActionMotion
	release := ev.Action == tea.MouseActionRelease
	switch {
	case m.Mouse == vtscreen.MouseOff:
		return nil
	case m.Mouse == vtscreen.MouseX10 && (release || motion):
		return nil
	case m.Mouse == vtscreen.MouseNormal && motion:
		return nil
	case m.Mouse == vtscreen.MouseButton && motion && ev.Button == tea.MouseButtonNone:
		return nil
	}
	code, ok := buttonCode(ev.Button)
	if !ok {
		return nil
	}
	if m.Mouse != vtscreen.MouseX10 {
		if ev.Shift {
			code += 4
		}
		if ev.Alt {
			code += 8
		}
		if ev.Ctrl {
			code += 16
		}
	}
	if motion {
		code += 32
	}
	if m.MouseSGR {
		final := byte('M')
		if release {
			final = 'm'
		}
		return []byte("\x1b[<" + strconv.Itoa(code) + ";" + strconv.Itoa(x+1) + ";" + strconv.Itoa(y+1) + string(final))
	}
	if release {
		code = 3 | code&^3 // the legacy encoding does not say which button
	}
	// The legacy encoding has one byte per value: past column 223 it
	// cannot say where.
	if x+1+32 > 255 || y+1+32 > 255 {
		return nil
	}
	return []byte{0x1b, '[', 'M', byte(32 + code), byte(32 + x + 1), byte(32 + y + 1)}
}

// buttonCode is a button's number in mouse reports.
func buttonCode(b tea.MouseButton) (int, bool) {
	switch b {
	case tea.MouseButtonLeft:
		return 0, true
	case tea.MouseButtonMiddle:
		return 1, true
	case tea.MouseButtonRight:
		return 2, true
	case tea.MouseButtonNone:
		return 3, true
	case tea.MouseButtonWheelUp:
		return 64, true
	case tea.MouseButtonWheelDown:
		return 65, true
	case tea.MouseButtonWheelLeft:
		return 66, true
	case tea.MouseButtonWheelRight:
		return 67, true
	case tea.MouseButtonBackward:
		return 128, true
	case tea.MouseButtonForward:
		return 129, true
	}
	return 0, false
}
