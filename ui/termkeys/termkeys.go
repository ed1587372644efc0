// Package termkeys turns the keys, pastes and mouse events the TUI
// receives into the bytes an xterm-like terminal would send the program
// running in it, so that input mode can type into a PTY job: ctrl+c is
// 0x03, an arrow is ESC [ A (ESC O A when the program asked for
// application cursor keys), a key with modifiers carries them in its CSI
// sequence (alt+up is ESC [ 1;3A, ctrl+f5 ESC [ 15;5~), a paste is
// bracketed when the program asked for it, the mouse is reported the way
// the program asked.
//
// It imports bubbletea's key and mouse types and vtscreen's InputModes,
// nothing else of jobtop.
package termkeys

import (
	"bytes"
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

// csiKey is a key a terminal sends as a CSI sequence that can carry
// modifiers, as xterm (and tmux) send them: CSI 1;mod final for a key
// with a letter final (arrows, Home, End, F1-F4), CSI num;mod ~ for the
// others. mod is 1 plus the modifiers' bits: shift 1, alt 2, ctrl 4
// (1;3A is alt+up, 15;5~ ctrl+f5). Without modifiers a cursor key is
// CSI final (SS3 final when the program asked for application cursor
// keys), F1-F4 are SS3 final, the others CSI num ~.
type csiKey struct {
	num   int  // the number of a ~ key; 0 for a letter key
	final byte // the letter of a letter key; '~' for the others
	mods  int  // the modifiers the key type names
}

// The modifiers' bits in a csiKey.
const (
	modShift = 1
	modAlt   = 2
	modCtrl  = 4
)

// csiKeys are the named keys sent as CSI sequences with modifiers.
// F13-F20 are shift+F1-F8, as xterm counts them.
var csiKeys = map[tea.KeyType]csiKey{
	tea.KeyUp: {final: 'A'}, tea.KeyDown: {final: 'B'}, tea.KeyRight: {final: 'C'}, tea.KeyLeft: {final: 'D'},
	tea.KeyHome: {final: 'H'}, tea.KeyEnd: {final: 'F'},
	tea.KeyShiftUp: {final: 'A', mods: modShift}, tea.KeyShiftDown: {final: 'B', mods: modShift},
	tea.KeyShiftRight: {final: 'C', mods: modShift}, tea.KeyShiftLeft: {final: 'D', mods: modShift},
	tea.KeyShiftHome: {final: 'H', mods: modShift}, tea.KeyShiftEnd: {final: 'F', mods: modShift},
	tea.KeyCtrlUp: {final: 'A', mods: modCtrl}, tea.KeyCtrlDown: {final: 'B', mods: modCtrl},
	tea.KeyCtrlRight: {final: 'C', mods: modCtrl}, tea.KeyCtrlLeft: {final: 'D', mods: modCtrl},
	tea.KeyCtrlHome: {final: 'H', mods: modCtrl}, tea.KeyCtrlEnd: {final: 'F', mods: modCtrl},
	tea.KeyCtrlShiftUp: {final: 'A', mods: modCtrl | modShift}, tea.KeyCtrlShiftDown: {final: 'B', mods: modCtrl | modShift},
	tea.KeyCtrlShiftRight: {final: 'C', mods: modCtrl | modShift}, tea.KeyCtrlShiftLeft: {final: 'D', mods: modCtrl | modShift},
	tea.KeyCtrlShiftHome: {final: 'H', mods: modCtrl | modShift}, tea.KeyCtrlShiftEnd: {final: 'F', mods: modCtrl | modShift},
	tea.KeyInsert: {num: 2, final: '~'}, tea.KeyDelete: {num: 3, final: '~'},
	tea.KeyPgUp: {num: 5, final: '~'}, tea.KeyPgDown: {num: 6, final: '~'},
	tea.KeyCtrlPgUp: {num: 5, final: '~', mods: modCtrl}, tea.KeyCtrlPgDown: {num: 6, final: '~', mods: modCtrl},
	tea.KeyF1: {final: 'P'}, tea.KeyF2: {final: 'Q'}, tea.KeyF3: {final: 'R'}, tea.KeyF4: {final: 'S'},
	tea.KeyF5: {num: 15, final: '~'}, tea.KeyF6: {num: 17, final: '~'}, tea.KeyF7: {num: 18, final: '~'},
	tea.KeyF8: {num: 19, final: '~'}, tea.KeyF9: {num: 20, final: '~'}, tea.KeyF10: {num: 21, final: '~'},
	tea.KeyF11: {num: 23, final: '~'}, tea.KeyF12: {num: 24, final: '~'},
	tea.KeyF13: {final: 'P', mods: modShift}, tea.KeyF14: {final: 'Q', mods: modShift},
	tea.KeyF15: {final: 'R', mods: modShift}, tea.KeyF16: {final: 'S', mods: modShift},
	tea.KeyF17: {num: 15, final: '~', mods: modShift}, tea.KeyF18: {num: 17, final: '~', mods: modShift},
	tea.KeyF19: {num: 18, final: '~', mods: modShift}, tea.KeyF20: {num: 19, final: '~', mods: modShift},
}

// cursorKey reports whether c is a cursor key: without modifiers it is
// sent in the application form (SS3) when the program asked for it.
func (c csiKey) cursorKey() bool { return c.num == 0 && c.final >= 'A' && c.final <= 'H' }

// bytes is the sequence of c with the modifiers mods, given the input
// modes.
func (c csiKey) bytes(mods int, m vtscreen.InputModes) []byte {
	switch {
	case mods != 0 && c.num == 0:
		return []byte("\x1b[1;" + strconv.Itoa(1+mods) + string(c.final))
	case mods != 0:
		return []byte("\x1b[" + strconv.Itoa(c.num) + ";" + strconv.Itoa(1+mods) + "~")
	case c.num != 0:
		return []byte("\x1b[" + strconv.Itoa(c.num) + "~")
	case c.cursorKey() && !m.AppCursor:
		return []byte{0x1b, '[', c.final}
	default: // F1-F4, or a cursor key in application mode
		return []byte{0x1b, 'O', c.final}
	}
}

// ModeDependent reports whether how k is sent depends on the program's
// input modes other than the mouse's: a cursor key without modifiers
// (application cursor keys) or a paste (bracketed paste).
func ModeDependent(k tea.KeyMsg) bool {
	c, ok := csiKeys[k.Type]
	return k.Paste || ok && c.cursorKey() && c.mods == 0 && !k.Alt
}

// Key returns the bytes a terminal sends for k, given the program's input
// modes; nil for a key it cannot encode. Alt is the modifier parameter
// of a key sent as CSI (alt+up is CSI 1;3A, as xterm and tmux send it),
// an ESC before any other key (alt+x is ESC x). A paste (k.Paste) is
// encoded as Paste does.
func Key(k tea.KeyMsg, m vtscreen.InputModes) []byte {
	if k.Paste {
		return Paste(string(k.Runes), m)
	}
	if c, ok := csiKeys[k.Type]; ok {
		mods := c.mods
		if k.Alt {
			mods |= modAlt
		}
		return c.bytes(mods, m)
	}
	var b []byte
	switch {
	case k.Type == tea.KeyRunes:
		b = []byte(string(k.Runes))
	case k.Type == tea.KeySpace:
		b = []byte{' '}
	case k.Type >= 0 && k.Type < 0x20 || k.Type == 0x7f:
		b = []byte{byte(k.Type)}
	case k.Type == tea.KeyShiftTab:
		b = []byte("\x1b[Z") // alt+shift+tab is ESC CSI Z, as tmux sends it
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

// WheelLines is how many cursor keys one notch of the wheel sends to a
// full-screen program that did not ask for the mouse (Wheel): three
// lines, as VTE, kitty and iTerm2 scroll.
const WheelLines = 3

// Wheel returns what a terminal sends a full-screen program on the
// alternate screen that did not ask for the mouse when the wheel turns:
// cursor up or down keys, WheelLines of them, in the cursor key mode the
// program asked for (xterm's alternateScroll, on by default in VTE,
// kitty, iTerm2, WezTerm), so less, man and git log scroll with it. nil
// for what is not a wheel up or down.
func Wheel(ev tea.MouseMsg, m vtscreen.InputModes) []byte {
	k := tea.KeyMsg{Type: tea.KeyUp}
	switch {
	case ev.Action != tea.MouseActionPress:
		return nil
	case ev.Button == tea.MouseButtonWheelDown:
		k.Type = tea.KeyDown
	case ev.Button != tea.MouseButtonWheelUp:
		return nil
	}
	return bytes.Repeat(Key(k, m), WheelLines)
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
