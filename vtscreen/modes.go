package vtscreen

// MouseTracking is the kind of mouse reports a program asked for.
type MouseTracking int

// The mouse reports a program can ask for, from none to every motion.
const (
	MouseOff    MouseTracking = iota
	MouseX10                  // ?9: presses only
	MouseNormal               // ?1000: presses and releases
	MouseButton               // ?1002: and motion while a button is down
	MouseAny                  // ?1003: and all motion
)

// InputModes are the DEC private modes that change what a terminal sends
// for keys, pastes and the mouse. Input mode encodes keys by them.
type InputModes struct {
	// AppCursor (?1, DECCKM): arrows send ESC O A rather than ESC [ A.
	AppCursor bool
	// BracketedPaste (?2004): pastes are wrapped in ESC [200~ / ESC [201~.
	BracketedPaste bool
	// Mouse is the tracking asked for; MouseSGR (?1006) the encoding.
	Mouse    MouseTracking
	MouseSGR bool
}

// SetDEC applies DEC private mode n set (h) or reset (l).
func (m *InputModes) SetDEC(n int, on bool) {
	switch n {
	case 1:
		m.AppCursor = on
	case 2004:
		m.BracketedPaste = on
	case 1006:
		m.MouseSGR = on
	case 9, 1000, 1002, 1003:
		level := MouseX10
		switch n {
		case 1000:
			level = MouseNormal
		case 1002:
			level = MouseButton
		case 1003:
			level = MouseAny
		}
		if on {
			m.Mouse = level
		} else if m.Mouse == level {
			m.Mouse = MouseOff
		}
	}
}

// Sequence is what sets m on a terminal whose modes are all off: DEC
// private mode sets, nothing for a mode that is off.
func (m InputModes) Sequence() []byte {
	var b []byte
	set := func(n string) { b = append(b, "\x1b[?"+n+"h"...) }
	if m.AppCursor {
		set("1")
	}
	if m.BracketedPaste {
		set("2004")
	}
	switch m.Mouse {
	case MouseX10:
		set("9")
	case MouseNormal:
		set("1000")
	case MouseButton:
		set("1002")
	case MouseAny:
		set("1003")
	}
	if m.MouseSGR {
		set("1006")
	}
	return b
}
