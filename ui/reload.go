package ui

import tea "github.com/charmbracelet/bubbletea"

// Reloader is an Engine that can re-read its instance's job file: the
// in-process engine of an instance started with one, or a client of
// another instance's API. Reload applies the file as it is now and says
// what changed in a line ("reloaded jobtop.yaml: 1 added (api)"); a file
// with problems changes nothing and is an error, also one line.
type Reloader interface {
	Reload() (string, error)
}

// reloadDoneMsg reports the end of a reload, run off the Update goroutine.
type reloadDoneMsg struct {
	summary string
	err     error
}

// canReload says whether R applies: the instance has a job file and the
// engine can reload it.
func (m *Model) canReload() bool {
	_, ok := m.engine.(Reloader)
	return ok && m.cfg.JobFile != ""
}

// reload re-reads the job file as a command.
func (m *Model) reload() tea.Cmd {
	r, ok := m.engine.(Reloader)
	if !ok {
		return nil
	}
	m.setNotice("reloading "+m.cfg.JobFile+"…", false)
	m.reloading = true
	return func() tea.Msg {
		summary, err := r.Reload()
		return reloadDoneMsg{summary: summary, err: err}
	}
}

// handleReloadDone shows what the reload did, or why it did nothing.
func (m *Model) handleReloadDone(msg reloadDoneMsg) tea.Cmd {
	m.reloading = false
	m.takeNewJobs() // what the reload added is no news from outside
	if msg.err != nil {
		m.setNotice(msg.err.Error(), true)
		return nil
	}
	m.setNotice(msg.summary, false)
	return nil
}
