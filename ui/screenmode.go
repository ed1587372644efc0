package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/vtscreen"
)

// screenFrame is the least time between two frames of a screen pane: a
// program that redraws faster is shown at about 30 frames a second, as a
// terminal multiplexer shows it, so that drawing it costs less than the
// program does; a frame after a quiet spell (the echo of a key) is drawn
// at once. It is also how soon a pane whose screen changed looks again:
// the emulator draws off the job's read path, so the frame a job event
// finds can be one write short of what the program drew, and a quiet
// program sends no event after its last write.
const screenFrame = 33 * time.Millisecond

// screenPollMsg asks the screen panes on screen for newer frames.
type screenPollMsg struct{}

// syncScreens puts each pane whose job is in screen mode (a full-screen
// program on a TTY) in screen mode, and the others back in line mode. A
// pane scrolled up from the bottom shows the job's lines, as a
// terminal's scrollback; back at the bottom, it shows the screen again.
func (m *Model) syncScreens() {
	se, _ := m.engine.(ScreenEngine)
	for _, p := range m.allPanes() {
		id := p.JobID()
		info, ok := m.table.Get(id)
		if p.follow || !ok || !info.Screen {
			p.offScreen = false // back at the bottom, or no screen to go back to
		}
		if se == nil || !ok || id == 0 || !info.Screen || !p.follow {
			p.SetScreen(nil)
			continue
		}
		p.SetScreen(func() (vtscreen.Snapshot, error) { return se.Screen(id) })
	}
}

// pollScreens arms the poll while a screen on screen has a frame due or
// just showed a new one, so its last frame is never missed.
func (m *Model) pollScreens() tea.Cmd {
	if m.screenPolling {
		return nil
	}
	for _, p := range m.drawn() {
		if p.scr != nil && (p.scr.fresh || p.scr.due) {
			m.screenPolling = true
			return tea.Tick(screenFrame, func(time.Time) tea.Msg { return screenPollMsg{} })
		}
	}
	return nil
}

// handleScreenPoll draws the frames due, and looks for new frames, of the
// screens on screen. A screen that a job event drew less than screenFrame
// ago is looked at again at the next poll, so that a program redrawing
// all the time is drawn about 30 times a second, not at every event and
// every poll besides.
func (m *Model) handleScreenPoll() {
	m.screenPolling = false
	for _, p := range m.drawn() {
		switch {
		case p.scr == nil:
		case !p.typing && time.Since(p.scr.drawn) < screenFrame:
			p.scr.due = true
		default:
			p.scr.fresh = false
			p.refresh()
		}
	}
}
