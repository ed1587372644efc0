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
}

func (e *startingEngine) CancelStarts() { e.cancelled.Store(true) }

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
