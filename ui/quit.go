package ui

import (
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// quitState is where quitting is.
type quitState uint8

const (
	quitNone     quitState = iota
	quitConfirm            // asking whether to stop the jobs and quit
	quitStopping           // stopping the jobs; quit when none is left
)

// requestQuit quits at once when no job is live; otherwise it asks first.
func (m *Model) requestQuit() tea.Cmd {
	if m.liveJobs() == 0 {
		return m.quitNow()
	}
	m.quit = quitConfirm
	return nil
}

// handleQuitKey answers the quit question, or kills everything while the
// jobs are being stopped.
func (m *Model) handleQuitKey(k tea.KeyMsg) tea.Cmd {
	switch m.quit {
	case quitConfirm:
		switch {
		case key.Matches(k, m.km.QuitYes):
			if m.cfg.Attached {
				return m.quitNow()
			}
			return m.stopAll()
		case key.Matches(k, m.km.QuitNo):
			m.quit = quitNone
		}
	case quitStopping:
		if key.Matches(k, m.km.KillAll) {
			return m.endAll(actionKill)
		}
	}
	return nil
}

// quitNow ends the program.
func (m *Model) quitNow() tea.Cmd {
	m.quitting = true
	return tea.Quit
}

// stopAll stops every job with its grace rules; the program quits once
// none is live (see handleJobEvents).
func (m *Model) stopAll() tea.Cmd {
	m.quit = quitStopping
	if m.cfg.OnQuit != nil {
		m.cfg.OnQuit()
	}
	if m.liveJobs() == 0 {
		return m.quitNow()
	}
	var cancel tea.Cmd
	if c, ok := m.engine.(OwnStarter); ok {
		cancel = func() tea.Msg { c.CancelStarts(); return nil }
	}
	return tea.Batch(cancel, m.endAll(actionStop))
}

// stopLate stops, while every job is being stopped, the jobs that came
// after the stop began (started by the engine or an agent meanwhile), so
// the quit does not wait on them for ever.
func (m *Model) stopLate(added []jobs.Info) tea.Cmd {
	if m.quit != quitStopping {
		return nil
	}
	var cmds []tea.Cmd
	for _, j := range added {
		cmds = append(cmds, m.actQuietly(actionStop, j.ID, true))
	}
	return tea.Batch(cmds...)
}

// endAll stops or kills every job that has not ended, including jobs
// waiting out a restart backoff (the engine cancels those restarts).
func (m *Model) endAll(a action) tea.Cmd {
	var cmds []tea.Cmd
	for _, j := range m.table.Jobs() {
		if a == actionKill && !j.State.Active() && j.State != jobs.StateQueued {
			continue
		}
		cmds = append(cmds, m.actQuietly(a, j.ID, true))
	}
	return tea.Batch(cmds...)
}

// quitView is the status line while quitting.
func (m *Model) quitView() string {
	live := m.liveJobs()
	switch m.quit {
	case quitConfirm:
		if live == 0 { // every job ended while the question was up
			return "no job is running now — quit? y/n"
		}
		if m.cfg.Attached {
			where := "the jobtop you attached to"
			if m.cfg.Instance != "" {
				where = "jobtop " + m.cfg.Instance
			}
			stay := pick(live, "it keeps running", "they keep running")
			if _, queued := m.liveCounts(); queued > 0 {
				stay = pick(live, "it stays", "they stay") // a queued job is not running
			}
			return m.liveText() + " — " + stay + " in " + where + ". quit? y/n"
		}
		return m.liveText() + " — stop " + pick(live, "it", "them") + " and quit? y/n"
	case quitStopping:
		if live == 0 {
			return "all jobs stopped — quitting"
		}
		return "stopping jobs… " + plural(live, "job") + " left — X kills " + pick(live, "it", "them") + " now"
	}
	return ""
}

// liveText says how many jobs run and how many wait for a slot or a
// dependency: "2 jobs running, 31 queued" (a queue is not running).
func (m *Model) liveText() string {
	running, queued := m.liveCounts()
	switch {
	case queued == 0:
		return plural(running, "job") + " running"
	case running == 0:
		return plural(queued, "job") + " queued"
	}
	return plural(running, "job") + " running, " + strconv.Itoa(queued) + " queued"
}

// liveCounts counts the jobs that run (or stop) and those queued.
func (m *Model) liveCounts() (running, queued int) {
	for _, j := range m.table.Jobs() {
		switch {
		case j.State.Active():
			running++
		case j.State == jobs.StateQueued:
			queued++
		}
	}
	return running, queued
}
