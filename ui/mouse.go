package ui

import tea "github.com/charmbracelet/bubbletea"

// wheelRows is how far one wheel step scrolls a pane.
const wheelRows = 3

// handleMouse scrolls the pane under the pointer with the wheel (the
// table's selection over the table and the timeline), and on a click
// selects the row (of the table or the timeline) or focuses the pane
// under it. Prompts and questions ignore the mouse; the wheel scrolls
// an open panel (the help). In input mode, what happens over the pane
// typed into is the job's, the wheel over another pane scrolls it, and
// a click on another pane moves input mode there (moveInput), and goes
// to that job too when it asked for the mouse.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if m.quit != quitNone {
		return nil
	}
	if m.panel != nil { // it covers the screen: the wheel scrolls it
		m.panel.Update(msg)
		return nil
	}
	if m.confirm != nil || m.prompt != nil || m.find != nil {
		return nil
	}
	if m.input.on() {
		if cmd, ok := m.handleInputMouse(msg); ok {
			return cmd
		}
		// Only a click leaves the pane typed into. The wheel scrolls the
		// pane under it, as tmux's does, and the typing goes on; over
		// the table it is nothing (the selection would take the single
		// view's pane, typed into, to another job).
		overPanes := tea.MouseEvent(msg).IsWheel() && msg.Y >= m.screen.frame.table
		if msg.Button != tea.MouseButtonLeft && !m.overTypedPane(msg) && !overPanes {
			return nil
		}
	} else if m.input.lost != "" && msg.Button == tea.MouseButtonLeft && msg.Action == tea.MouseActionPress {
		m.leaveInput() // a click is no typing: the keys are jobtop's again
	}
	wheel := 0
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		wheel = -1
	case tea.MouseButtonWheelDown:
		wheel = 1
	case tea.MouseButtonLeft:
		if msg.Action != tea.MouseActionPress {
			return nil
		}
	default:
		return nil
	}
	f := m.screen.frame
	if msg.Y < f.table {
		if wheel != 0 {
			m.table.moveBy(wheel)
			return nil
		}
		if id, ok := m.table.RowAt(msg.Y); ok {
			m.table.Select(id)
		}
		m.setFocus(focusTable)
		return nil
	}
	if m.timeline != nil {
		// It covers the panes, and keeps the table's keys: the wheel and
		// a click move the selection it shows, as over the table.
		if wheel != 0 {
			m.table.moveBy(wheel)
			return nil
		}
		if id, ok := m.timeline.RowAt(m.table, msg.Y-f.table); ok {
			m.table.Select(id)
		}
		m.setFocus(focusTable)
		return nil
	}
	for i, p := range m.drawn() {
		if !m.screen.panes[i].contains(msg.X, msg.Y) {
			continue
		}
		switch {
		case wheel < 0:
			p.scrollOffScreen(wheelRows)
		case wheel > 0:
			p.scrollDown(wheelRows)
			p.refresh()
		default:
			if !m.zoom {
				m.active = i
			}
			m.setFocus(focusOutput)
			if m.input.on() && p != m.input.pane {
				m.moveInput()
				if m.input.on() {
					// The click is also the job's when it asked for the
					// mouse, in its own coordinates, as tmux passes the
					// click that selects a pane.
					cmd, _ := m.handleInputMouse(msg)
					return cmd
				}
			}
		}
		return nil
	}
	return nil
}
