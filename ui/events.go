package ui

import (
	"fmt"
	"io"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// tickInterval is how often run times (and how long ago a job shown
// ended) are redrawn.
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
// ended, the panes that show a job that wrote or changed, the searches
// that have new output to scan, and marks of what was not seen.
func (m *Model) handleJobEvents(events []jobs.Event) tea.Cmd {
	cmds := []tea.Cmd{waitForEvents(m.stream), m.ensureTick()}
	changed := make(map[jobs.ID]bool)
	wrote := make(map[jobs.ID]bool)
	grew := make(map[jobs.ID]bool)           // has output it did not have before
	cmds = append(cmds, m.finishOwnStarts()) // once done, its jobs are no news from outside
	jobsChanged, refilter := false, false
	now := m.now()
	m.table.SetNow(now) // countdowns drawn now, not at the last tick
	var added []jobs.Info
	for _, ev := range events {
		switch ev.Kind {
		case jobs.EventRemoved:
			m.noteRemoved(ev.Job.ID)
			m.table.activity.forget(ev.Job.ID)
			m.table.Remove(ev.Job.ID)
			m.names.forget(ev.Job.ID)
			jobsChanged = true
		default:
			old, existed := m.table.Upsert(ev.Job)
			if !existed {
				m.table.activity.begin(ev.Job.ID, now) // all its lines are new
			}
			m.table.activity.sample(&ev.Job, now)
			m.names.set(ev.Job)
			jobsChanged = jobsChanged || !existed
			if !existed {
				added = append(added, ev.Job)
			}
			if existed && old.State != ev.Job.State {
				cmds = append(cmds, m.noteTransition(ev.Job))
				if old.State.Done() && !ev.Job.State.Done() && m.notice.endOf == ev.Job.ID {
					m.setNotice("", false) // its end is old news: it runs again
				}
				if ev.Job.State == jobs.StateRunning && m.notice.restartOf == ev.Job.ID {
					m.setNotice("restarted "+m.jobRef(ev.Job.ID), false)
				}
			}
			// What the filter looks at; output alone changes none of it.
			refilter = refilter || existed && (old.State != ev.Job.State || old.Name != ev.Job.Name || old.Command != ev.Job.Command)
			if existed && old.Health != ev.Job.Health {
				cmds = append(cmds, m.noteHealth(old, ev.Job))
			}
			changed[ev.Job.ID] = true
			if ev.Kind == jobs.EventOutput {
				wrote[ev.Job.ID] = true
				// An output event can come after the output it is about
				// was already shown: only new lines or bytes count.
				if !existed || ev.Job.Lines != old.Lines || ev.Job.Bytes != old.Bytes {
					grew[ev.Job.ID] = true
				}
			}
		}
	}
	m.recountBulk()
	cmds = append(cmds, m.checkSpoke(now), m.noteReplacedHosts())
	m.noteArrivals(added)
	for i := range added { // its end says more than its arrival
		cmds = append(cmds, m.noteFirstSeen(added[i]))
	}
	cmds = append(cmds, m.stopLate(added))
	if refilter && m.table.Filtering() {
		m.table.Refilter()
	}
	if jobsChanged {
		m.syncAll()
	}
	m.syncPanes()
	for id := range grew {
		if !m.onScreen(id) {
			m.table.Note(id, unseenOutput)
		}
	}
	for _, p := range m.allPanes() {
		cmds = append(cmds, m.paneEvents(p, changed, wrote))
	}
	if m.quit == quitStopping && m.liveJobs() == 0 {
		cmds = append(cmds, m.quitNow())
	}
	return tea.Batch(cmds...)
}

// paneEvents redraws a pane drawn whose jobs changed, and scans the new
// output of its search (drawn or not).
func (m *Model) paneEvents(p *outputPane, changed, wrote map[jobs.ID]bool) tea.Cmd {
	if !p.has {
		return nil
	}
	dirty, fresh := false, false
	if p.kind == allPane {
		dirty, fresh = len(wrote) > 0, len(wrote) > 0
	} else {
		dirty, fresh = changed[p.job.ID], wrote[p.job.ID]
	}
	var cmd tea.Cmd
	if fresh && p.search != nil {
		cmd = p.search.scan(p.base)
	}
	switch {
	case dirty && m.isDrawn(p) && p.scr != nil:
		p.screenWritten()
	case dirty && m.isDrawn(p):
		p.refresh()
	}
	return cmd
}

// isDrawn reports whether a pane is on screen.
func (m *Model) isDrawn(p *outputPane) bool {
	for _, d := range m.drawn() {
		if d == p {
			return true
		}
	}
	return false
}

// noteTransition puts a notice in the status bar when a job ends, marks
// its row when its output is not on screen, and rings the bell (when it
// is on) when it failed. The summary of an action on the marked jobs
// stays up a while over the ends of the jobs it stopped or killed
// (keepSummary).
func (m *Model) noteTransition(info jobs.Info) tea.Cmd {
	if !info.State.Done() {
		return nil
	}
	before := m.notice
	defer m.keepSummary(info.ID, before)
	name := jobLabel(info)
	failed := false
	switch info.State {
	case jobs.StateSucceeded:
		m.setNotice(name+" succeeded", false)
	case jobs.StateFailed:
		code := -1
		if info.ExitCode != nil {
			code = *info.ExitCode
		}
		m.setNotice(fmt.Sprintf("%s failed (exit %d)", name, code), true)
		failed = true
	case jobs.StateKilled:
		if info.Error != "" { // stopped by jobtop itself: unhealthy
			m.setNotice(name+" stopped: "+info.Error, true)
			failed = true
		} else if outside := info.KilledFromOutsideText(); outside != "" {
			if info.PeakRSS > 0 {
				outside += ", peak RSS " + formatBytes(info.PeakRSS)
			}
			m.setNotice(name+" "+outside, true)
			failed = true
		} else if info.Signal != 0 {
			m.setNotice(fmt.Sprintf("%s killed (%s)", name, info.Signal), false)
		} else {
			m.setNotice(name+" killed", false)
		}
	case jobs.StateTimedOut:
		m.setNotice(name+" timed out", true)
		failed = true
	case jobs.StateError:
		m.setNotice(name+" could not start: "+info.Error, true)
		failed = true
	}
	m.notice.endOf = info.ID
	if !m.onScreen(info.ID) {
		m.table.Note(info.ID, unseenEnd)
	}
	if failed {
		return m.alert(m.notice.text)
	}
	return nil
}

// noteFirstSeen tells the end of a job this TUI sees for the first time
// already ended, as noteTransition tells the end it sees happen, when
// the job ended since the TUI began: a command line's job that failed at
// once ended before New listed it, or between two event batches (its
// first event says it ended). A job that ended before the TUI began (an
// attached TUI, or a host reached late, finds it so) is no news.
func (m *Model) noteFirstSeen(info jobs.Info) tea.Cmd {
	if !info.State.Ended() || info.Ended == nil || !info.Ended.After(m.began) {
		return nil
	}
	return m.noteTransition(info)
}

// removingOwn records that this TUI asked for job id's removal: its
// removal event is no other client's doing.
func (m *Model) removingOwn(id jobs.ID) {
	if m.ownRemovals == nil {
		m.ownRemovals = make(map[jobs.ID]bool)
	}
	m.ownRemovals[id] = true
}

// noteRemoved says in the status bar that a job went (removed by another
// client, or by the instance), when it was the selected job or shown in a
// pane: else the selection or the pane moves to another job without a
// word. This TUI's own removal has said it already.
func (m *Model) noteRemoved(id jobs.ID) {
	own := m.ownRemovals[id]
	delete(m.ownRemovals, id)
	info, ok := m.table.Get(id)
	if !ok || own { // this TUI's own d: said by its outcome
		return
	}
	sel, selected := m.table.Selected()
	if !(selected && sel.ID == id) && !m.onScreen(id) {
		return
	}
	if info.Host != "" && info.Host == m.notice.replacedHost {
		return
	}
	before := m.notice
	m.setNotice(jobLabel(info)+" was removed", false)
	m.keepSummary(id, before)
}

// noteHealth puts a notice in the status bar when a running job's health
// check finds it unhealthy (ringing the bell when it is on), or healthy
// again.
func (m *Model) noteHealth(old, info jobs.Info) tea.Cmd {
	name := jobLabel(info)
	switch {
	case info.Health == jobs.HealthUnhealthy:
		m.setNotice(name+" unhealthy: "+label(info.HealthError), true)
		if m.bell {
			return ringBell(m.cfg.Terminal)
		}
	case info.Health == jobs.HealthHealthy && old.Health == jobs.HealthUnhealthy:
		m.setNotice(name+" healthy again", false)
	}
	return nil
}

// ringBell writes BEL to the terminal, off the Update goroutine.
func ringBell(w io.Writer) tea.Cmd {
	if w == nil {
		return nil
	}
	return func() tea.Msg {
		_, _ = w.Write([]byte("\a"))
		return nil
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

// waitsToRestart reports whether j ended and its restart policy runs it
// again after its backoff (its row counts down to it).
func waitsToRestart(j jobs.Info) bool { return j.RestartAt != nil && j.State.Done() }

// showsEndedAgo reports whether a pane's header says how long ago its
// job ended (endedAgo), a time that goes on changing.
func showsEndedAgo(p *outputPane) bool {
	return p.kind == jobPane && p.has && p.job.State.Ended() && p.job.Ended != nil
}

// ensureTick starts the clock when a job runs, or waits to restart, or a
// pane on screen says how long ago its job ended, and none is ticking.
func (m *Model) ensureTick() tea.Cmd {
	if m.ticking || m.liveJobs() == 0 && !slices.ContainsFunc(m.table.Jobs(), waitsToRestart) &&
		!slices.ContainsFunc(m.drawn(), showsEndedAgo) {
		return nil
	}
	m.ticking = true
	return tea.Tick(tickInterval, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *Model) handleTick() tea.Cmd {
	m.ticking = false
	now := m.now()
	m.table.SetNow(now)
	cmds := []tea.Cmd{m.finishOwnStarts(), m.ensureTick(), m.checkSpoke(now)}
	list := m.table.Jobs()
	for i := range list { // by index: an Info is large to copy
		switch {
		case list[i].State.Active(): // the others' changes came as events
			m.table.activity.sample(&list[i], now)
			cmds = append(cmds, m.checkQuiet(&list[i], now))
		case len(m.quiet.since) > 0:
			delete(m.quiet.since, list[i].ID) // ended quiet
		}
	}
	return tea.Batch(cmds...)
}
