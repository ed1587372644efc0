package ui

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// inputRecorder is a manager that keeps every byte the UI sends to its
// jobs' terminals.
type inputRecorder struct {
	*jobs.Manager
	mu   sync.Mutex
	sent []byte
}

func (r *inputRecorder) Input(id jobs.ID, b []byte) error {
	r.mu.Lock()
	r.sent = append(r.sent, b...)
	r.mu.Unlock()
	return r.Manager.Input(id, b)
}

// typed is what the UI sent to the jobs so far.
func (r *inputRecorder) typed() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.sent)
}

// typingInto opens a model on mgr's jobs, waits for the selected job to
// print "ready", and types into its pane; the recorder keeps what the
// model sends.
func typingInto(t *testing.T, mgr *jobs.Manager) (*inputRecorder, *Model) {
	t.Helper()
	rec := &inputRecorder{Manager: mgr}
	m := newSizedModel(t, rec, Config{}, 120, 30)
	pumpUntil(t, m, "ready", func() bool { return slices.Contains(paneRows(m), "ready") })
	press(t, m, "enter", "i")
	return rec, m
}

// requireJob checks a job's state and run count in the engine.
func requireJob(t *testing.T, mgr *jobs.Manager, id jobs.ID, state jobs.State, runs int, msg string) {
	t.Helper()
	info, err := mgr.Get(id)
	require.NoError(t, err)
	require.Equal(t, state, info.State, msg)
	require.Equal(t, runs, info.Runs, msg)
}

// The keys a job's keys commands are bound to, typed as text: not one of
// them may act when typed in input mode.
const commandKeys = "xXrdofiqgG/?aATszHm"

// Input mode outlives the job's run: what is typed between runs is
// dropped (neither sent nor read as jobtop's keys: x would stop, r
// restart, o open the pager, f toggle follow...), the status bar and the
// pane's header say the job ended and that ctrl+a leaves; the next run
// gets the keys.
func TestInputModeOutlivesTheRun(t *testing.T) {
	mgr := newManager(t)
	job := startTTY(t, mgr, "ask", `echo "rea""dy"; read a; echo "got=$a"; exit 3`)
	rec, m := typingInto(t, mgr)
	answerAsk(t, m)

	require.True(t, m.input.on(), "the run ended: input mode goes on")
	view := m.View()
	require.Contains(t, view, " INPUT  job 1 ask has ended · keys are dropped until it runs again · ctrl+a leaves")
	header := lines(view)[m.screen.outputY]
	require.Contains(t, header, "INPUT")
	require.Contains(t, header, "job ended · ctrl+a leaves")
	require.Contains(t, m.helpView(), "ctrl+a leave input mode")

	sent := rec.typed()
	typeText(t, m, commandKeys)
	press(t, m, "enter", "ctrl+c", "ctrl+l", "up", "tab", "space", "esc")
	require.Equal(t, sent, rec.typed(), "nothing is sent between runs")
	requireJob(t, mgr, job.ID, jobs.StateFailed, 1, "no key acted on the job")
	require.True(t, m.input.on())
	require.Equal(t, quitNone, m.quit)
	require.Nil(t, m.panel)
	require.Nil(t, m.prompt)
	require.Nil(t, m.find)
	require.Equal(t, viewSingle, m.mode)
	require.True(t, m.single.Following())
	require.False(t, m.zoom)

	restartElsewhere(t, m, mgr, job.ID)
	require.Contains(t, m.View(), " INPUT  keys go to job 1 ask · ctrl+a leaves")
	require.NotContains(t, lines(m.View())[m.screen.outputY], "job ended")
	answerNextRun(t, m, rec, sent, job.ID)
	requireJob(t, mgr, job.ID, jobs.StateFailed, 2, "x went to the job, not to jobtop")

	press(t, m, "ctrl+a")
	require.False(t, m.input.takesKeys())
	require.NotContains(t, m.View(), "INPUT")
	press(t, m, "r")
	pumpUntil(t, m, "r to restart", func() bool {
		info, ok := m.table.Get(job.ID)
		return ok && info.Runs == 3
	})
}

