package termkeys

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/vtscreen"
)

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func TestKey(t *testing.T) {
	app := vtscreen.InputModes{AppCursor: true}
	none := vtscreen.InputModes{}
	cases := []struct {
		name string
		k    tea.KeyMsg
		m    vtscreen.InputModes
		want string
	}{
		{"letter", runes("a"), none, "a"},
		{"utf-8", runes("é日"), none, "é日"},
		{"alt+letter", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x"), Alt: true}, none, "\x1bx"},
		{"space", tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}, none, " "},
		{"ctrl+c", tea.KeyMsg{Type: tea.KeyCtrlC}, none, "\x03"},
		{"ctrl+a", tea.KeyMsg{Type: tea.KeyCtrlA}, none, "\x01"},
		{"ctrl+d", tea.KeyMsg{Type: tea.KeyCtrlD}, none, "\x04"},
		{"ctrl+z", tea.KeyMsg{Type: tea.KeyCtrlZ}, none, "\x1a"},
		{"ctrl+@", tea.KeyMsg{Type: tea.KeyCtrlAt}, none, "\x00"},
		{"ctrl+backslash", tea.KeyMsg{Type: tea.KeyCtrlBackslash}, none, "\x1c"},
		{"enter", tea.KeyMsg{Type: tea.KeyEnter}, none, "\r"},
		{"tab", tea.KeyMsg{Type: tea.KeyTab}, none, "\t"},
		{"shift+tab", tea.KeyMsg{Type: tea.KeyShiftTab}, none, "\x1b[Z"},
		{"esc", tea.KeyMsg{Type: tea.KeyEsc}, none, "\x1b"},
		{"alt+esc", tea.KeyMsg{Type: tea.KeyEsc, Alt: true}, none, "\x1b\x1b"},
		{"backspace", tea.KeyMsg{Type: tea.KeyBackspace}, none, "\x7f"},
		{"alt+backspace", tea.KeyMsg{Type: tea.KeyBackspace, Alt: true}, none, "\x1b\x7f"},
		{"up", tea.KeyMsg{Type: tea.KeyUp}, none, "\x1b[A"},
		{"down", tea.KeyMsg{Type: tea.KeyDown}, none, "\x1b[B"},
		{"right", tea.KeyMsg{Type: tea.KeyRight}, none, "\x1b[C"},
		{"left", tea.KeyMsg{Type: tea.KeyLeft}, none, "\x1b[D"},
		{"home", tea.KeyMsg{Type: tea.KeyHome}, none, "\x1b[H"},
		{"end", tea.KeyMsg{Type: tea.KeyEnd}, none, "\x1b[F"},
		{"up, app cursor", tea.KeyMsg{Type: tea.KeyUp}, app, "\x1bOA"},
		{"left, app cursor", tea.KeyMsg{Type: tea.KeyLeft}, app, "\x1bOD"},
		{"home, app cursor", tea.KeyMsg{Type: tea.KeyHome}, app, "\x1bOH"},
		{"alt+up", tea.KeyMsg{Type: tea.KeyUp, Alt: true}, none, "\x1b[1;3A"},
		{"alt+up, app cursor", tea.KeyMsg{Type: tea.KeyUp, Alt: true}, app, "\x1b[1;3A"},
		{"alt+home", tea.KeyMsg{Type: tea.KeyHome, Alt: true}, none, "\x1b[1;3H"},
		{"alt+shift+up", tea.KeyMsg{Type: tea.KeyShiftUp, Alt: true}, none, "\x1b[1;4A"},
		{"ctrl+alt+left", tea.KeyMsg{Type: tea.KeyCtrlLeft, Alt: true}, none, "\x1b[1;7D"},
		{"ctrl+alt+shift+end", tea.KeyMsg{Type: tea.KeyCtrlShiftEnd, Alt: true}, none, "\x1b[1;8F"},
		{"alt+pgup", tea.KeyMsg{Type: tea.KeyPgUp, Alt: true}, none, "\x1b[5;3~"},
		{"ctrl+alt+pgdown", tea.KeyMsg{Type: tea.KeyCtrlPgDown, Alt: true}, none, "\x1b[6;7~"},
		{"alt+delete", tea.KeyMsg{Type: tea.KeyDelete, Alt: true}, none, "\x1b[3;3~"},
		{"alt+f1", tea.KeyMsg{Type: tea.KeyF1, Alt: true}, app, "\x1b[1;3P"},
		{"alt+f5", tea.KeyMsg{Type: tea.KeyF5, Alt: true}, none, "\x1b[15;3~"},
		{"alt+f13", tea.KeyMsg{Type: tea.KeyF13, Alt: true}, none, "\x1b[1;4P"},
		{"f17", tea.KeyMsg{Type: tea.KeyF17}, none, "\x1b[15;2~"},
		{"alt+shift+tab", tea.KeyMsg{Type: tea.KeyShiftTab, Alt: true}, none, "\x1b\x1b[Z"},
		{"shift+up, app cursor", tea.KeyMsg{Type: tea.KeyShiftUp}, app, "\x1b[1;2A"},
		{"shift+up", tea.KeyMsg{Type: tea.KeyShiftUp}, none, "\x1b[1;2A"},
		{"ctrl+right", tea.KeyMsg{Type: tea.KeyCtrlRight}, app, "\x1b[1;5C"},
		{"ctrl+shift+left", tea.KeyMsg{Type: tea.KeyCtrlShiftLeft}, none, "\x1b[1;6D"},
		{"pgup", tea.KeyMsg{Type: tea.KeyPgUp}, none, "\x1b[5~"},
		{"pgdown", tea.KeyMsg{Type: tea.KeyPgDown}, none, "\x1b[6~"},
		{"ctrl+pgup", tea.KeyMsg{Type: tea.KeyCtrlPgUp}, none, "\x1b[5;5~"},
		{"delete", tea.KeyMsg{Type: tea.KeyDelete}, none, "\x1b[3~"},
		{"insert", tea.KeyMsg{Type: tea.KeyInsert}, none, "\x1b[2~"},
		{"f1", tea.KeyMsg{Type: tea.KeyF1}, none, "\x1bOP"},
		{"f4", tea.KeyMsg{Type: tea.KeyF4}, app, "\x1bOS"},
		{"f5", tea.KeyMsg{Type: tea.KeyF5}, none, "\x1b[15~"},
		{"f12", tea.KeyMsg{Type: tea.KeyF12}, none, "\x1b[24~"},
		{"f13", tea.KeyMsg{Type: tea.KeyF13}, none, "\x1b[1;2P"},
		{"paste, plain", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a\nb"), Paste: true}, none, "a\rb"},
		{"paste, bracketed", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x y"), Paste: true}, vtscreen.InputModes{BracketedPaste: true}, "\x1b[200~x y\x1b[201~"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, string(Key(c.k, c.m)), c.name)
	}
	require.Nil(t, Key(tea.KeyMsg{Type: tea.KeyType(-999)}, none), "an unknown key sends nothing")
}

// Only a cursor key without modifiers and a paste depend on the modes
// the program asked for: modified keys are CSI in either cursor mode.
func TestModeDependent(t *testing.T) {
	require.True(t, ModeDependent(tea.KeyMsg{Type: tea.KeyUp}))
	require.True(t, ModeDependent(tea.KeyMsg{Type: tea.KeyEnd}))
	require.True(t, ModeDependent(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x"), Paste: true}))
	require.False(t, ModeDependent(tea.KeyMsg{Type: tea.KeyUp, Alt: true}))
	require.False(t, ModeDependent(tea.KeyMsg{Type: tea.KeyShiftUp}))
	require.False(t, ModeDependent(tea.KeyMsg{Type: tea.KeyF1}))
	require.False(t, ModeDependent(tea.KeyMsg{Type: tea.KeyPgUp}))
	require.False(t, ModeDependent(runes("a")))
}

func TestEveryNamedKeyIsEncoded(t *testing.T) {
	for typ := tea.KeyUp; typ >= tea.KeyF20; typ-- {
		require.NotEmpty(t, Key(tea.KeyMsg{Type: typ}, vtscreen.InputModes{}), "%s", tea.KeyMsg{Type: typ})
	}
	for typ := tea.KeyType(0); typ < 0x20; typ++ {
		require.Equal(t, []byte{byte(typ)}, Key(tea.KeyMsg{Type: typ}, vtscreen.InputModes{}), "%s", tea.KeyMsg{Type: typ})
	}
}

func TestPasteCannotEndItselfEarly(t *testing.T) {
	got := Paste("a\x1b[201~\x1b[2\x1b[201~01~; rm -rf ~\r\n", vtscreen.InputModes{BracketedPaste: true})
	require.Equal(t, "\x1b[200~a; rm -rf ~\r\x1b[201~", string(got))
	require.Equal(t, 1, strings.Count(string(got), "\x1b[201~"))
}

func TestMouse(t *testing.T) {
	press := tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}
	release := tea.MouseMsg{Action: tea.MouseActionRelease, Button: tea.MouseButtonLeft}
	drag := tea.MouseMsg{Action: tea.MouseActionMotion, Button: tea.MouseButtonLeft}
	move := tea.MouseMsg{Action: tea.MouseActionMotion, Button: tea.MouseButtonNone}
	wheel := tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown}
	ctrlPress := tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonRight, Ctrl: true, Shift: true}
	sgr := func(t vtscreen.MouseTracking) vtscreen.InputModes {
		return vtscreen.InputModes{Mouse: t, MouseSGR: true}
	}
	legacy := func(t vtscreen.MouseTracking) vtscreen.InputModes { return vtscreen.InputModes{Mouse: t} }
	cases := []struct {
		name string
		ev   tea.MouseMsg
		m    vtscreen.InputModes
		want string
	}{
		{"no tracking", press, vtscreen.InputModes{}, ""},
		{"sgr press", press, sgr(vtscreen.MouseNormal), "\x1b[<0;5;3M"},
		{"sgr release", release, sgr(vtscreen.MouseNormal), "\x1b[<0;5;3m"},
		{"sgr wheel", wheel, sgr(vtscreen.MouseNormal), "\x1b[<65;5;3M"},
		{"sgr modifiers", ctrlPress, sgr(vtscreen.MouseNormal), "\x1b[<22;5;3M"},
		{"drag not asked for", drag, sgr(vtscreen.MouseNormal), ""},
		{"drag", drag, sgr(vtscreen.MouseButton), "\x1b[<32;5;3M"},
		{"move not asked for", move, sgr(vtscreen.MouseButton), ""},
		{"move", move, sgr(vtscreen.MouseAny), "\x1b[<35;5;3M"},
		{"legacy press", press, legacy(vtscreen.MouseNormal), "\x1b[M\x20\x25\x23"},
		{"legacy release", release, legacy(vtscreen.MouseNormal), "\x1b[M\x23\x25\x23"},
		{"x10 press", ctrlPress, legacy(vtscreen.MouseX10), "\x1b[M\x22\x25\x23"},
		{"x10 release", release, legacy(vtscreen.MouseX10), ""},
	}
	for _, c := range cases {
		require.Equal(t, c.want, string(Mouse(c.ev, 4, 2, c.m)), c.name)
	}
	require.Nil(t, Mouse(press, 240, 2, legacy(vtscreen.MouseNormal)), "legacy cannot say column 241")
	require.Equal(t, "\x1b[<0;241;3M", string(Mouse(press, 240, 2, sgr(vtscreen.MouseNormal))))
	require.Nil(t, Mouse(press, -1, 2, sgr(vtscreen.MouseNormal)), "outside the screen")
}

// The wheel on a full-screen program that did not ask for the mouse is
// three cursor keys a notch, in the cursor key mode it asked for.
func TestWheel(t *testing.T) {
	up := tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp}
	down := tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown}
	require.Equal(t, "\x1b[A\x1b[A\x1b[A", string(Wheel(up, vtscreen.InputModes{})))
	require.Equal(t, "\x1b[B\x1b[B\x1b[B", string(Wheel(down, vtscreen.InputModes{})))
	require.Equal(t, "\x1bOA\x1bOA\x1bOA", string(Wheel(up, vtscreen.InputModes{AppCursor: true})))
	require.Nil(t, Wheel(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelLeft}, vtscreen.InputModes{}))
	require.Nil(t, Wheel(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}, vtscreen.InputModes{}))
	require.Nil(t, Wheel(tea.MouseMsg{Action: tea.MouseActionRelease, Button: tea.MouseButtonWheelUp}, vtscreen.InputModes{}))
}
