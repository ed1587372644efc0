package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// hostsTestEngine is a HostsEngine over a real manager whose jobs it
// labels with hosts, as control.Hosts does: labels maps a job's ID to
// its host and its ID there. status is what HostStatus reports.
type hostsTestEngine struct {
	*jobs.Manager
	labels map[jobs.ID]jobs.Info
	status []HostStatus
}

func (e *hostsTestEngine) HostStatus() []HostStatus { return e.status }

func (e *hostsTestEngine) label(info jobs.Info) jobs.Info {
	if l, ok := e.labels[info.ID]; ok {
		info.Host, info.HostID = l.Host, l.HostID
	}
	return info
}

func (e *hostsTestEngine) List() []jobs.Info {
	list := e.Manager.List()
	for i := range list {
		list[i] = e.label(list[i])
	}
	return list
}

func (e *hostsTestEngine) Get(id jobs.ID) (jobs.Info, error) {
	info, err := e.Manager.Get(id)
	return e.label(info), err
}

// hostsModel is a model over three running jobs on three hosts: job 3 of
// build-box, job 3 of local, job 12 of gpu.
func hostsModel(t *testing.T, width int, status []HostStatus) (*Model, *hostsTestEngine, time.Time) {
	t.Helper()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	e := &hostsTestEngine{Manager: newManager(t), status: status, labels: map[jobs.ID]jobs.Info{
		1: {Host: "build-box", HostID: 3}, 2: {Host: "local", HostID: 3}, 3: {Host: "gpu", HostID: 12},
	}}
	for _, name := range []string{"web", "tests", "train"} {
		start(t, e.Manager, name, "echo "+name+"; exec sleep 60")
	}
	m := newSizedModel(t, e, Config{Attached: true, Now: func() time.Time { return now }}, width, 20)
	return m, e, now
}

// hostedEvent is an event about job id with its host's labels.
func hostedEvent(e *hostsTestEngine, kind jobs.EventKind, id jobs.ID, state jobs.State) jobs.Event {
	info, _ := e.Get(id)
	info.State = state
	return jobs.Event{Kind: kind, Job: info}
}

// The table shows a HOST column, and each job's ID on its host: two
// hosts' job 3 are two rows.
func TestHostColumnShowsEachJobsHostAndItsIDThere(t *testing.T) {
	m, _, _ := hostsModel(t, 120, []HostStatus{{Name: "build-box", Connected: true}, {Name: "local", Connected: true}, {Name: "gpu", Connected: true}})
	lines := strings.Split(m.View(), "\n")
	require.Regexp(t, `^\s+ID HOST\s+NAME\s+STATUS`, lines[0])
	assert.Regexp(t, `^▸\s+3 build-box\s+web\s+● running`, lines[1])
	assert.Regexp(t, `^\s+3 local\s+tests\s+● running`, lines[2])
	assert.Regexp(t, `^\s+12 gpu\s+train\s+● running`, lines[3])
	assert.Contains(t, m.View(), "job 3 web on build-box", "the pane header names the host")
	for _, l := range lines {
		assert.LessOrEqual(t, textWidth(l), 120)
	}
}

// However narrow the terminal, the HOST column keeps every line within
// it.
func TestHostColumnFitsEveryWidth(t *testing.T) {
	m, _, _ := hostsModel(t, 120, []HostStatus{{Name: "build-box", Connected: true}})
	for w := 30; w <= 140; w += 7 {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 20})
		for i, l := range strings.Split(m.View(), "\n") {
			require.LessOrEqual(t, textWidth(l), w, "width %d, line %d: %q", w, i, l)
		}
	}
}

