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
//
// Text typed for a job is never read as jobtop's keys: input mode lasts
// until the leave key, across the job's runs. Between runs keys are
// dropped; the next run gets them. When what it typed into goes (the job
// was removed, its pane went or lost it, something covers the screen),
// input mode ends, but keys are still dropped (lost says why) until the
// leave key: the person typing may not have seen it go. Hiding ended
// jobs (H) does not take the job typed into away when its run ends: it
// stays in its row and pane until input mode is left (KeepTyped).
type inputMode struct {
	id   jobs.ID // 0 when not in input mode
	pane *outputPane
	name string // the job's label, kept for when it is removed
	lost string // why input mode ended by itself; "" when it did not
	// leftLost: the leave key just ended a lost input mode. A leave key
	// right after it is the second of a pair typed for the job that went
	// (ctrl+a ctrl+a types one ctrl+a): dropped, not taken as typing
	// into the job the pane shows now.
	leftLost bool
}

// on reports whether keys go to a job (or would, between its runs).
func (in inputMode) on() bool { return in.id != 0 }

// takesKeys reports whether keys are input mode's: sent to the job,
// or dropped until the leave key.
func (in inputMode) takesKeys() bool { return in.id != 0 || in.lost != "" }

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

// selectedTypable reports whether the job selected in the table could
// be typed into once its pane has the focus (TableInput).
func (m *Model) selectedTypable() bool {
	sel, ok := m.table.Selected()
	return ok && m.terminal() != nil && sel.TTY && sel.State.Active()
}

// noInputNotice says, for i on a job that takes no keys (the key is
// disabled then, and did nothing), why not.
func (m *Model) noInputNotice(info jobs.Info) {
	if m.terminal() == nil || info.ID == 0 {
		return
	}
	switch {
	case !info.TTY && info.Stdin == jobs.StdinPipe:
		m.refuse(jobLabel(info) + " runs on pipes and takes no keys here: jobtop send writes to its stdin")
	case !info.TTY:
		m.refuse(jobLabel(info) + " runs on pipes and takes no keys: run it with --tty (tty: true in a job file) to type into it")
	default:
		m.refuse(jobLabel(info) + " is not running: nothing takes keys")
	}
}

// enterInput starts input mode on the focused pane's job.
func (m *Model) enterInput() {
	info, ok := m.canType()
	if !ok {
		return
	}
	p := m.activePane()
	m.input = inputMode{id: info.ID, pane: p, name: jobLabel(info)}
	m.table.KeepTyped(info.ID) // its run's end hides it not (H)
	p.typing = true
	p.refresh() // the cursor shows
	m.setNotice("", false)
}

// moveInput moves input mode to the focused pane, as a click on it does
// in mprocs and tmux: its job takes the keys when it can be typed into
// (a terminal job that runs); else (a pipe job's pane, the all view)
// input mode ends and the keys are jobtop's again.
func (m *Model) moveInput() {
	m.leaveInput()
	m.enterInput()
}

// leaveInput ends input mode; keys are jobtop's again.
func (m *Model) leaveInput() {
	if p := m.input.pane; p != nil {
		p.typing = false
		p.refresh()
	}
	m.input = inputMode{}
	m.table.KeepTyped(0) // H hides it now if it ended
	m.syncPanes()
}

// jobRuns reports whether the job typed into has a run that takes input.
func (m *Model) jobRuns() bool {
	info, ok := m.table.Get(m.input.id)
	return ok && info.State.Active()
}

// syncInput ends input mode when what it typed into went: the job was
// removed or left the pane, the pane left the screen or lost the focus,
// or something covers the screen. The job's run ending is not one of
// these: keys are dropped until its next run. byPerson says the message
// was the person's own (a click elsewhere): input mode just ends. Else
// keys typed meanwhile are dropped until the leave key.
func (m *Model) syncInput(byPerson bool) {
	if !m.input.on() {
		return
	}
	p := m.input.pane
	info, ok := m.table.Get(m.input.id)
	if ok {
		m.input.name = jobLabel(info)
	}
	var why string
	switch {
	case !ok:
		why = m.input.name + " was removed"
	case p.JobID() != m.input.id || !m.isDrawn(p):
		why = m.input.name + " is no longer shown"
	case !p.focused:
		why = "its pane lost the focus"
	case m.quit != quitNone:
		why = "jobtop is quitting"
	case m.panel != nil || m.prompt != nil || m.find != nil || m.confirm != nil:
		why = "something covers the screen"
	default:
		return
	}
	m.leaveInput()
	if !byPerson {
		m.input.lost = why
	}
}

