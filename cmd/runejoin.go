package cmd

import (
	"reflect"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
)

// runeJoiner is the TUI's model behind a mend for Bubble Tea v1.3.10's key
// reader. That reader takes 256 bytes at a time and, when a read ends
// inside a UTF-8 character, reports the character's bytes one by one as
// invalid input (an unexported message type holding a byte) instead of
// waiting for the rest: a fast paste without bracketed paste (tmux
// paste-buffer, xdotool, an ssh link) lost every é, 日 or 👍 that straddled
// a read. runeJoiner holds such bytes until they make a character and
// hands the model that character as typed text; bytes that make none go
// on as they came.
//
// (Reading the terminal through a reader of our own instead would make
// Bubble Tea give that reader, not the terminal, to commands it runs, such
// as the pager, and hang the TUI after them.)
type runeJoiner struct {
	tea.Model
	held  []byte
	heldM []tea.Msg
}

// Update passes msg on, joining the bytes of a cut character first.
func (m *runeJoiner) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	b, isByte := invalidInputByte(msg)
	switch {
	case isByte && (len(m.held) > 0 || utf8.RuneStart(b) && b >= utf8.RuneSelf):
		m.held = append(m.held, b)
		m.heldM = append(m.heldM, msg)
		if !utf8.FullRune(m.held) {
			return m, nil
		}
		r, size := utf8.DecodeRune(m.held)
		if r != utf8.RuneError && size == len(m.held) {
			m.held, m.heldM = m.held[:0], m.heldM[:0]
			return m, m.pass(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		}
		return m, m.flush()
	case len(m.held) > 0:
		return m, tea.Batch(m.flush(), m.pass(msg))
	}
	return m, m.pass(msg)
}

// flush passes on the held bytes as they came.
func (m *runeJoiner) flush() tea.Cmd {
	var cmds []tea.Cmd
	for _, h := range m.heldM {
		cmds = append(cmds, m.pass(h))
	}
	m.held, m.heldM = m.held[:0], m.heldM[:0]
	return tea.Batch(cmds...)
}

func (m *runeJoiner) pass(msg tea.Msg) tea.Cmd {
	next, cmd := m.Model.Update(msg)
	m.Model = next
	return cmd
}

// bubbleteaPkg is the package whose byte-typed message is invalid input.
var bubbleteaPkg = reflect.TypeFor[tea.KeyMsg]().PkgPath()

// invalidInputByte is the byte of Bubble Tea's invalid-input message (the
// only message of its with a byte underneath).
func invalidInputByte(msg tea.Msg) (byte, bool) {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Uint8 || v.Type().PkgPath() != bubbleteaPkg {
		return 0, false
	}
	return byte(v.Uint()), true
}
