package ui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// Two TUIs on one terminal job (the instance's and one attached): when
// one stops showing the job, the job gets back the size it had before
// that TUI sized it, the other TUI's pane, and 200x50 only once neither
// shows it. It went to 200x50 at once, and vim in the other TUI's pane
// was drawn for a terminal it was not in.
func TestATUIThatStopsShowingAJobGivesItsSizeBack(t *testing.T) {
	mgr := newManager(t)
	size := `while :; do echo "size $(stty size)"; sleep 0.1; done`
	a := startTTY(t, mgr, "a", size)
	startTTY(t, mgr, "b", size)
	sizeIs := func(m *Model, what string, cols, rows int) {
		t.Helper()
		pumpUntil(t, m, what, func() bool {
			info, err := mgr.Get(a.ID)
			return err == nil && info.Cols == cols && info.Rows == rows
		})
	}
	local := newSizedModel(t, mgr, Config{}, 100, 30)
	lw, lh := local.single.width, local.single.bodyHeight()
	sizeIs(local, "the local pane's size", lw, lh)

	attached := newSizedModel(t, mgr, Config{Attached: true, Instance: "work"}, 80, 24)
	aw, ah := attached.single.width, attached.single.bodyHeight()
	require.NotEqual(t, lw, aw)
	sizeIs(attached, "the attached pane's size", aw, ah)

	press(t, attached, "j") // the attached TUI shows b; the local one still shows a
	require.NotEqual(t, a.ID, attached.single.JobID())
	sizeIs(attached, "the local pane's size again", lw, lh)
	pumpUntil(t, local, "the local TUI to hear of it", func() bool {
		info, ok := local.table.Get(a.ID)
		return ok && info.Cols == lw && info.Rows == lh
	})

	press(t, local, "j") // neither shows a now
	sizeIs(local, "the off-screen size", jobs.DefaultCols, jobs.DefaultRows)
}