// The status bar shows each host, and for one that dropped, the countdown
// to the next attempt, then that an attempt is under way, and why the
// last one failed; once back, the host's name alone.
func TestStatusBarShowsEachHostsConnection(t *testing.T) {
	m, e, now := hostsModel(t, 160, nil)
	e.status = []HostStatus{{Name: "build-box", Connected: true}, {Name: "gpu", RetryAt: now.Add(2 * time.Second)}}
	m.Update(jobEventsMsg{events: []jobs.Event{}}) // the engine's wake-up: an empty batch
	status := m.statusView()
	assert.Contains(t, status, "build-box gpu: disconnected, retrying in 2s")
	assert.Contains(t, status, "● 3 running", "the job counts stay")

	e.status[1].RetryAt = now.Add(1500 * time.Millisecond)
	assert.Contains(t, m.statusView(), "gpu: disconnected, retrying in 2s", "rounded up")
	e.status[1].RetryAt = now.Add(-time.Second)
	assert.Contains(t, m.statusView(), "gpu: disconnected, retrying in 1s", "never in 0s")
	e.status[1].RetryAt = time.Time{}
	assert.Contains(t, m.statusView(), "gpu: disconnected, reconnecting")

	// Attempts that fail say why, in ssh's words, all along.
	e.status[1].Why = "ssh said: me@gpu: Permission denied (publickey)."
	assert.Contains(t, m.statusView(), "gpu: disconnected, reconnecting; ssh said: me@gpu: Permission denied (publickey).")
	e.status[1].RetryAt = now.Add(2 * time.Second)
	assert.Contains(t, m.statusView(), "gpu: disconnected, retrying in 2s; ssh said: me@gpu: Permission denied (publickey).")

	e.status[1] = HostStatus{Name: "gpu", Connected: true}
	assert.NotContains(t, m.statusView(), "disconnected")
	assert.Contains(t, m.statusView(), "build-box gpu")
}

// Notices name a job by its ID on its host, and the host.
func TestNoticesNameTheJobsHost(t *testing.T) {
	m, e, _ := hostsModel(t, 160, nil)
	m.Update(jobEventsMsg{events: []jobs.Event{hostedEvent(e, jobs.EventState, 3, jobs.StateKilled)}})
	assert.Contains(t, m.statusView(), "job 12 train on gpu")
	start(t, e.Manager, "eval", "exec sleep 60")
	e.labels[4] = jobs.Info{Host: "gpu", HostID: 7}
	m.Update(jobEventsMsg{events: []jobs.Event{hostedEvent(e, jobs.EventAdded, 4, jobs.StateRunning)}})
	assert.Contains(t, m.statusView(), "job 7 eval on gpu started from outside this TUI")
}

// A key refused on a job of another host names it as the table does:
// its ID there and its host, not the merged table's row ID.
func TestRefusalNamesTheJobsHost(t *testing.T) {
	m, e, _ := hostsModel(t, 160, nil)
	m.Update(jobEventsMsg{events: []jobs.Event{hostedEvent(e, jobs.EventState, 3, jobs.StateKilled)}})
	press(t, m, "G")
	press(t, m, "X")
	assert.Contains(t, m.statusView(), "cannot kill job 12 on gpu: it has ended (killed)")
}

// A refusal on a job of a far host keeps its reason on screen at 80 and
// 100 columns, beside two hosts in the status bar, one of them named as
// --host gives it (127.0.0.1:34055): the reason was cut off after the
// host's name.
func TestRefusalOfAFarJobFitsWithItsReason(t *testing.T) {
	for _, width := range []int{80, 100} {
		m, e, _ := hostsModel(t, width, nil)
		e.labels[3] = jobs.Info{Host: "127.0.0.1:34055", HostID: 4}
		e.status = []HostStatus{{Name: "127.0.0.1:34055", Connected: true}, {Name: "local", Connected: true}}
		m.Update(jobEventsMsg{events: []jobs.Event{hostedEvent(e, jobs.EventState, 3, jobs.StateKilled)}})
		press(t, m, "G")
		press(t, m, "x")
		view := m.View()
		assert.Contains(t, view, "cannot stop job 4 on 127.0.0.1:34055: it has ended (killed)", "width %d", width)
		for i, l := range strings.Split(view, "\n") {
			require.LessOrEqual(t, textWidth(l), width, "width %d, line %d: %q", width, i, l)
		}
	}
}

// A plain engine shows no HOST column and no hosts in the status bar.
func TestNoHostColumnForOneInstance(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "sleep 60")
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	assert.NotContains(t, strings.Split(m.View(), "\n")[0], "HOST")
	assert.Equal(t, "", m.hostsView())
}

