package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// splitModel is a model over four jobs that print numbered lines and
// stay running, at 120x40.
func splitModel(t *testing.T) (*Model, *jobs.Manager) {
	t.Helper()
	mgr := newManager(t)
	for _, name := range []string{"alpha", "bravo", "charlie", "delta"} {
		start(t, mgr, name, fmt.Sprintf("for i in $(seq 1 100); do echo %s $i; done; exec sleep 60", name))
	}
	m := newSizedModel(t, mgr, Config{}, 120, 40)
	pumpUntil(t, m, "every job's output", func() bool {
		for _, j := range m.table.Jobs() {
			if j.Lines < 100 {
				return false
			}
		}
		return m.table.Len() == 4
	})
	return m, mgr
}

// paneText is a drawn pane's body as plain text without trailing spaces.
func paneText(p *outputPane) []string {
	out := make([]string, 0, len(p.rows))
	for _, r := range p.rows {
		out = append(out, strings.TrimRight(r, " "))
	}
	return out
}

func TestMarkAndSplitTwoJobs(t *testing.T) {
	m, _ := splitModel(t)
	press(t, m, "j", "space", "j", "j", "space")
	require.Equal(t, []jobs.ID{2, 4}, m.table.Marked())
	view := m.View()
	require.Contains(t, view, " ◆   2 bravo")
	require.Contains(t, view, "▸◆   4 delta")

	press(t, m, "s")
	require.Equal(t, viewSplit, m.mode)
	require.Len(t, m.drawn(), 2)
	require.Equal(t, jobs.ID(2), m.split[0].JobID())
	require.Equal(t, jobs.ID(4), m.split[1].JobID())
	view = m.View()
	requireFits(t, view, 120, 40, "split")
	// 120 columns: side by side, each pane in its own box with its
	// header in the top edge.
	ls := lines(view)
	top := ansi.Strip(ls[m.screen.outputY]) // the top edges end in EL and CHA to the corner
	require.Regexp(t, `^╭─ job 2 bravo .*following ─╮╭─ job 4 delta .*following ─╮$`, top)
	require.Equal(t, "bravo 100", paneText(m.split[0])[len(m.split[0].rows)-1])
	require.Equal(t, "delta 100", paneText(m.split[1])[len(m.split[1].rows)-1])
	require.Equal(t, 60, m.screen.panes[0].w)
	require.Contains(t, m.statusView(), "split 2/2")

	press(t, m, "s")
	require.Equal(t, viewSingle, m.mode, "s again goes back to one pane")
	require.Contains(t, m.View(), "job 4 delta", "the single pane shows the selected job")
}

func TestSplitTwoRowsWhenNarrow(t *testing.T) {
	m, _ := splitModel(t)
	press(t, m, "space", "j", "space", "s")
	m.Update(resize(80, 30))
	require.Len(t, m.screen.panes, 2)
	a, b := m.screen.panes[0], m.screen.panes[1]
	require.Equal(t, 80, a.w)
	require.Equal(t, a.y+a.h, b.y, "one above the other")
	requireFits(t, m.View(), 80, 30, "two rows")
}

func TestSplitWithNothingMarkedShowsRunningJobs(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "done", "echo finished")
	for i := 1; i <= 5; i++ {
		start(t, mgr, fmt.Sprintf("run%d", i), "echo up; exec sleep 60")
	}
	m := newSizedModel(t, mgr, Config{}, 160, 45)
	pumpUntil(t, m, "five running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 5 })
	press(t, m, "s")
	require.Len(t, m.split, 4, "at most four panes")
	for i, p := range m.split {
		require.Equal(t, jobs.ID(i+2), p.JobID(), "the running jobs, in order")
	}
	require.Contains(t, m.View(), "showing the first 4 of 5 running jobs")
	// 2x2: two boxes on each of two rows.
	r := m.screen.panes
	require.Equal(t, r[0].y, r[1].y)
	require.Equal(t, r[2].y, r[3].y)
	require.Greater(t, r[2].y, r[0].y)
	requireFits(t, m.View(), 160, 45, "2x2")
}

func TestSplitNothingToShow(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "done", "true")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "the job to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "s")
	require.Equal(t, viewSingle, m.mode)
	require.Contains(t, m.View(), "nothing to split: mark jobs with space")
}

// A key's refusal goes once that key has worked: "nothing to split:
// mark jobs with space" stayed in the status bar over the split that s
// then showed, and through z and esc after it.
func TestARefusalGoesWhenTheKeyWorks(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "one", "true")
	start(t, mgr, "two", "true")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "both to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 2 })
	press(t, m, "s")
	require.Contains(t, m.View(), "nothing to split: mark jobs with space")
	press(t, m, "space", "j")
	require.Contains(t, m.View(), "nothing to split: mark jobs with space", "the refusal stays to be read")
	press(t, m, "space", "s")
	require.Len(t, m.drawn(), 2)
	require.NotContains(t, m.View(), "nothing to split")
	press(t, m, "z", "esc")
	require.NotContains(t, m.View(), "nothing to split")
}

