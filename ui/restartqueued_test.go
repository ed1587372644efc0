package ui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// r on a job that waits for a slot and never ran said "restarting job
// 2" and did nothing: there is nothing to restart, and the status bar
// says so. A job that ran and is restarted into the queue is restarting.
func TestRestartOfAQueuedJobSaysItHasNotStarted(t *testing.T) {
	mgr := newManager(t)
	require.NoError(t, mgr.SetMaxRunning(1))
	for _, name := range []string{"a", "b", "c"} {
		start(t, mgr, name, "exec sleep 60")
	}
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "one running, two queued", func() bool {
		return m.stateCountForTest(jobs.StateRunning) == 1 && m.stateCountForTest(jobs.StateQueued) == 2
	})
	m.table.Select(2)
	press(t, m, "r")
	require.Contains(t, m.View(), "job 2 is queued: it has not started yet")
	require.NotContains(t, m.View(), "restarting")
	info, err := mgr.Get(2)
	require.NoError(t, err)
	require.Equal(t, jobs.StateQueued, info.State)
	require.Equal(t, 0, info.Runs)

	m.table.Select(1)
	press(t, m, "r")
	require.Regexp(t, `restart(ing|ed) job 1`, m.View(), "a job that runs restarts")
	require.NotContains(t, m.View(), "has not started yet")
}