// handleInputKey sends a key to the job typed into, or leaves input mode.
// Every key goes, ctrl+c and ctrl+l included: only the leave key is
// jobtop's.
func (m *Model) handleInputKey(k tea.KeyMsg) tea.Cmd {
	if key.Matches(k, m.km.LeaveInput) {
		lost := !m.input.on()
		m.leaveInput()
		m.input.leftLost = lost
		return nil
	}
	if !m.input.on() || !m.jobRuns() {
		return nil // typed for a job that is gone or between runs: dropped
	}
	modes := m.input.pane.screenModes()
	if (k.Paste || termkeys.ModeDependent(k)) && !m.input.pane.InScreen() {
		modes = m.lineModes()
	}
	return m.typeBytes(termkeys.Key(k, modes))
}

// handleUnknownSequence takes a CSI sequence the terminal sent that
// Bubble Tea names no key for: a key with modifiers v1 has no type for
// (ctrl+f1 is CSI 1;5P, shift+pgup CSI 5;2~, shift+delete CSI 3;2~). In
// input mode it goes to the job as it came, which is what the terminal
// sent; outside it jobtop has no key for it, and only an open prompt
// sees it, as any message it does not know.
func (m *Model) handleUnknownSequence(seq tea.UnknownCSISequenceMsg) tea.Cmd {
	if m.input.on() {
		if !m.jobRuns() {
			return nil // as a key typed between runs: dropped
		}
		return m.typeBytes(seq)
	}
	if m.input.lost != "" {
		return nil // typed for a job input mode lost: dropped, as keys are
	}
	if m.prompt != nil {
		_, cmd := m.prompt.Update(seq)
		return cmd
	}
	return nil
}

// typeBytes sends bytes to the job typed into.
func (m *Model) typeBytes(b []byte) tea.Cmd {
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
// overTypedPane reports whether the pointer is over the pane typed into.
func (m *Model) overTypedPane(msg tea.MouseMsg) bool {
	for i, d := range m.drawn() {
		if d == m.input.pane {
			return m.screen.panes[i].contains(msg.X, msg.Y)
		}
	}
	return false
}

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
		if !m.jobRuns() {
			modes.Mouse = 0 // between runs, nothing asks for the mouse
		}
		if modes.Mouse == 0 {
			// Not asked for: the wheel scrolls a pane of lines, or of
			// the main screen (to its lines, as a terminal's scrollback);
			// on the alternate screen it is the program's cursor keys,
			// as a terminal sends them (termkeys.Wheel). A click is
			// jobtop's.
			if !p.InScreen() || !p.scr.snap.AltScreen || !tea.MouseEvent(msg).IsWheel() {
				return nil, false
			}
			if !m.jobRuns() {
				return nil, true
			}
			if keys := termkeys.Wheel(msg, modes); keys != nil {
				return m.typeInto(m.input.id, keys), true
			}
			return nil, true
		}
		if x < 0 || y < 0 || x >= p.width || y >= p.bodyHeight() {
			return nil, true
		}
		return m.typeInto(m.input.id, termkeys.Mouse(msg, x, y, modes)), true
	}
	return nil, false
}

// inputStatus is the status bar's word that keys go to a job, or are
// dropped, and how to stop that.
func (m *Model) inputStatus() string {
	badge, leave := m.pal.input.Wrap(" INPUT "), m.km.LeaveInput.Help().Key+" leaves"
	if !m.input.on() {
		return badge + " ended: " + m.input.lost + " · keys are dropped · " + leave
	}
	info, ok := m.table.Get(m.input.id)
	switch {
	case !ok:
		return badge + " keys go to " + m.input.name + " · " + leave
	case info.State.Active():
		return badge + " keys go to " + jobLabel(info) + " · " + leave
	case info.State == jobs.StateQueued:
		return badge + " " + jobLabel(info) + " waits to run again · keys are dropped until it runs · " + leave
	}
	return badge + " " + jobLabel(info) + " has ended · keys are dropped until it runs again · " + leave
}