// o opens a job's log only when the file is on this machine: a job on
// another host says where its log is, and nothing runs.
func TestPagerOfAJobOnAnotherHost(t *testing.T) {
	m, e, _ := hostsModel(t, 160, nil)
	far := hostedEvent(e, jobs.EventState, 1, jobs.StateRunning)
	far.Job.LogPath = "/nowhere/on/this/machine/web.log"
	far.Job.LogFiles = nil
	m.Update(jobEventsMsg{events: []jobs.Event{far}})
	_, cmd := m.Update(keyMsg("o"))
	assert.Nil(t, cmd, "no pager runs")
	assert.Contains(t, m.statusView(), "job 3 web on build-box: its log file is on build-box (/nowhere/on/this/machine/web.log)")

	// A job of a host whose log is here (the same machine) opens.
	m.Update(keyMsg("j"))
	_, cmd = m.Update(keyMsg("o"))
	assert.NotNil(t, cmd, "the pager runs")
}

// A host whose connection came back to another instance (the old one
// crashed, and a new one runs there) says so: its jobs left the table
// with the old instance, and would go without a word. The removals of
// its old jobs, before or after, do not cover it.
func TestStatusBarSaysAHostsInstanceWasReplaced(t *testing.T) {
	m, e, _ := hostsModel(t, 200, nil)
	e.status = []HostStatus{{Name: "build-box", Connected: true}, {Name: "gpu", Connected: true}}
	m.Update(jobEventsMsg{events: []jobs.Event{}})
	assert.NotContains(t, m.statusView(), "replaced")

	m.table.Select(3) // job 12 train on gpu
	e.status[1] = HostStatus{Name: "gpu", Connected: true, Replaced: 1, Instance: "serve (pid 4242)"}
	m.Update(jobEventsMsg{events: []jobs.Event{}}) // the connection's change
	want := "the jobtop instance on gpu was replaced by serve (pid 4242): its jobs ended with it"
	assert.Contains(t, m.statusView(), want)
	m.Update(jobEventsMsg{events: []jobs.Event{hostedEvent(e, jobs.EventRemoved, 3, jobs.StateRunning)}})
	assert.Contains(t, m.statusView(), want, "the old job's removal after it")

	// Told once; a second replacement is told again.
	m.Update(jobEventsMsg{events: []jobs.Event{hostedEvent(e, jobs.EventState, 1, jobs.StateKilled)}})
	assert.NotContains(t, m.statusView(), "replaced")
	m.Update(jobEventsMsg{events: []jobs.Event{}})
	assert.NotContains(t, m.statusView(), "replaced")
	e.status[1].Replaced = 2
	m.Update(jobEventsMsg{events: []jobs.Event{}})
	assert.Contains(t, m.statusView(), want)
}

// A host whose instance shut down says so, not "reconnecting": it is not
// connected to again.
func TestStatusBarSaysAHostShutDown(t *testing.T) {
	m, e, _ := hostsModel(t, 200, nil)
	e.status = []HostStatus{{Name: "build-box", Connected: true}, {Name: "gpu", ShutDown: true}}
	m.Update(jobEventsMsg{events: []jobs.Event{}})
	assert.Contains(t, m.statusView(), "gpu: shut down")
	assert.NotContains(t, m.statusView(), "reconnecting")
}

// With several hosts, each host's limit on jobs running at once is shown
// beside its name (a host without one shows its name alone), as its
// status says it now; with one host the limit is the engine's, beside
// the counts, and not said twice.
func TestStatusBarShowsEachHostsLimit(t *testing.T) {
	m, e, _ := hostsModel(t, 160, nil)
	e.status = []HostStatus{{Name: "build-box", Connected: true, MaxRunning: 4}, {Name: "gpu", Connected: true}}
	m.Update(jobEventsMsg{events: []jobs.Event{}}) // the engine's wake-up: an empty batch
	assert.Contains(t, m.statusView(), "build-box: at most 4 gpu")

	e.status[1].MaxRunning = 2 // jobtop parallel 2 on gpu
	m.Update(jobEventsMsg{events: []jobs.Event{}})
	assert.Contains(t, m.statusView(), "build-box: at most 4 gpu: at most 2")

	e.status = []HostStatus{{Name: "build-box", Connected: true, MaxRunning: 4}}
	assert.NotContains(t, m.hostsView(), "at most")
}