// With no job, z zooms nothing: the help bar does not offer it, and z
// still says why it does nothing.
func TestZoomIsNotOfferedWithNothingToZoom(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	require.NotContains(t, m.helpView(), "zoom")
	require.False(t, m.km.Zoom.Enabled())
	press(t, m, "z")
	require.False(t, m.zoom)
	require.Contains(t, m.View(), "nothing to zoom")
	start(t, mgr, "one", "true")
	pumpUntil(t, m, "the job to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	require.True(t, m.km.Zoom.Enabled(), "a job's output to zoom")
	press(t, m, "z")
	require.True(t, m.zoom)
	require.NotContains(t, m.View(), "nothing to zoom", "the refusal gone with the zoom")
}

func TestSplitFocusScrollAndZoom(t *testing.T) {
	m, mgr := splitModel(t)
	press(t, m, "space", "j", "space", "j", "space", "s")
	require.Len(t, m.drawn(), 3)
	require.Equal(t, focusTable, m.focus)

	press(t, m, "tab")
	require.Equal(t, focusOutput, m.focus)
	require.Equal(t, 0, m.active)
	require.True(t, m.split[0].focused)
	ls := lines(m.View())
	require.True(t, strings.HasPrefix(ls[m.screen.outputY], "┏▸ job 1 alpha"), "the focused pane is outlined heavily: %q", ls[m.screen.outputY])
	require.Contains(t, ls[m.screen.outputY], "╭─ job 2 bravo", "the others are not")

	// Each pane scrolls on its own; the others keep following.
	press(t, m, "k", "k")
	require.False(t, m.split[0].Following())
	require.True(t, m.split[1].Following())
	require.Equal(t, "alpha 98", paneText(m.split[0])[len(m.split[0].rows)-1])

	press(t, m, "3")
	require.Equal(t, 2, m.active)
	require.True(t, m.split[2].focused)
	require.False(t, m.split[0].focused)
	press(t, m, "shift+tab", "shift+tab")
	require.Equal(t, 0, m.active)
	press(t, m, "shift+tab")
	require.Equal(t, focusTable, m.focus, "shift+tab from the first pane goes to the table")
	press(t, m, "shift+tab")
	require.Equal(t, focusOutput, m.focus)
	require.Equal(t, 2, m.active, "and on around to the last pane")

	// Actions apply to the focused pane's job.
	press(t, m, "x")
	pumpUntil(t, m, "charlie to stop", func() bool {
		info, _ := m.table.Get(3)
		return info.State == jobs.StateKilled
	})
	info, err := mgr.Get(1)
	require.NoError(t, err)
	require.Equal(t, jobs.StateRunning, info.State, "the selected row's job was not stopped")

	press(t, m, "z")
	view := m.View()
	requireFits(t, view, 120, 40, "zoomed")
	require.NotContains(t, view, "STATUS")
	require.Contains(t, lines(view)[0], "▸ job 3 charlie", "the focused pane fills the screen, unboxed")
	require.Len(t, m.drawn(), 1)
	press(t, m, "tab")
	require.Contains(t, lines(m.View())[0], "▸ job 1 alpha", "tab moves to the next pane, still zoomed")
	press(t, m, "z")
	require.Len(t, m.drawn(), 3)
}

func TestSplitPaneGoesWithItsJob(t *testing.T) {
	m, mgr := splitModel(t)
	press(t, m, "space", "j", "space", "s")
	require.NoError(t, mgr.Kill(2))
	pumpUntil(t, m, "bravo killed", func() bool { info, _ := m.table.Get(2); return info.State == jobs.StateKilled })
	require.NoError(t, mgr.Remove(2))
	pumpUntil(t, m, "bravo removed", func() bool { return len(m.table.Jobs()) == 3 })
	require.Len(t, m.split, 1)
	require.NoError(t, mgr.Kill(1))
	pumpUntil(t, m, "alpha killed", func() bool { info, _ := m.table.Get(1); return info.State == jobs.StateKilled })
	require.NoError(t, mgr.Remove(1))
	pumpUntil(t, m, "alpha removed", func() bool { return len(m.table.Jobs()) == 2 })
	require.Equal(t, viewSingle, m.mode, "with no pane left, the single pane is back")
	requireFits(t, m.View(), 120, 40, "after removals")
}

// A split view that does not fit at its panes' minimum size draws fewer
// panes and says so; growing the terminal brings them back.
func TestSplitFallsBackWhenTooSmall(t *testing.T) {
	m, _ := splitModel(t)
	press(t, m, "space", "j", "space", "j", "space", "j", "space", "s")
	require.Len(t, m.drawn(), 4)
	m.Update(resize(60, 15))
	require.Len(t, m.drawn(), 4, "60x15 still holds a 2x2 grid")
	m.Update(resize(60, 11))
	require.Less(t, len(m.drawn()), 4)
	require.Equal(t, fmt.Sprintf("too small for 4 panes: showing %d (z zooms one)", len(m.drawn())), m.notice.text)
	require.Contains(t, m.statusView(), fmt.Sprintf("split %d/4", len(m.drawn())))
	requireFits(t, m.View(), 60, 11, "fallback")
	for _, r := range m.screen.panes {
		require.GreaterOrEqual(t, r.w, boxMinWidth)
		require.GreaterOrEqual(t, r.h, boxMinHeight)
	}
	m.Update(resize(60, 15))
	require.Len(t, m.drawn(), 4)
}

// enter on a job the split does not show focuses a pane showing it: one
// put where the focus was, the others moving on (the fifth goes).
func TestSplitEnterOnAJobWithNoPaneShowsIt(t *testing.T) {
	m, mgr := splitModel(t)
	press(t, m, "space", "j", "space", "s", "j", "j", "enter")
	require.Equal(t, focusOutput, m.focus)
	require.Equal(t, jobs.ID(4), m.activePane().JobID(), "the focused pane shows the selected job")
	require.Equal(t, []jobs.ID{1, 4, 2}, splitIDs(m), "in job 2's pane's place: the focus was there")
	require.Contains(t, lines(m.View())[m.screen.outputY], "┏▸ job 4 delta")

	press(t, m, "tab", "tab", "esc", "k", "k", "enter")
	require.Equal(t, jobs.ID(2), m.activePane().JobID(), "a job with a pane: its own")
	require.Equal(t, []jobs.ID{1, 4, 2}, splitIDs(m))

	start(t, mgr, "echo", "echo fifth; exec sleep 60")
	start(t, mgr, "echo2", "echo sixth; exec sleep 60")
	pumpUntil(t, m, "six jobs", func() bool { return m.table.Len() == 6 })
	press(t, m, "esc", "G", "k", "enter") // job 5 into the pane of job 2
	require.Equal(t, []jobs.ID{1, 4, 5, 2}, splitIDs(m))
	press(t, m, "esc", "G", "enter") // job 6, and the last (job 2) goes
	require.Equal(t, []jobs.ID{1, 4, 6, 5}, splitIDs(m))
	require.Equal(t, jobs.ID(6), m.activePane().JobID())
	requireFits(t, m.View(), 120, 40, "four panes")
}

func splitIDs(m *Model) []jobs.ID {
	var ids []jobs.ID
	for _, p := range m.split {
		ids = append(ids, p.JobID())
	}
	return ids
}

// A terminal made too small for the split for a moment keeps the focused
// pane on screen, and focused: it is not the one dropped, and growing the
// terminal back leaves the focus on the same job (and input mode on).
func TestSplitTooSmallKeepsTheFocusedPane(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "ticker", `i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.05; done`)
	startTTY(t, mgr, "echo", `while read l; do echo "got:$l"; done`)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "both running", func() bool { return strings.Contains(m.View(), "● 2 running") })
	press(t, m, "s")
	m.Update(resize(120, 30))
	press(t, m, "2", "i")
	require.True(t, m.input.on())
	require.Equal(t, jobs.ID(2), m.activePane().JobID())

	m.Update(resize(40, 7))
	require.Len(t, m.drawn(), 1)
	require.Equal(t, jobs.ID(2), m.drawn()[0].JobID(), "the pane drawn is the focused one")
	require.Equal(t, jobs.ID(2), m.activePane().JobID())
	require.True(t, m.input.on(), "input mode goes on: its pane is still shown")
	requireFits(t, m.View(), 40, 7, "one pane")

	m.Update(resize(120, 30))
	require.Len(t, m.drawn(), 2)
	require.Equal(t, jobs.ID(2), m.activePane().JobID(), "the focus stayed on job 2")
	require.True(t, m.activePane().focused)
	require.True(t, m.input.on())
	typeText(t, m, "back")
	press(t, m, "enter")
	pumpUntil(t, m, "the echo", func() bool { return strings.Contains(m.View(), "got:back") })
}

