package ui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// selectedID is the job selected in the table (0: none).
func selectedID(m *Model) jobs.ID {
	info, _ := m.table.Selected()
	return info.ID
}

// A selected job that H or a filter hides hands the selection to the job
// beside it, not to the table's first row: H on an ended job, a running
// job that ends under H, a filter typed and cancelled with esc.
func TestHiddenSelectionStaysBesideIt(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "a", "exec sleep 60")
	start(t, mgr, "b", "exit 0")
	start(t, mgr, "c", "exec sleep 60")
	start(t, mgr, "d", "exec sleep 60")
	start(t, mgr, "e", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "b ended, the others running", func() bool {
		return m.stateCountForTest(jobs.StateSucceeded) == 1 && m.stateCountForTest(jobs.StateRunning) == 4
	})

	press(t, m, "j") // b
	require.Equal(t, jobs.ID(2), selectedID(m))
	press(t, m, "H")
	require.Equal(t, jobs.ID(3), selectedID(m), "H on ended b: the job after it")
	require.Contains(t, m.View(), "job 3 c")

	press(t, m, "j") // d
	require.NoError(t, mgr.Kill(4))
	pumpUntil(t, m, "d killed", func() bool { info, _ := m.table.Get(4); return info.State.Ended() })
	require.Equal(t, jobs.ID(5), selectedID(m), "d ended under H: the job after it")

	press(t, m, "k", "H") // c, every job shown
	require.Equal(t, jobs.ID(3), selectedID(m))
	press(t, m, "/")
	typeText(t, m, "zzz")
	require.Equal(t, 0, m.table.Len())
	press(t, m, "esc")
	require.Equal(t, jobs.ID(3), selectedID(m), "esc cancels the filter and gives the selection back")

	press(t, m, "G", "/")
	typeText(t, m, "a")
	require.Equal(t, jobs.ID(1), selectedID(m), "e hidden, a the only one shown")
	press(t, m, "esc")
	require.Equal(t, jobs.ID(5), selectedID(m))
}
