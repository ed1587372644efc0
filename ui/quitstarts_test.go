package ui

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// startingEngine is a manager that says it may still be starting jobs of
// its own (a job file's, behind the first frame).
type startingEngine struct {
	*jobs.Manager
	cancelled atomic.Bool
	started   atomic.Int64
	total     int
	done      atomic.Bool
}

func (e *startingEngine) CancelStarts() { e.cancelled.Store(true) }

func (e *startingEngine) OwnStarts() (started, total int, done bool) {
	return int(e.started.Load()), e.total, e.done.Load()
}

// Quitting while the engine still starts jobs of its own: the quit stops
// those starts, and stops what starts all the same before they end, so
// the program quits instead of waiting on them.
func TestQuitStopsJobsThatStartDuringTheStop(t *testing.T) {
	mgr := newManager(t)
	// The first job outlasts its stop signal, so the stop is still under
	// way when the late job starts.
	first, err := mgr.Start(jobs.Spec{Name: "first", Command: `trap "" TERM; sleep 600`, Grace: deadline})
	require.NoError(t, err)
	eng := &startingEngine{Manager: mgr}
	tm, _ := startFlow(t, eng, Config{})
	waitScreen(t, tm, "first")
	sendKeys(tm, "q")
	waitScreen(t, tm, "stop it and quit? y/n")
	sendKeys(tm, "y")
	waitScreen(t, tm, "stopping jobs")
	require.Eventually(t, eng.cancelled.Load, deadline, 10*time.Millisecond, "the engine's own starts were not cancelled")

	late := start(t, mgr, "late", "sleep 600")
	require.Eventually(t, func() bool {
		info, err := mgr.Get(late.ID)
		return err == nil && info.State.Done()
	}, deadline, 20*time.Millisecond, "the job that started during the stop was not stopped")
	require.NoError(t, mgr.Kill(first.ID))
	tm.WaitFinished(t, teatest.WithFinalTimeout(deadline))
}

// While the engine starts jobs of its own, they show as they come, are no
// news "from outside this TUI", and the status bar says how far the start
// is; once it is done, it says nothing more of it.
func TestOwnStartsShowAsTheyCome(t *testing.T) {
	mgr := newManager(t)
	eng := &startingEngine{Manager: mgr, total: 2}
	m := newSizedModel(t, eng, Config{}, 120, 30)
	require.Contains(t, m.View(), "starting 0/2 jobs")

	a := start(t, mgr, "filea", "sleep 600")
	eng.started.Store(1)
	pumpUntil(t, m, "filea to show", func() bool { _, ok := m.table.Get(a.ID); return ok })
	view := m.View()
	require.Contains(t, view, "starting 1/2 jobs")
	require.NotContains(t, view, "outside this TUI")

	b := start(t, mgr, "fileb", "sleep 600")
	eng.started.Store(2)
	eng.done.Store(true)
	m.Update(tickMsg{}) // the start is over: its jobs are taken in at once
	_, ok := m.table.Get(b.ID)
	require.True(t, ok, "the last job of the start was not taken in")
	view = m.View()
	require.NotContains(t, view, "starting 2/2")
	require.NotContains(t, view, "outside this TUI")

	// Its "added" event, still on its way, is no news either.
	pumpUntil(t, m, "fileb running", func() bool { j, _ := m.table.Get(b.ID); return j.State == jobs.StateRunning })
	require.NotContains(t, m.View(), "outside this TUI")

	// What starts later comes from outside.
	c := start(t, mgr, "other", "sleep 600")
	pumpUntil(t, m, "other to show", func() bool { _, ok := m.table.Get(c.ID); return ok })
	require.Contains(t, m.View(), "other started from outside this TUI")
}