// A pane key pressed right after the key that splits (s then 2, typed
// fast or arriving in one read) finds the panes the split draws.
func TestSplitThenPaneKeyAtOnce(t *testing.T) {
	m, _ := splitModel(t)
	press(t, m, "space", "j", "space", "s", "2")
	require.Equal(t, focusOutput, m.focus)
	require.Equal(t, jobs.ID(2), m.activePane().JobID(), "2 focused the second pane")

	press(t, m, "s", "esc")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("s2")})
	require.Equal(t, focusOutput, m.focus)
	require.Equal(t, jobs.ID(2), m.activePane().JobID(), "s2 in one read")
}

// esc in a zoomed pane goes back to the job table, which the zoom hid:
// the zoom ends, so the keys do not go to a table that is not drawn.
func TestEscInAZoomedPaneShowsTheTable(t *testing.T) {
	m, _ := splitModel(t)
	press(t, m, "space", "j", "space", "s", "tab", "z")
	require.NotContains(t, m.View(), "STATUS")
	press(t, m, "esc")
	require.Equal(t, focusTable, m.focus)
	require.False(t, m.zoom)
	require.Contains(t, m.View(), "STATUS", "the table is drawn")
	require.Len(t, m.drawn(), 2)
}

// z with the table focused zooms the selected job's pane and gives it the
// focus, as enter and then z do: the keys go to what the zoom shows, not
// to the table it hides. Without a job there is nothing to zoom, and the
// status bar says so.
func TestZoomFromTheTableFocusesTheSelectedJobsPane(t *testing.T) {
	m, _ := splitModel(t)
	press(t, m, "z")
	require.NotContains(t, m.View(), "STATUS")
	require.Contains(t, lines(m.View())[0], "▸ job 1 alpha", "the selected job's output, focused")
	require.Equal(t, focusOutput, m.focus)
	press(t, m, "z")
	require.Contains(t, m.View(), "STATUS")
	require.Equal(t, focusTable, m.focus, "z again goes back to the table, as it was")
	press(t, m, "enter", "z", "z")
	require.Equal(t, focusOutput, m.focus, "zoomed from the pane, the pane keeps the focus")

	press(t, m, "esc", "space", "j", "space", "s", "j", "z")
	require.Equal(t, focusOutput, m.focus)
	require.Len(t, m.drawn(), 1)
	require.Contains(t, lines(m.View())[0], "▸ job 3 charlie", "in a split view, the selected job's pane (one where the focus was when it had none)")
	press(t, m, "esc")
	require.False(t, m.zoom)
	require.Equal(t, focusTable, m.focus)

	empty := newSizedModel(t, newManager(t), Config{}, 80, 20)
	press(t, empty, "z")
	require.False(t, empty.zoom)
	require.Contains(t, empty.View(), "nothing to zoom: no job's output is shown")
}

