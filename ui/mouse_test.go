package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

func click(m *Model, x, y int) {
	m.Update(tea.MouseMsg{X: x, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
}

func wheel(m *Model, x, y int, b tea.MouseButton) {
	m.Update(tea.MouseMsg{X: x, Y: y, Action: tea.MouseActionPress, Button: b})
}

func TestMouseFocusesScrollsAndSelects(t *testing.T) {
	m, _ := splitModel(t)
	press(t, m, "space", "j", "space", "s")
	left, right := m.screen.panes[0], m.screen.panes[1]

	click(m, right.x+5, right.y+3)
	require.Equal(t, focusOutput, m.focus)
	require.Equal(t, 1, m.active, "a click focuses the pane under it")

	wheel(m, left.x+5, left.y+3, tea.MouseButtonWheelUp)
	require.False(t, m.split[0].Following(), "the wheel scrolls the pane under the pointer")
	require.True(t, m.split[1].Following(), "not the focused one")
	require.Equal(t, "alpha 97", paneText(m.split[0])[len(m.split[0].rows)-1])
	require.Equal(t, 1, m.active, "scrolling does not move the focus")
	wheel(m, left.x+5, left.y+3, tea.MouseButtonWheelDown)
	require.True(t, m.split[0].Following(), "back at the bottom it follows again")

	// Row 3 of the table (under its header) is job 3.
	click(m, 10, 3)
	require.Equal(t, focusTable, m.focus)
	sel, _ := m.table.Selected()
	require.Equal(t, jobs.ID(3), sel.ID)
	wheel(m, 10, 2, tea.MouseButtonWheelDown)
	sel, _ = m.table.Selected()
	require.Equal(t, jobs.ID(4), sel.ID, "the wheel over the table moves the selection")

	// Releases and motion do nothing.
	m.Update(tea.MouseMsg{X: right.x + 5, Y: right.y + 3, Action: tea.MouseActionRelease, Button: tea.MouseButtonLeft})
	require.Equal(t, focusTable, m.focus)
}
