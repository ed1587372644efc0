package ui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// runningJobs starts n jobs that run until stopped and a model over them,
// the table focused on the first.
func runningJobs(t *testing.T, n int) (*jobs.Manager, *Model) {
	t.Helper()
	mgr := newManager(t)
	for i := 0; i < n; i++ {
		start(t, mgr, "job", "exec sleep 60")
	}
	m := newSizedModel(t, mgr, Config{}, 140, 30)
	pumpUntil(t, m, "running", func() bool { return m.stateCountForTest(jobs.StateRunning) == n })
	return mgr, m
}

// ctrl+c cancels the question before acting on the marked jobs, as n and
// esc do: it is no yes (only the quit question takes it as one).
func TestCtrlCCancelsTheBulkQuestion(t *testing.T) {
	mgr, m := runningJobs(t, 3)
	press(t, m, "space", "j", "space", "j", "space")

	press(t, m, "X")
	require.Contains(t, m.View(), "kill 3 marked jobs? y/n")
	require.Contains(t, m.helpView(), "y yes • n no")
	press(t, m, "ctrl+c")
	require.Nil(t, m.confirm, "ctrl+c cancels")
	require.Equal(t, quitNone, m.quit, "nor does it ask to quit")
	require.NotContains(t, m.View(), "? y/n")
	for _, j := range mgr.List() {
		require.Equal(t, jobs.StateRunning, j.State, "job %d is left running", j.ID)
	}

	press(t, m, "X", "y")
	pumpUntil(t, m, "killed", func() bool { return m.stateCountForTest(jobs.StateKilled) == 3 })
	press(t, m, "d")
	require.Contains(t, m.View(), "remove 3 marked jobs? y/n")
	press(t, m, "ctrl+c")
	require.Nil(t, m.confirm)
	require.Len(t, mgr.List(), 3, "nothing removed")
	require.Len(t, m.table.Marked(), 3, "the marks stay")
}

// The quit question still takes a second ctrl+c as yes (README).
func TestCtrlCTwiceStopsTheJobsAndQuits(t *testing.T) {
	_, m := runningJobs(t, 1)
	press(t, m, "ctrl+c")
	require.Contains(t, m.View(), "1 job running — stop it and quit? y/n")
	require.Contains(t, m.helpView(), "y yes • n no")
	press(t, m, "ctrl+c")
	require.NotEqual(t, quitConfirm, m.quit, "the second ctrl+c answers yes")
	pumpUntil(t, m, "quit", func() bool { return m.quitting })
}
