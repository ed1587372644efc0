package ui

import (
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// action names something done to a job.
type action string

const (
	actionAdd     action = "start"
	actionStop    action = "stop"
	actionKill    action = "kill"
	actionRestart action = "restart"
	actionRemove  action = "remove"
	actionEdit    action = "edit"
)

// actionDoneMsg reports the end of an action on a job, run off the Update
// goroutine.
type actionDoneMsg struct {
	JobID  jobs.ID
	Action action
	// Info is the job after Start or Restart, or as the engine has it now
	// when an action was refused (its row may have been out of date).
	Info jobs.Info
	Err  error
	// quiet actions (stopping everything on quit) report only errors that
	// matter.
	quiet bool
}

// act runs an action on a job as a command.
func (m *Model) act(a action, id jobs.ID) tea.Cmd {
	return m.actQuietly(a, id, false)
}

func (m *Model) actQuietly(a action, id jobs.ID, quiet bool) tea.Cmd {
	engine := m.engine
	if a == actionRemove {
		m.removingOwn(id)
	}
	return func() tea.Msg {
		msg := actionDoneMsg{JobID: id, Action: a, quiet: quiet}
		switch a {
		case actionStop:
			msg.Err = engine.Stop(id)
		case actionKill:
			msg.Err = engine.Kill(id)
		case actionRestart:
			msg.Info, msg.Err = engine.Restart(id)
		case actionRemove:
			msg.Err = engine.Remove(id)
		}
		var invalid *jobs.InvalidActionError
		if errors.As(msg.Err, &invalid) {
			msg.Info, _ = engine.Get(id)
		}
		return msg
	}
}

// startJob starts a job from the add prompt as a command.
func (m *Model) startJob(spec jobs.Spec) tea.Cmd {
	m.starting++
	engine := m.engine
	return func() tea.Msg {
		info, err := engine.Start(spec)
		return actionDoneMsg{JobID: info.ID, Action: actionAdd, Info: info, Err: err}
	}
}

// openEdit opens the add prompt filled in with a job to edit: one that
// waits to start and never ran is replaced by its edit (when the engine
// can), any other is run again as a new job.
func (m *Model) openEdit(cur jobs.Info) {
	m.prompt = newAddPrompt(&m.km, &m.st, m.started)
	if _, ok := m.engine.(QueuedEditor); ok && cur.State == jobs.StateQueued && cur.Runs == 0 {
		m.prompt.fillQueued(cur)
	} else {
		m.prompt.fill(cur)
	}
}

// replaceQueued gives a queued job that never ran the spec edited in the
// add prompt, as a command (the engine is a QueuedEditor).
func (m *Model) replaceQueued(id jobs.ID, spec jobs.Spec) tea.Cmd {
	editor := m.engine.(QueuedEditor)
	return func() tea.Msg {
		info, err := editor.ReplaceQueued(id, spec)
		return actionDoneMsg{JobID: id, Action: actionEdit, Info: info, Err: err}
	}
}

// handleActionDone reports an action's outcome in the status bar; a job
// just started is selected.
func (m *Model) handleActionDone(msg actionDoneMsg) tea.Cmd {
	if msg.Action == actionAdd && m.starting > 0 {
		m.starting--
	}
	if m.quit == quitStopping && m.liveJobs() == 0 {
		return m.quitNow()
	}
	if msg.Err != nil {
		if msg.Action == actionRemove {
			delete(m.ownRemovals, msg.JobID) // no removal comes: a later one is another's
		}
		var invalid *jobs.InvalidActionError
		if msg.quiet && errors.As(msg.Err, &invalid) {
			return nil // it ended on its own meanwhile
		}
		if msg.Info.ID != 0 {
			m.table.Upsert(msg.Info)
		}
		text := msg.Err.Error()
		if msg.Action == actionEdit && errors.As(msg.Err, &invalid) {
			text += ": e again runs it as a new job (↑ in the prompt brings the edit back)"
		}
		m.setNotice(text, true)
		return nil
	}
	if msg.quiet {
		return nil
	}
	name := m.jobRef(msg.JobID)
	switch msg.Action {
	case actionAdd:
		m.table.Upsert(msg.Info)
		m.table.Select(msg.Info.ID)
		m.flash("started " + name + " (" + msg.Info.Name + ")")
		return m.ensureTick()
	case actionStop:
		m.setNotice("stopping "+name, false)
	case actionKill:
		m.setNotice("killing "+name, false)
	case actionRestart:
		switch {
		case msg.Info.ID == msg.JobID && msg.Info.State == jobs.StateRunning:
			m.flash("restarted " + name)
		case msg.Info.ID == msg.JobID && msg.Info.State == jobs.StateError:
			// Refused at once (a dependency that failed): say why.
			m.setNotice(name+" could not restart: "+msg.Info.Error, true)
		case msg.Info.ID == msg.JobID && msg.Info.State == jobs.StateQueued && msg.Info.Runs == 0:
			// It waits for its first run: there is nothing to restart.
			m.setNotice(name+" is queued: it has not started yet", false)
		default:
			m.setNotice("restarting "+name, false)
			m.notice.restartOf = msg.JobID // until its new run starts
		}
		return m.ensureTick()
	case actionRemove:
		m.flash("removed " + name)
	case actionEdit:
		m.table.Upsert(msg.Info)
		m.flash("edited " + name + " (" + msg.Info.Name + "): the edit took its place, the old command never ran")
		return m.ensureTick()
	}
	return nil
}
