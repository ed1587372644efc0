package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
	"jobtop/ui/termkeys"
	"jobtop/vtscreen"
)

// inputMode is the state of input mode: the job every key goes to, as
// the bytes a terminal would send it (see termkeys), until the leave key.
// It is typed into through the pane that had the focus when it began.
type inputMode struct {
	id   jobs.ID // 0 when not in input mode
	pane *outputPane
}

// on reports whether keys go to a job.
func (in inputMode) on() bool { return in.id != 0 }

// terminal is the engine's terminal face, or nil when it has none.
func (m *Model) terminal() TerminalEngine {
	t, _ := m.engine.(TerminalEngine)
	return t
}

// canType reports whether the focused pane's job can be typed into: a
// job on a terminal that runs.
func (m *Model) canType() (jobs.Info, bool) {
	if m.focus != focusOutput || m.terminal() == nil {
		return jobs.Info{}, false
	}
	id := m.activePane().JobID()
	info, ok := m.table.Get(id)
	return info, ok && id != 0 && info.TTY && info.State.Active()
}

// enterInput starts input mode on the focused pane's job.
func (m *Model) enterInput() {
	info, ok := m.canType()
	if !ok {
		return
	}
	p := m.activePane()
	m.input = inputMode{id: info.ID, pane: p}
	p.typing = true
	p.refresh() // the cursor shows
	m.setNotice("", false)
}

// leaveInput ends input mode; keys are jobtop's again.
func (m *Model) leaveInput() {
	if !m.input.on() {
		return
	}
	if p := m.input.pane; p != nil {
		p.typing = false
		p.refresh()
	}
	m.input = inputMode{}
}

// syncInput ends input mode when what it typed into went: the job ended
// or left the pane, the pane left the screen or lost the focus, or
// something covers the screen.
func (m *Model) syncInput() {
	if !m.input.on() {
		return
	}
	p := m.input.pane
	info, ok := m.table.Get(m.input.id)
	if !ok || !info.State.Active() || p.JobID() != m.input.id || !p.focused || !m.isDrawn(p) ||
		m.quit != quitNone || m.panel != nil || m.prompt != nil || m.find != nil || m.confirm != nil {
		m.leaveInput()
	}
}

// handleInputKey sends a key to the job typed into, or leaves input mode.
// Every key goes, ctrl+c and ctrl+l included: only the leave key is
// jobtop's.
func (m *Model) handleInputKey(k tea.KeyMsg) tea.Cmd {
	if key.Matches(k, m.km.LeaveInput) {
		m.leaveInput()
		return nil
	}
	modes := m.input.pane.screenModes()
	if (k.Paste || termkeys.ModeDependent(k)) && !m.input.pane.InScreen() {
		modes = m.lineModes()
	}
	b := termkeys.Key(k, modes)
	if len(b) == 0 {
		return nil
	}
	if m.input.pane.InScreen() || m.input.pane.follow {
		return m.typeInto(m.input.id, b)
	}
	// Typing shows the newest output, as a terminal scrolls to the
	// bottom on a key.
	m.input.pane.follow = true
	m.input.pane.refresh()
	return m.typeInto(m.input.id, b)
}

// lineModes are the input modes a job in line mode asked for, as the
// engine saw them (a shell asks for bracketed paste at its prompt); none
// when the engine cannot say. It is asked only for what they change: a
// paste into a program that asked for ?2004 must come bracketed, or each
// of its lines runs as typed; a cursor key to one that asked for
// application cursor keys (?1) is ESC O A, not ESC [ A.
func (m *Model) lineModes() vtscreen.InputModes {
	se, ok := m.engine.(ScreenEngine)
	if !ok {
		return vtscreen.InputModes{}
	}
	snap, err := se.Screen(m.input.id)
	if err != nil {
		return vtscreen.InputModes{}
	}
	return snap.Modes
}

// handleInputMouse sends a mouse event over the pane typed into to the
// job, when the job asked for mouse reports; it reports whether the
// event was the job's. Coordinates are the job's screen's, from 0.
func (m *Model) handleInputMouse(msg tea.MouseMsg) (tea.Cmd, bool) {
	p := m.input.pane
	for i, d := range m.drawn() {
		if d != p {
			continue
		}
		r := m.screen.panes[i]
		if !r.contains(msg.X, msg.Y) {
			return nil, false
		}
		x, y := msg.X-r.x, msg.Y-r.y-1 // below the header, or the box's top
		if m.screen.boxed {
			x--
		}
		modes := p.screenModes()
		if modes.Mouse == 0 {
			// Not asked for: the wheel scrolls a pane of lines, or of
			// the main screen (to its lines, as a terminal's scrollback),
			// and does nothing on the alternate screen; a click is
			// jobtop's.
			return nil, p.InScreen() && p.scr.snap.AltScreen && tea.MouseEvent(msg).IsWheel()
		}
		if x < 0 || y < 0 || x >= p.width || y >= p.bodyHeight() {
			return nil, true
		}
		return m.typeInto(m.input.id, termkeys.Mouse(msg, x, y, modes)), true
	}
	return nil, false
}

// inputStatus is the status bar's word that keys go to a job, and how
// to stop that.
func (m *Model) inputStatus() string {
	name := "the job"
	if info, ok := m.table.Get(m.input.id); ok {
		name = jobLabel(info)
	}
	return m.pal.input.Wrap(" INPUT ") + " keys go to " + name + " · " + m.km.LeaveInput.Help().Key + " leaves"
}
