package ui

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// tickInterval is how often run times are redrawn while jobs run.
const tickInterval = time.Second

// jobEventsMsg is one batch of job events from the engine (at most one
// per frame).
type jobEventsMsg struct{ events []jobs.Event }

// eventsClosedMsg says the engine closed the event stream.
type eventsClosedMsg struct{}

// tickMsg redraws run times.
type tickMsg struct{}

// waitForEvents waits for the next batch of job events. Update issues it
// again after each batch, so exactly one wait is outstanding.
func waitForEvents(s jobs.EventStream) tea.Cmd {
	return func() tea.Msg {
		batch, ok := <-s.C()
		if !ok {
			return eventsClosedMsg{}
		}
		return jobEventsMsg{events: batch}
	}
}

// handleJobEvents applies a batch: table rows, notices for jobs that
// ended, the output pane when its job wrote or changed.
func (m *Model) handleJobEvents(events []jobs.Event) tea.Cmd {
	paneDirty := false
	for _, ev := range events {
		switch ev.Kind {
		case jobs.EventRemoved:
			m.table.Remove(ev.Job.ID)
		default:
			old, existed := m.table.Upsert(ev.Job)
			if existed && old.State != ev.Job.State {
				m.noteTransition(ev.Job)
			}
			if ev.Job.ID == m.pane.JobID() {
				paneDirty = true
			}
		}
	}
	m.syncPane()
	if paneDirty {
		m.pane.refresh()
	}
	cmds := []tea.Cmd{waitForEvents(m.stream), m.ensureTick()}
	if m.quit == quitStopping && m.liveJobs() == 0 {
		cmds = append(cmds, m.quitNow())
	}
	return tea.Batch(cmds...)
}

// noteTransition puts a notice in the status bar when a job ends.
func (m *Model) noteTransition(info jobs.Info) {
	name := "job " + info.ID.String()
	switch info.State {
	case jobs.StateSucceeded:
		m.setNotice(name+" finished", false)
	case jobs.StateFailed:
		code := -1
		if info.ExitCode != nil {
			code = *info.ExitCode
		}
		m.setNotice(fmt.Sprintf("%s failed (exit %d)", name, code), true)
	case jobs.StateKilled:
		if info.Signal != 0 {
			m.setNotice(fmt.Sprintf("%s killed (%s)", name, info.Signal), false)
		} else {
			m.setNotice(name+" killed", false)
		}
	case jobs.StateTimedOut:
		m.setNotice(name+" timed out", true)
	case jobs.StateError:
		m.setNotice(name+" could not start: "+info.Error, true)
	}
}

// liveJobs counts jobs that are running, stopping or waiting to run.
func (m *Model) liveJobs() int {
	n := 0
	for _, j := range m.table.Jobs() {
		if j.State.Active() || j.State == jobs.StateQueued {
			n++
		}
	}
	return n
}

// ensureTick starts the run-time clock when a job runs and none is
// ticking.
func (m *Model) ensureTick() tea.Cmd {
	if m.ticking || m.liveJobs() == 0 {
		return nil
	}
	m.ticking = true
	return tea.Tick(tickInterval, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *Model) handleTick() tea.Cmd {
	m.ticking = false
	m.table.SetNow(m.now())
	return m.ensureTick()
}
