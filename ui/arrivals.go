package ui

import (
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// noteArrivals says in the status bar which jobs appeared that this TUI
// did not start: from jobtop run in another terminal, an agent, or a
// reload asked for elsewhere. Jobs it starts itself (the add prompt, R)
// get their own notice when the action is done.
func (m *Model) noteArrivals(added []jobs.Info) {
	if len(added) == 0 || m.starting > 0 || m.reloading || m.ownStarting {
		return
	}
	if len(added) == 1 {
		j := added[0]
		m.setNotice(jobLabel(j)+" started from outside this TUI", false)
		return
	}
	names := make([]string, 0, len(added))
	for _, j := range added {
		names = append(names, strings.TrimPrefix(jobLabel(j), "job "))
	}
	m.setNotice(plural(len(added), "job")+" started from outside this TUI: "+strings.Join(names, ", "), false)
}

// finishOwnStarts sees whether the engine is done starting jobs of its
// own. Once it is, the table takes them all in at once: their "added"
// events still on their way are no news from outside either. While
// every job is being stopped, those it takes in are stopped too.
func (m *Model) finishOwnStarts() tea.Cmd {
	if !m.ownStarting {
		return nil
	}
	if _, _, done := m.engine.(OwnStarter).OwnStarts(); !done {
		return nil
	}
	m.ownStarting = false
	return m.stopLate(m.takeNewJobs())
}

// ownStartsText is the status bar's word on the engine's own start:
// "starting 537/1000 jobs", "" when it is done.
func (m *Model) ownStartsText() string {
	if !m.ownStarting {
		return ""
	}
	started, total, _ := m.engine.(OwnStarter).OwnStarts()
	return "starting " + strconv.Itoa(started) + "/" + strconv.Itoa(total) + " jobs"
}

// takeNewJobs puts the engine's jobs that the table lacks into it, so
// their "added" events, still on their way, are not news from outside.
func (m *Model) takeNewJobs() (added []jobs.Info) {
	for _, info := range m.engine.List() {
		if _, ok := m.table.Get(info.ID); !ok {
			m.table.Upsert(info)
			m.names.set(info)
			added = append(added, info)
		}
	}
	if len(added) > 0 {
		m.syncAll()
	}
	return added
}
