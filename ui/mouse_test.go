package ui

import (
	"strings"
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

// timelineLine is the screen line of the timeline's row for a job.
func timelineLine(t *testing.T, m *Model, name string) int {
	t.Helper()
	for y, l := range lines(m.View()) {
		if y >= m.screen.frame.table && y < m.screen.frame.table+m.screen.frame.pane && strings.Contains(l, " "+name) {
			return y
		}
	}
	t.Fatalf("no timeline row for %s:\n%s", name, m.View())
	return 0
}

// The timeline covers the output pane: a click on it selects its row and
// the wheel moves its selection, as over the table; neither reaches the
// pane hidden under it (its keys, its scroll, input mode).
func TestMouseOnTheTimelineSelectsItsRows(t *testing.T) {
	m, _ := splitModel(t)
	press(t, m, "T")
	require.NotNil(t, m.timeline)

	click(m, 30, timelineLine(t, m, "charlie"))
	require.Equal(t, focusTable, m.focus, "the timeline keeps the table's keys")
	sel, _ := m.table.Selected()
	require.Equal(t, jobs.ID(3), sel.ID, "the click selects the row under it")
	require.Contains(t, m.helpView(), "space mark", "the help bar shows the table's keys, not the pane's")

	wheel(m, 30, timelineLine(t, m, "alpha"), tea.MouseButtonWheelDown)
	sel, _ = m.table.Selected()
	require.Equal(t, jobs.ID(4), sel.ID, "the wheel moves the selection")
	require.True(t, m.single.Following(), "the pane under the timeline did not scroll")
	wheel(m, 30, timelineLine(t, m, "alpha"), tea.MouseButtonWheelUp)
	require.True(t, m.single.Following(), "the pane under the timeline did not scroll")
	press(t, m, "k")
	sel, _ = m.table.Selected()
	require.Equal(t, jobs.ID(2), sel.ID, "j/k still move the timeline's selection")
	require.NotNil(t, m.timeline)
}