// z then z from the table is a quick look: in a full split, the selected
// job without a pane gets one while zoomed, and z (or esc) brings the
// panes back as they were, the one it pushed out included.
func TestZoomFromTheTableThenBackKeepsThePanes(t *testing.T) {
	m, mgr := splitModel(t)
	start(t, mgr, "echo", "echo echo 1; exec sleep 60")
	pumpUntil(t, m, "the fifth job", func() bool { return m.table.Len() == 5 })
	press(t, m, "space", "j", "space", "j", "space", "j", "space", "s")
	paneJobs := func() []jobs.ID {
		var ids []jobs.ID
		for _, p := range m.split {
			ids = append(ids, p.JobID())
		}
		return ids
	}
	require.Equal(t, []jobs.ID{1, 2, 3, 4}, paneJobs())
	press(t, m, "j", "z")
	require.True(t, m.zoom)
	require.Contains(t, lines(m.View())[0], "job 5 echo", "the selected job's output, zoomed")
	press(t, m, "z")
	require.False(t, m.zoom)
	require.Equal(t, focusTable, m.focus)
	require.Equal(t, []jobs.ID{1, 2, 3, 4}, paneJobs(), "the panes as they were")
	press(t, m, "z", "esc")
	require.Equal(t, []jobs.ID{1, 2, 3, 4}, paneJobs(), "esc ends the look as z does")
	press(t, m, "enter", "z", "z")
	require.Contains(t, paneJobs(), jobs.ID(5), "enter shows the job in the split for good")
}

// z from the table in a split view with a filter that matches nothing
// zooms nothing, as enter focuses nothing, and says so: not a pane the
// filter hides.
func TestZoomFromTheTableWithNothingSelected(t *testing.T) {
	m, _ := splitModel(t)
	press(t, m, "space", "j", "space", "s", "/", "z", "z", "z", "enter")
	require.Equal(t, 0, m.table.Len())
	press(t, m, "z")
	require.False(t, m.zoom)
	require.Equal(t, focusTable, m.focus)
	require.Contains(t, m.View(), "nothing to zoom")
}
