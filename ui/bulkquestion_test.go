package ui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
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

// deadAndRunning is jobs run1 (running, selected) and dead1 (killed).
func deadAndRunning(t *testing.T) (*jobs.Manager, *Model) {
	t.Helper()
	mgr := newManager(t)
	start(t, mgr, "run1", "exec sleep 60")
	dead := start(t, mgr, "dead1", "exec sleep 60")
	require.NoError(t, mgr.Kill(dead.ID))
	m := newSizedModel(t, mgr, Config{}, 140, 30)
	pumpUntil(t, m, "settled", func() bool {
		return m.stateCountForTest(jobs.StateRunning) == 1 && m.stateCountForTest(jobs.StateKilled) == 1
	})
	cur, _ := m.currentJob()
	require.Equal(t, "run1", cur.Name)
	return mgr, m
}

// With jobs marked, x, X, r and d act on the marked jobs only; when the
// key applies to none of them, the status bar says so instead of keeping
// silent or speaking of the selected job.
func TestBulkKeySaysWhenNoMarkedJobCanTakeIt(t *testing.T) {
	mgr, m := deadAndRunning(t)

	press(t, m, "space", "j", "d") // run1 marked, dead1 selected
	view := m.View()
	require.Contains(t, view, "the marked job cannot be removed now")
	require.NotContains(t, view, "cannot remove")
	require.Nil(t, m.confirm)
	require.Len(t, mgr.List(), 2, "nothing removed")
	require.NotContains(t, m.helpView(), "remove", "help still shows only what works")

	press(t, m, "k", "space", "j", "space", "k") // dead1 marked, run1 selected
	for _, k := range []string{"x", "X"} {
		m.setNotice("", false)
		press(t, m, k)
		require.Nil(t, m.confirm)
		verb := map[string]string{"x": "stopped", "X": "killed"}[k]
		require.Contains(t, m.View(), "the marked job cannot be "+verb+" now", "key %s", k)
	}
	run1, err := mgr.Get(1)
	require.NoError(t, err)
	require.Equal(t, jobs.StateRunning, run1.State, "the selected job is left alone")
}

// The bulk keys act on the marked jobs even when the filter leaves no row
// selected.
func TestBulkKeysWithNoRowSelected(t *testing.T) {
	_, m := runningJobs(t, 2)
	press(t, m, "space", "/")
	typeText(t, m, "nothing matches this")
	press(t, m, "enter")
	_, hasCur := m.currentJob()
	require.False(t, hasCur)
	press(t, m, "x")
	require.Contains(t, m.View(), "stop 1 marked job, not shown (a filter, or H)? y/n")
}

// The question follows the marked jobs while it is asked: their count
// changes as they end or go, y acts on those it then names, and when none
// is left it can apply to, the question goes and the bar says why.
func TestBulkQuestionFollowsTheMarkedJobs(t *testing.T) {
	mgr, m := runningJobs(t, 4)
	press(t, m, "space", "j", "space", "j", "space") // jobs 1 to 3

	press(t, m, "x")
	require.Contains(t, m.View(), "stop 3 marked jobs? y/n")
	require.NoError(t, mgr.Kill(1))
	pumpUntil(t, m, "job 1 killed", func() bool { return m.stateCountForTest(jobs.StateKilled) == 1 })
	require.Contains(t, m.View(), "stop 2 of 3 marked jobs (1 cannot be stopped now)? y/n")
	require.NoError(t, mgr.Remove(1))
	pumpUntil(t, m, "job 1 removed", func() bool { return len(m.table.Jobs()) == 3 })
	require.Contains(t, m.View(), "stop 2 marked jobs? y/n")
	press(t, m, "y")
	require.Contains(t, m.View(), "stopping 2 jobs")
	pumpUntil(t, m, "stopped", func() bool { return m.stateCountForTest(jobs.StateKilled) == 2 })

	press(t, m, "r", "y")
	pumpUntil(t, m, "restarted", func() bool { return m.stateCountForTest(jobs.StateRunning) == 3 })
	press(t, m, "X")
	require.Contains(t, m.View(), "kill 2 marked jobs? y/n")
	require.NoError(t, mgr.Kill(2))
	require.NoError(t, mgr.Kill(3))
	pumpUntil(t, m, "both killed", func() bool { return m.stateCountForTest(jobs.StateKilled) == 2 })
	require.Nil(t, m.confirm, "nothing left to ask about")
	require.Contains(t, m.View(), "none of the 2 marked jobs can be killed now")
	j4, err := mgr.Get(4)
	require.NoError(t, err)
	require.Equal(t, jobs.StateRunning, j4.State, "the unmarked job is left alone")

	press(t, m, "d")
	require.Contains(t, m.View(), "remove 2 marked jobs? y/n")
	require.NoError(t, mgr.Remove(2))
	require.NoError(t, mgr.Remove(3))
	pumpUntil(t, m, "both gone", func() bool { return len(m.table.Jobs()) == 1 })
	require.Nil(t, m.confirm)
	require.Contains(t, m.View(), "no job is marked now: nothing to remove")
}

