package ui

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A job killed by a SIGKILL jobtop did not send (the OOM killer, a kill
// -9 PID) says so in its pane header and the status bar, with the memory
// its run reached: it looked exactly like the user's own kill.
func TestPaneHeaderSaysKilledFromOutside(t *testing.T) {
	mgr := newManager(t)
	info := start(t, mgr, "train", "exec sleep 300")
	m := newSizedModel(t, mgr, Config{}, 160, 20)
	require.Eventually(t, func() bool { info, _ = mgr.Get(info.ID); return info.Usage.RSS > 0 }, deadline, 20*time.Millisecond,
		"the sampler sees the run's memory")
	require.NoError(t, syscall.Kill(info.PID, syscall.SIGKILL))
	pumpUntil(t, m, "the job to be killed", func() bool { return m.stateCountForTest(jobs.StateKilled) == 1 })
	j, _ := m.table.Get(info.ID)
	require.Positive(t, j.PeakRSS)
	peak := formatBytes(j.PeakRSS)
	require.Contains(t, m.single.headerView(), "■ killed (KILL) · from outside jobtop (out of memory?) · peak RSS "+peak)
	require.Contains(t, m.View(), "train killed by SIGKILL from outside jobtop (out of memory?), peak RSS "+peak)

	// Killed by the user: nothing of the outside.
	own := start(t, mgr, "own", "exec sleep 300")
	pumpUntil(t, m, "the second job", func() bool { _, ok := m.table.Get(own.ID); return ok })
	require.NoError(t, mgr.Kill(own.ID))
	pumpUntil(t, m, "the second job to be killed", func() bool { return m.stateCountForTest(jobs.StateKilled) == 2 })
	j, _ = m.table.Get(own.ID)
	require.False(t, j.KilledFromOutside)
	require.Empty(t, outsideNote(j))
}