// The tester's case: a job restarted (from another client) while it is
// typed into gets what is typed next; jobtop reads none of it, also when
// the UI saw the old run end before the new one began.
func TestInputModeAfterARestart(t *testing.T) {
	mgr := newManager(t)
	job := startTTY(t, mgr, "sh", `echo "rea""dy"; while read l; do echo "got:$l"; done`)
	rec, m := typingInto(t, mgr)
	typeText(t, m, "one")
	press(t, m, "enter")
	pumpUntil(t, m, "the echo", func() bool { return slices.Contains(paneRows(m), "got:one") })

	// The batch that shows the old run killed, as the UI gets it when the
	// run ends in a batch of its own (bash -i waits for SIGKILL): events
	// are coalesced, so a real restart shows it only some of the time.
	ended, err := mgr.Get(job.ID)
	require.NoError(t, err)
	ended.State, ended.Signal = jobs.StateKilled, jobs.Signal(9)
	m.Update(jobEventsMsg{events: []jobs.Event{{Kind: jobs.EventState, Job: ended}}})
	require.True(t, m.input.on())
	require.Contains(t, m.View(), "job 1 sh has ended · keys are dropped until it runs again")
	typeText(t, m, "x")
	require.Equal(t, "one\r", rec.typed(), "typed between runs: dropped")
	requireJob(t, mgr, job.ID, jobs.StateRunning, 1, "x did not stop the job")

	_, err = mgr.Restart(job.ID)
	require.NoError(t, err)
	pumpUntil(t, m, "the next run", func() bool {
		info, ok := m.table.Get(job.ID)
		return ok && info.Runs == 2 && info.State == jobs.StateRunning
	})
	require.True(t, m.input.on())
	typeText(t, m, "x=1")
	press(t, m, "enter")
	pumpUntil(t, m, "the echo", func() bool { return slices.Contains(paneRows(m), "got:x=1") })
	typeText(t, m, "echo fix")
	press(t, m, "enter")
	pumpUntil(t, m, "the echo", func() bool { return slices.Contains(paneRows(m), "got:echo fix") })
	require.Equal(t, "one\rx=1\recho fix\r", rec.typed())
	requireJob(t, mgr, job.ID, jobs.StateRunning, 2, "x did not stop the job")
	require.True(t, m.input.on())
	require.True(t, m.single.Following(), "f did not toggle follow")
}

// A job that a restart policy runs again gets what is typed into its
// next run; what is typed before is dropped (x would have stopped the
// job, cancelling the restart).
func TestInputModeAcrossAPolicyRestart(t *testing.T) {
	mgr := newManager(t)
	job, err := mgr.Start(jobs.Spec{
		Name: "flaky", Command: `echo "rea""dy"; read l; echo "got:$l"; exit 1`, TTY: true, Grace: 3 * time.Second,
		Restart: jobs.RestartPolicy{Mode: jobs.RestartOnFailure, Backoff: time.Second, Max: 1},
	})
	require.NoError(t, err)
	rec, m := typingInto(t, mgr)
	typeText(t, m, "one")
	press(t, m, "enter")
	pumpUntil(t, m, "the run's end", func() bool {
		info, ok := m.table.Get(job.ID)
		return ok && info.State == jobs.StateFailed
	})
	typeText(t, m, "x")
	require.Equal(t, "one\r", rec.typed())
	pumpUntil(t, m, "the policy's restart", func() bool {
		info, ok := m.table.Get(job.ID)
		return ok && info.Runs == 2 && info.State.Active()
	})
	typeText(t, m, "two")
	press(t, m, "enter")
	pumpUntil(t, m, "the next run's echo", func() bool { return slices.Contains(paneRows(m), "got:two") })
	require.Equal(t, "one\rtwo\r", rec.typed())
}

// When what input mode typed into goes by itself (here the job is
// removed by another client; the pane then shows another job), input
// mode ends, but what is typed next is dropped until ctrl+a: the person
// typing may not have seen it go.
func TestInputModeEndsWhenTheJobIsRemoved(t *testing.T) {
	mgr := newManager(t)
	job := startTTY(t, mgr, "ask", `echo "rea""dy"; read a`)
	other := start(t, mgr, "other", "sleep 60")
	rec, m := typingInto(t, mgr)
	press(t, m, "enter")
	pumpUntil(t, m, "the run's end", func() bool {
		info, ok := m.table.Get(job.ID)
		return ok && info.State == jobs.StateSucceeded
	})
	require.True(t, m.input.on())

	require.NoError(t, mgr.Remove(job.ID))
	pumpUntil(t, m, "the removal", func() bool { _, ok := m.table.Get(job.ID); return !ok })
	require.False(t, m.input.on(), "nothing to type into")
	require.Equal(t, other.ID, m.single.JobID(), "the pane shows the other job")
	view := m.View()
	require.Contains(t, view, " INPUT  ended: job 1 ask was removed · keys are dropped · ctrl+a leaves")
	require.NotContains(t, lines(view)[m.screen.outputY], "INPUT", "no pane is typed into")

	sent := rec.typed()
	typeText(t, m, commandKeys)
	require.Equal(t, sent, rec.typed())
	requireJob(t, mgr, other.ID, jobs.StateRunning, 1, "x did not stop the other job")
	require.Equal(t, quitNone, m.quit)
	require.Nil(t, m.panel)

	press(t, m, "ctrl+a")
	require.False(t, m.input.takesKeys())
	require.NotContains(t, m.View(), "INPUT")
	press(t, m, "x")
	pumpUntil(t, m, "x to stop the other job", func() bool {
		info, ok := m.table.Get(other.ID)
		return ok && !info.State.Active()
	})
}

