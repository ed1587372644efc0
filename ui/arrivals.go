package ui

import (
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"jobtop/jobs"
)

// noteArrivals says in the status bar which jobs appeared that this TUI
// did not start: from jobtop run in another terminal, an agent, or a
// reload asked for elsewhere. Jobs it starts itself (the add prompt, R)
// get their own notice when the action is done.
//
// Jobs that arrive one after another (a script's loop of jobtop run
// comes in an event batch each, or a few) share one notice that counts
// them all, while it stands: until another notice replaces it, or
// arrivalsWindow passes with none arriving.
func (m *Model) noteArrivals(added []jobs.Info) {
	if len(added) == 0 || m.starting > 0 || m.reloading || m.ownStarting {
		return
	}
	now := m.now()
	a := &m.arrivals
	if m.notice != a.notice || now.Sub(a.last) > arrivalsWindow {
		*a = arrivals{}
	}
	for _, j := range added {
		a.count++
		if len(a.labels) < maxArrivalLabels {
			a.labels = append(a.labels, jobLabel(j))
		}
	}
	a.last = now
	m.setNotice(a.text(), false)
	a.notice = m.notice
}

// arrivalsWindow is how long after a job arrived from outside the next
// one is counted in its notice.
const arrivalsWindow = 10 * time.Second

// maxArrivalLabels bounds the jobs an arrivals notice names: the status
// bar shows no more, and a notice that stands for hours of agents'
// jobs keeps no list of them all.
const maxArrivalLabels = 20

// arrivals are the jobs a "started from outside" notice counts.
type arrivals struct {
	count  int
	labels []string  // the first maxArrivalLabels of them (jobLabel)
	last   time.Time // when the newest arrived
	notice notice    // the notice, while it stands
}

// text is the notice: "job 7 web started from outside this TUI", or
// "5 jobs started from outside this TUI: 1 a, 2 b, 3 c, 4 d, 5 e", with
// "and 12 more" after the first maxArrivalLabels.
func (a *arrivals) text() string {
	if a.count == 1 {
		return a.labels[0] + " started from outside this TUI"
	}
	names := make([]string, 0, len(a.labels)+1)
	for _, l := range a.labels {
		names = append(names, strings.TrimPrefix(l, "job "))
	}
	if more := a.count - len(a.labels); more > 0 {
		names = append(names, "and "+strconv.Itoa(more)+" more")
	}
	return plural(a.count, "job") + " started from outside this TUI: " + strings.Join(names, ", ")
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
	added := m.takeNewJobs()
	cmds := []tea.Cmd{m.stopLate(added)}
	for i := range added {
		cmds = append(cmds, m.noteFirstSeen(added[i]))
	}
	return tea.Batch(cmds...)
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
