package ui

import tea "github.com/charmbracelet/bubbletea"

// ShutdownMsg tells the TUI that its instance was asked to shut down
// (jobtop shutdown): it stops every job with its grace rules and quits,
// without asking, as after "y" to the quit question.
type ShutdownMsg struct{}

// handleShutdown closes what is open and stops every job; the program
// quits once none is live.
func (m *Model) handleShutdown() tea.Cmd {
	m.prompt, m.find, m.confirm = nil, nil, nil
	m.setNotice("jobtop shutdown: stopping every job", false)
	return m.stopAll()
}