// A job filtered out of the table when its run ends leaves the pane:
// input mode ends, and the keys typed next are dropped until ctrl+a.
func TestInputModeEndsWhenTheJobIsFilteredOut(t *testing.T) {
	mgr := newManager(t)
	job := startTTY(t, mgr, "ask", `echo "rea""dy"; read a`)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "ready", func() bool { return slices.Contains(paneRows(m), "ready") })
	press(t, m, "/")
	typeText(t, m, "running")
	press(t, m, "enter", "enter", "i")
	require.True(t, m.input.on())
	press(t, m, "enter")
	pumpUntil(t, m, "the job filtered out", func() bool { return m.table.Len() == 0 })
	require.False(t, m.input.on())
	require.Contains(t, m.View(), " INPUT  ended: job 1 ask is no longer shown · keys are dropped · ctrl+a leaves")
	press(t, m, "a", "q")
	require.Nil(t, m.prompt, "a did not open the add prompt")
	require.Equal(t, quitNone, m.quit)
	requireJob(t, mgr, job.ID, jobs.StateSucceeded, 1, "")
}

// A click elsewhere is the person's own: input mode just ends, and the
// keys are jobtop's again.
func TestAClickElsewhereLeavesInputMode(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "a", `echo "rea""dy"; exec cat`)
	start(t, mgr, "b", "sleep 60")
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "ready", func() bool { return slices.Contains(paneRows(m), "ready") })
	press(t, m, "enter", "i")
	require.True(t, m.input.on())
	m.Update(tea.MouseMsg{X: 5, Y: 1, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	require.False(t, m.input.takesKeys())
	require.NotContains(t, m.View(), "INPUT")
	press(t, m, "j")
	sel, ok := m.table.Selected()
	require.True(t, ok)
	require.Equal(t, "b", sel.Name, "j is jobtop's")
}

// After a lost input mode, ctrl+a ctrl+a (one ctrl+a typed for the job
// that went, as in screen) leaves it, and the second ctrl+a is dropped:
// it started input mode on the job the pane showed now, and the next
// keys (ctrl+c) went to that job.
func TestCtrlATwiceAfterALostInputModeTypesIntoNoOtherJob(t *testing.T) {
	mgr := newManager(t)
	job := startTTY(t, mgr, "ask", `echo "rea""dy"; read a`)
	other := startTTY(t, mgr, "other", `trap 'exit 9' INT; while :; do sleep 0.1; done`)
	rec, m := typingInto(t, mgr)
	press(t, m, "enter")
	pumpUntil(t, m, "the run's end", func() bool {
		info, ok := m.table.Get(job.ID)
		return ok && info.State == jobs.StateSucceeded
	})
	require.NoError(t, mgr.Remove(job.ID))
	pumpUntil(t, m, "the removal", func() bool { _, ok := m.table.Get(job.ID); return !ok })
	require.Equal(t, other.ID, m.single.JobID())
	sent := rec.typed()

	press(t, m, "ctrl+a", "ctrl+a", "ctrl+c")
	require.False(t, m.input.takesKeys())
	require.Equal(t, sent, rec.typed(), "nothing went to the other job")
	requireJob(t, mgr, other.ID, jobs.StateRunning, 1, "ctrl+c did not reach it")
	require.NotEqual(t, quitNone, m.quit, "ctrl+c is jobtop's: it asks to quit")
	press(t, m, "n")
	press(t, m, "ctrl+a") // now jobtop's key again: type one ctrl+a into the pane's job
	require.True(t, m.input.on())
	require.Equal(t, other.ID, m.input.id)
}

// A wheel turned over the table while typing moves nothing: in single
// view it moved the selection, the pane showed another job, input mode
// ended without a word, and the next key typed (x) stopped that job.
func TestAWheelOverTheTableKeepsInputMode(t *testing.T) {
	mgr := newManager(t)
	startTTY(t, mgr, "typed", `echo "rea""dy"; cat`)
	other := start(t, mgr, "other", "sleep 60")
	rec, m := typingInto(t, mgr)
	typed := m.input.id
	m.Update(tea.MouseMsg{X: 10, Y: 2, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	require.True(t, m.input.on(), "still typing")
	require.Equal(t, typed, m.single.JobID(), "the pane still shows the job typed into")
	typeText(t, m, "x")
	pumpUntil(t, m, "the echo", func() bool { return strings.Contains(rec.typed(), "x") })
	requireJob(t, mgr, other.ID, jobs.StateRunning, 1, "x went to the job typed into")
}

// With ended jobs hidden (H), input mode outlives the run as it does
// without: the job typed into stays in the table and its pane while it
// is typed into (it ended, H would hide it, its pane would show another
// job and input mode would be lost); keys are dropped until its next
// run, which gets them. Once left (ctrl+a), H hides it.
func TestInputModeOutlivesTheRunWithEndedJobsHidden(t *testing.T) {
	mgr := newManager(t)
	job := startTTY(t, mgr, "ask", `echo "rea""dy"; read a; echo "got=$a"; exit 3`)
	other := start(t, mgr, "other", "sleep 60")
	gone := start(t, mgr, "gone", "true")
	rec := &inputRecorder{Manager: mgr}
	m := newSizedModel(t, rec, Config{}, 120, 30)
	pumpUntil(t, m, "ready", func() bool {
		info, ok := m.table.Get(gone.ID)
		return slices.Contains(paneRows(m), "ready") && ok && info.State.Ended()
	})
	press(t, m, "H", "enter", "i")
	require.True(t, m.table.HidingEnded())
	require.True(t, m.input.on())
	answerAsk(t, m)

	require.True(t, m.input.on(), "the run ended: input mode goes on, H or not")
	require.Equal(t, job.ID, m.single.JobID(), "the pane still shows the job typed into")
	view := m.View()
	require.Contains(t, view, " INPUT  job 1 ask has ended · keys are dropped until it runs again · ctrl+a leaves")
	require.Contains(t, view, "ask", "its row stays in the table while typed into")
	require.Contains(t, lines(view)[m.screen.outputY], "job ended · ctrl+a leaves")

	sent := rec.typed()
	typeText(t, m, commandKeys)
	press(t, m, "enter", "up", "tab", "esc")
	require.Equal(t, sent, rec.typed(), "nothing is sent between runs")
	requireJob(t, mgr, job.ID, jobs.StateFailed, 1, "no key acted on the job")
	require.True(t, m.input.on())
	require.True(t, m.table.HidingEnded(), "H was typed for the job: dropped")
	require.Equal(t, quitNone, m.quit)
	require.Nil(t, m.prompt)

	restartElsewhere(t, m, mgr, job.ID)
	require.Contains(t, m.View(), " INPUT  keys go to job 1 ask · ctrl+a leaves")
	answerNextRun(t, m, rec, sent, job.ID)
	require.True(t, m.input.on())
	require.Equal(t, job.ID, m.single.JobID())

	press(t, m, "ctrl+a")
	require.False(t, m.input.takesKeys())
	require.Equal(t, other.ID, m.single.JobID(), "left: H hides the ended job")
	require.NotContains(t, m.View(), "INPUT")
}

// restartElsewhere restarts job id as another client would, and waits
// until the model shows its second run running.
func restartElsewhere(t *testing.T, m *Model, mgr *jobs.Manager, id jobs.ID) {
	t.Helper()
	_, err := mgr.Restart(id)
	require.NoError(t, err)
	pumpUntil(t, m, "the next run", func() bool {
		info, ok := m.table.Get(id)
		return ok && info.Runs == 2 && info.State.Active()
	})
}

// answerAsk types "hi" into the "ask" job, which reads a line and exits
// 3, and waits for that run's end.
func answerAsk(t *testing.T, m *Model) {
	t.Helper()
	typeText(t, m, "hi")
	press(t, m, "enter")
	pumpUntil(t, m, "the run's end", func() bool {
		v := m.View()
		return strings.Contains(v, "got=hi") && strings.Contains(v, "failed (3)")
	})
}

// answerNextRun types "x=1" into the ask job's second run, checks that
// the run got exactly those keys after sent, and waits for its end.
func answerNextRun(t *testing.T, m *Model, rec *inputRecorder, sent string, id jobs.ID) {
	t.Helper()
	typeText(t, m, "x=1")
	press(t, m, "enter")
	pumpUntil(t, m, "the next run's answer", func() bool { return slices.Contains(paneRows(m), "got=x=1") })
	require.Equal(t, sent+"x=1\r", rec.typed(), "the next run gets the keys")
	pumpUntil(t, m, "the next run's end", func() bool {
		info, ok := m.table.Get(id)
		return ok && info.State == jobs.StateFailed
	})
}