// The summary of an action on the marked jobs stays in the status bar a
// while: the ends of those jobs, coming right after, do not replace it.
func TestBulkSummaryOutlivesItsJobsEnds(t *testing.T) {
	mgr := newManager(t)
	for i := 0; i < 3; i++ {
		start(t, mgr, "job", "exec sleep 60")
	}
	now := time.Now()
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return now }}, 140, 30)
	pumpUntil(t, m, "running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 3 })
	press(t, m, "space", "j", "space")

	press(t, m, "X", "y")
	require.Contains(t, m.View(), "killed 2 jobs")
	pumpUntil(t, m, "killed", func() bool { return m.stateCountForTest(jobs.StateKilled) == 2 })
	require.Contains(t, m.View(), "killed 2 jobs", "the summary stays")

	require.NoError(t, mgr.Kill(3))
	pumpUntil(t, m, "job 3 killed", func() bool { return m.stateCountForTest(jobs.StateKilled) == 3 })
	require.Contains(t, m.View(), "job 3 job killed", "the end of a job it did not act on is news")

	// With the summary up again and its hold over, the ends of the jobs
	// it acted on are news again.
	m.setNotice("killed 2 jobs", false)
	m.summary.notice = m.notice
	now = now.Add(summaryHold)
	_, err := mgr.Restart(1)
	require.NoError(t, err)
	pumpUntil(t, m, "job 1 runs again", func() bool { return m.stateCountForTest(jobs.StateRunning) == 1 })
	require.NoError(t, mgr.Kill(1))
	pumpUntil(t, m, "job 1 killed", func() bool { return m.stateCountForTest(jobs.StateKilled) == 3 })
	require.Contains(t, m.View(), "job 1 job killed")
}

// The question closes when its jobs are stopped from outside, and the bar
// says why, for as long as a summary stays: the jobs' ends replaced the
// notice within milliseconds, and the question just vanished.
func TestABulkQuestionClosedFromOutsideSaysWhy(t *testing.T) {
	mgr, m := runningJobs(t, 3)
	press(t, m, "space", "j", "space") // jobs 1 and 2
	press(t, m, "x")
	require.Contains(t, m.View(), "stop 2 marked jobs? y/n")
	require.NoError(t, mgr.Stop(1))
	require.NoError(t, mgr.Stop(2))
	pumpUntil(t, m, "both stopped", func() bool { return m.stateCountForTest(jobs.StateKilled) == 2 })
	require.Nil(t, m.confirm)
	require.Contains(t, m.View(), "none of the 2 marked jobs can be stopped now")
}

// The question says how many of the jobs it acts on the table does not
// show: marked, then filtered out (or hidden by H), a job would be
// stopped unseen.
func TestBulkQuestionSaysWhatIsNotShown(t *testing.T) {
	mgr := newManager(t)
	for _, name := range []string{"alpha", "beta", "gamma"} {
		start(t, mgr, name, "exec sleep 60")
	}
	m := newSizedModel(t, mgr, Config{}, 160, 30)
	pumpUntil(t, m, "running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 3 })
	press(t, m, "space", "j", "space") // alpha and beta
	press(t, m, "/")
	typeText(t, m, "beta")
	press(t, m, "enter")
	press(t, m, "x")
	require.Contains(t, m.View(), "stop 2 marked jobs, 1 of them not shown (a filter, or H)? y/n")
	press(t, m, "n", "/")
	typeText(t, m, "gamma")
	press(t, m, "enter", "X")
	require.Contains(t, m.View(), "kill 2 marked jobs, none of them shown (a filter, or H)? y/n")
	press(t, m, "n", "esc")
	press(t, m, "x")
	require.Contains(t, m.View(), "stop 2 marked jobs? y/n", "all shown again")
}

// While a question or a prompt is open, the mouse neither selects nor
// focuses nor scrolls: the answer is the keys'.
func TestQuestionsAndPromptsIgnoreTheMouse(t *testing.T) {
	_, m := runningJobs(t, 3)
	for _, tc := range []struct {
		name   string
		open   []string
		isOpen func(*Model) bool
	}{
		{"bulk question", []string{"space", "j", "space", "k", "x"}, func(m *Model) bool { return m.confirm != nil }},
		{"quit question", []string{"q"}, func(m *Model) bool { return m.quit == quitConfirm }},
		{"help", []string{"?"}, func(m *Model) bool { return m.panel != nil }},
		{"add prompt", []string{"a"}, func(m *Model) bool { return m.prompt != nil }},
		{"job filter", []string{"/"}, func(m *Model) bool { return m.find != nil }},
	} {
		press(t, m, tc.open...)
		require.True(t, tc.isOpen(m), tc.name)
		pane := m.screen.panes[0]
		click(m, 10, 3) // job 3's row
		click(m, pane.x+5, pane.y+3)
		wheel(m, 10, 2, tea.MouseButtonWheelDown)
		sel, _ := m.table.Selected()
		require.Equal(t, jobs.ID(1), sel.ID, "%s: the selection stays", tc.name)
		require.Equal(t, focusTable, m.focus, "%s: the focus stays", tc.name)
		require.True(t, tc.isOpen(m), "%s: still open", tc.name)
		press(t, m, "esc")
		require.False(t, tc.isOpen(m), tc.name)
	}
}
