package ui

import tea "github.com/charmbracelet/bubbletea"

// wheelRows is how far one wheel step scrolls a pane.
const wheelRows = 3

// handleMouse scrolls the pane under the pointer with the wheel (the
// table's selection over the table), and on a click selects the row or
// focuses the pane under it. Prompts and questions ignore the mouse.
func (m *Model) handleMouse(msg tea.MouseMsg) {
	if m.quit != quitNone || m.prompt != nil || m.find != nil || m.panel != nil {
		return
	}
	wheel := 0
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		wheel = -1
	case tea.MouseButtonWheelDown:
		wheel = 1
	case tea.MouseButtonLeft:
		if msg.Action != tea.MouseActionPress {
			return
		}
	default:
		return
	}
	f := m.screen.frame
	if msg.Y < f.table {
		if wheel != 0 {
			m.table.moveBy(wheel)
			return
		}
		if id, ok := m.table.RowAt(msg.Y); ok {
			m.table.Select(id)
		}
		m.setFocus(focusTable)
		return
	}
	for i, p := range m.drawn() {
		if !m.screen.panes[i].contains(msg.X, msg.Y) {
			continue
		}
		switch {
		case wheel < 0:
			p.scrollUp(wheelRows)
			p.refresh()
		case wheel > 0:
			p.scrollDown(wheelRows)
			p.refresh()
		default:
			if !m.zoom {
				m.active = i
			}
			m.setFocus(focusOutput)
		}
		return
	}
}
