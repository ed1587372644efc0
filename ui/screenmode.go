package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/vtscreen"
)

// screenPollInterval is how soon a pane whose screen just changed looks
// again: the emulator draws off the job's read path, so the frame a job
// event finds can be one write short of what the program drew, and a
// quiet program sends no event after its last write.
const screenPollInterval = 40 * time.Millisecond

// screenPollMsg asks the screen panes on screen for newer frames.
type screenPollMsg struct{}

// syncScreens puts each pane whose job is in screen mode (a full-screen
// program on a TTY) in screen mode, and the others back in line mode.
func (m *Model) syncScreens() {
	se, _ := m.engine.(ScreenEngine)
	for _, p := range m.allPanes() {
		id := p.JobID()
		info, ok := m.table.Get(id)
		if se == nil || !ok || id == 0 || !info.Screen {
			p.SetScreen(nil)
			continue
		}
		p.SetScreen(func() (vtscreen.Snapshot, error) { return se.Screen(id) })
	}
}

// pollScreens arms the poll when a screen on screen showed a new frame
// since the last look, so its last frame is never missed.
func (m *Model) pollScreens() tea.Cmd {
	changed := false
	for _, p := range m.drawn() {
		if p.scr != nil && p.scr.fresh {
			p.scr.fresh = false
			changed = true
		}
	}
	if !changed || m.screenPolling {
		return nil
	}
	m.screenPolling = true
	return tea.Tick(screenPollInterval, func(time.Time) tea.Msg { return screenPollMsg{} })
}

// handleScreenPoll looks for new frames of the screens on screen.
func (m *Model) handleScreenPoll() {
	m.screenPolling = false
	for _, p := range m.drawn() {
		if p.scr != nil {
			p.refresh()
		}
	}
}
