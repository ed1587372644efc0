package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// Config.Select selects a job at the start (jobtop 'cmd' selects the job
// it started).
func TestSelectAtStart(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "one", "exec sleep 60")
	two := start(t, mgr, "two", "exec sleep 60")
	start(t, mgr, "three", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{Select: two.ID}, 100, 20)
	sel, ok := m.table.Selected()
	require.True(t, ok)
	require.Equal(t, two.ID, sel.ID)
	require.Contains(t, m.View(), "job 2 two")
}

// A job that appears without this TUI starting it gets a notice; one it
// starts from the add prompt gets its own.
func TestNoticeForJobsStartedElsewhere(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 140, 20)
	start(t, mgr, "web", "exec sleep 60")
	pumpUntil(t, m, "the notice", func() bool {
		return strings.Contains(m.View(), "job 1 web started from outside this TUI")
	})

	start(t, mgr, "db", "exec sleep 60")
	start(t, mgr, "api", "exec sleep 60")
	pumpUntil(t, m, "both jobs", func() bool { return m.table.Len() == 3 })
	require.Contains(t, m.View(), "started from outside this TUI")
	require.Contains(t, m.View(), "3 api")

	press(t, m, "a")
	typeText(t, m, "sleep 61")
	press(t, m, "tab")
	typeText(t, m, "mine")
	press(t, m, "enter")
	pumpUntil(t, m, "the new job", func() bool { return m.table.Len() == 4 })
	require.Contains(t, m.View(), "started job 4 (mine)")
	require.NotContains(t, m.View(), "mine started from outside")
}

// The table says "7 of 18" when rows are hidden by its height, by a
// filter or by H, and nothing when every job is shown.
func TestTableCountsHiddenRows(t *testing.T) {
	mgr := newManager(t)
	for i := 1; i <= 18; i++ {
		command := "exec sleep 60"
		if i%3 == 0 {
			command = "true"
		}
		start(t, mgr, fmt.Sprintf("job-%02d", i), command)
	}
	m := newSizedModel(t, mgr, Config{}, 100, 40)
	pumpUntil(t, m, "18 jobs settled", func() bool {
		return m.table.Len() == 18 && m.stateCountForTest(jobs.StateSucceeded) == 6
	})
	header := func() string { return lines(m.View())[0] }
	rows := m.table.visibleRows()
	require.Less(t, rows, 18, "the table is shorter than the list")
	require.True(t, strings.HasSuffix(header(), fmt.Sprintf(" %d of 18", rows)), "header %q", header())
	requireFits(t, m.View(), 100, 40, "count in the header")

	press(t, m, "/")
	typeText(t, m, "job-1")
	press(t, m, "enter")
	require.True(t, strings.HasSuffix(header(), " 9 of 18"), "job-1, job-10..job-18: %q", header())

	press(t, m, "esc")
	m.Update(resize(100, 70))
	require.NotContains(t, header(), "of 18", "every job is shown")
	require.True(t, strings.HasPrefix(header(), "    ID NAME"))
}

// H hides the jobs that have ended, and shows them again.
func TestHideEndedJobs(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "ok", "true")
	start(t, mgr, "bad", "exit 3")
	start(t, mgr, "runs", "exec sleep 60")
	created, err := mgr.Add(jobs.Spec{Name: "later", Command: "true"})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "two ended", func() bool {
		return m.stateCountForTest(jobs.StateSucceeded) == 1 && m.stateCountForTest(jobs.StateFailed) == 1
	})
	require.True(t, m.km.HideEnded.Enabled())
	require.Equal(t, "hide ended", m.km.HideEnded.Help().Desc)

	press(t, m, "H")
	view := m.View()
	require.Equal(t, 2, m.table.Len(), "a created job has not ended: it stays")
	require.NotContains(t, view, " ok ")
	require.NotContains(t, view, " bad ")
	require.Contains(t, view, "runs")
	require.Contains(t, view, created.Name)
	require.Contains(t, view, "ended hidden")
	require.Contains(t, view, "2 of 4")
	require.Contains(t, view, "hiding 2 ended jobs — H shows them")
	require.Equal(t, "show ended", m.km.HideEnded.Help().Desc)

	// A job that ends while they are hidden leaves the table.
	require.NoError(t, mgr.Kill(3))
	pumpUntil(t, m, "runs to go", func() bool { return m.table.Len() == 1 })

	press(t, m, "H")
	require.Equal(t, 4, m.table.Len())
	require.NotContains(t, m.View(), "ended hidden")
}

// Every job hidden by H: the table says why and how to see them.
func TestHideEndedWithNothingLeft(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "ok", "true")
	m := newSizedModel(t, mgr, Config{}, 100, 20)
	pumpUntil(t, m, "ended", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "H")
	require.Contains(t, m.View(), "1 ended job hidden — H shows them")
	requireFits(t, m.View(), 100, 20, "nothing shown")
}

// A stopping job shows the seconds left before SIGKILL, <1s under one.
func TestStoppingJobCountsDownToSIGKILL(t *testing.T) {
	mgr := newManager(t)
	info, err := mgr.Start(jobs.Spec{Name: "stubborn", Command: "trap '' TERM; echo up; while :; do sleep 0.1; done", Grace: time.Minute})
	require.NoError(t, err)
	clock := time.Now()
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return clock }}, 120, 20)
	pumpUntil(t, m, "up", func() bool { j, _ := m.table.Get(info.ID); return j.LastLine == "up" })
	press(t, m, "x")
	pumpUntil(t, m, "stopping", func() bool { return m.stateCountForTest(jobs.StateStopping) == 1 })
	j, _ := m.table.Get(info.ID)
	require.NotNil(t, j.KillAt)

	at := func(d time.Duration) string {
		clock = j.KillAt.Add(-d)
		m.Update(tickMsg{})
		return m.View()
	}
	require.Contains(t, at(4200*time.Millisecond), "◐ stopping 5s")
	require.Contains(t, at(500*time.Millisecond), "◐ stopping <1s", "under a second, as a restart's countdown")
	require.Contains(t, at(time.Second), "◐ stopping 1s")
	require.Contains(t, at(59*time.Second), "◐ stopping 59s")
	view := at(-time.Second)
	require.Contains(t, view, "◐ stopping")
	require.NotContains(t, view, "stopping 0s")
	require.NoError(t, mgr.Kill(info.ID))
}

// A failed job waiting out its restart backoff shows when it runs again,
// and the clock ticks for it though no job runs.
func TestFailedJobCountsDownToItsRestart(t *testing.T) {
	mgr := newManager(t)
	info, err := mgr.Start(jobs.Spec{Name: "flaky", Command: "exit 3", Restart: jobs.RestartPolicy{Mode: jobs.RestartOnFailure, Backoff: time.Minute}})
	require.NoError(t, err)
	clock := time.Now()
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return clock }}, 120, 20)
	pumpUntil(t, m, "failed", func() bool { j, _ := m.table.Get(info.ID); return j.RestartAt != nil })
	j, _ := m.table.Get(info.ID)
	require.Equal(t, jobs.StateFailed, j.State)
	clock = j.RestartAt.Add(-40 * time.Second)
	m.Update(tickMsg{})
	require.True(t, m.ticking, "the clock runs while a restart waits")
	require.Contains(t, m.View(), "✗ failed ↻40s")
	require.Zero(t, m.liveJobs(), "no job runs: quitting asks nothing")
	require.True(t, m.km.Stop.Enabled(), "x cancels the restart")
	require.True(t, m.km.Kill.Enabled())
	require.False(t, m.km.Remove.Enabled(), "the instance refuses it until the restart is cancelled")

	press(t, m, "x")
	pumpUntil(t, m, "cancelled", func() bool { j, _ := m.table.Get(info.ID); return j.RestartAt == nil })
	require.NotContains(t, m.View(), "↻")
	require.Contains(t, m.View(), "✗ failed (3)")
}

func TestCountdownFormat(t *testing.T) {
	now := time.Now()
	in := func(d time.Duration) jobs.Info {
		at := now.Add(d)
		return jobs.Info{State: jobs.StateStopping, KillAt: &at}
	}
	killCountdown := countdown
	require.Equal(t, " 5s", killCountdown(in(5*time.Second), now))
	require.Equal(t, " <1s", killCountdown(in(time.Millisecond), now), "the last instant before SIGKILL is no 1s wait")
	require.Equal(t, " <1s", killCountdown(in(999*time.Millisecond), now))
	require.Equal(t, " 1s", killCountdown(in(time.Second), now))
	require.Equal(t, " 2s", killCountdown(in(1001*time.Millisecond), now))
	require.Equal(t, " 99s", killCountdown(in(99*time.Second), now))
	require.Equal(t, " 2m", killCountdown(in(100*time.Second), now))
	require.Equal(t, "", killCountdown(in(0), now))
	require.Equal(t, "", killCountdown(jobs.Info{State: jobs.StateStopping}, now))
	running := in(time.Second)
	running.State = jobs.StateRunning
	require.Equal(t, "", killCountdown(running, now))
	require.LessOrEqual(t, len(statusText(in(time.Hour))+killCountdown(in(time.Hour), now)), statusWidth+2)

	restart := func(d time.Duration) jobs.Info {
		at, code := now.Add(d), 1
		return jobs.Info{State: jobs.StateFailed, ExitCode: &code, RestartAt: &at}
	}
	require.Equal(t, " ↻3s", countdown(restart(2500*time.Millisecond), now))
	require.Equal(t, " ↻<1s", countdown(restart(10*time.Millisecond), now), "a 10ms backoff is no 1s wait")
	require.Equal(t, " ↻1s", countdown(restart(time.Second), now))
	require.Equal(t, " ↻5m", countdown(restart(5*time.Minute), now))
	require.Equal(t, "", countdown(restart(-time.Second), now), "due: the job is about to be queued")
	require.Equal(t, " ↻9d", countdown(restart(200*time.Hour), now))
	require.Equal(t, " ↻99h", countdown(restart(99*time.Hour), now))
	require.Equal(t, " ↻2h", countdown(restart(100*time.Minute), now))
}

// With jobs marked and the table focused, x, X, r and d act on every
// marked job after a question that says how many.
func TestBulkActionsOnMarkedJobs(t *testing.T) {
	mgr := newManager(t)
	for _, name := range []string{"a", "b", "c", "d"} {
		start(t, mgr, name, "exec sleep 60")
	}
	start(t, mgr, "done", "true")
	m := newSizedModel(t, mgr, Config{}, 140, 30)
	pumpUntil(t, m, "settled", func() bool {
		return m.stateCountForTest(jobs.StateRunning) == 4 && m.stateCountForTest(jobs.StateSucceeded) == 1
	})
	press(t, m, "space", "j", "space", "j", "space") // a, b, c

	press(t, m, "x")
	require.Contains(t, m.View(), "stop 3 marked jobs? y/n")
	require.Contains(t, m.helpView(), "y yes")
	press(t, m, "n")
	require.Equal(t, 4, m.stateCountForTest(jobs.StateRunning), "n does nothing")
	require.NotContains(t, m.View(), "? y/n")

	press(t, m, "X", "y")
	require.Contains(t, m.View(), "killed 3 jobs")
	pumpUntil(t, m, "three killed", func() bool { return m.stateCountForTest(jobs.StateKilled) == 3 })
	d, err := mgr.Get(4)
	require.NoError(t, err)
	require.Equal(t, jobs.StateRunning, d.State, "an unmarked job is left alone")

	// Mark the running one and the succeeded one too: stop applies to one
	// of the five, and the question says so.
	press(t, m, "j", "space", "j", "space")
	press(t, m, "x")
	require.Contains(t, m.View(), "stop 1 of 5 marked jobs (4 cannot be stopped now)? y/n")
	press(t, m, "esc")

	press(t, m, "r", "y")
	pumpUntil(t, m, "all run again", func() bool { return m.stateCountForTest(jobs.StateRunning) == 4 })
	for id := jobs.ID(1); id <= 3; id++ {
		j, err := mgr.Get(id)
		require.NoError(t, err)
		require.Equal(t, 2, j.Runs, "job %d restarted", id)
	}

	// d removes the marked jobs that ended.
	press(t, m, "X", "y")
	pumpUntil(t, m, "killed", func() bool { return m.liveJobs() == 0 })
	press(t, m, "d")
	require.Contains(t, m.View(), "remove 5 marked jobs? y/n")
	press(t, m, "y")
	pumpUntil(t, m, "removed", func() bool { return len(m.table.Jobs()) == 0 })
	require.Empty(t, mgr.List())
	require.Empty(t, m.table.Marked())
}

// With jobs marked, a pane's keys still act on its own job only.
func TestPaneKeysActOnTheirJobWhenJobsAreMarked(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "a", "exec sleep 60")
	start(t, mgr, "b", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 140, 30)
	pumpUntil(t, m, "running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 2 })
	press(t, m, "space", "j", "space", "s", "tab")
	require.Equal(t, focusOutput, m.focus)
	press(t, m, "X")
	require.Nil(t, m.confirm, "no question: the focused pane's job")
	pumpUntil(t, m, "one killed", func() bool { return m.stateCountForTest(jobs.StateKilled) == 1 })
	require.Equal(t, 1, m.stateCountForTest(jobs.StateRunning))
}

// jobtop shutdown reaches a TUI instance as ShutdownMsg: every job is
// stopped with its grace rules, without a question, and the TUI quits.
func TestShutdownMsgStopsEveryJobAndQuits(t *testing.T) {
	mgr := newManager(t)
	a := start(t, mgr, "graceful", "trap 'echo bye; exit 0' TERM; echo up; while :; do sleep 0.05; done")
	b := start(t, mgr, "sleeper", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	pumpUntil(t, m, "up", func() bool { j, _ := m.table.Get(a.ID); return j.LastLine == "up" })
	press(t, m, "a") // a prompt is open: it does not stop the shutdown
	_, cmd := m.Update(ShutdownMsg{})
	runCmd(t, m, cmd)
	require.Nil(t, m.prompt)
	pumpUntil(t, m, "quit", func() bool { return m.quitting })
	for _, id := range []jobs.ID{a.ID, b.ID} {
		j, err := mgr.Get(id)
		require.NoError(t, err)
		require.Equal(t, jobs.StateKilled, j.State)
		requireGone(t, j.PID)
	}
	out, err := mgr.Output(a.ID)
	require.NoError(t, err)
	var texts []string
	for _, l := range out.ReadAfter(0, 100).Lines {
		texts = append(texts, l.Text)
	}
	require.Contains(t, texts, "bye", "the grace rules applied")
}

// addingReloader is a manager whose reload adds a job, as a job file that
// gained one does.
type addingReloader struct {
	*jobs.Manager
	t testing.TB
}

func (r addingReloader) Reload() (string, error) {
	start(r.t, r.Manager, "cache", "exec sleep 60")
	return "reloaded jobtop.yaml: 1 added (cache)", nil
}

// The job a reload adds is no news from outside: its events arrive after
// the reload is done, and the summary stays.
func TestReloadedJobsAreNotFromOutside(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	m := newSizedModel(t, addingReloader{Manager: mgr, t: t}, Config{JobFile: "jobtop.yaml"}, 140, 20)
	pumpUntil(t, m, "web", func() bool { return m.stateCountForTest(jobs.StateRunning) == 1 })
	press(t, m, "R") // the reload runs; its job's events are still queued
	require.Contains(t, m.statusView(), "reloaded jobtop.yaml: 1 added (cache)")
	pumpUntil(t, m, "cache running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 2 })
	require.Contains(t, m.statusView(), "reloaded jobtop.yaml: 1 added (cache)")
	require.NotContains(t, m.statusView(), "from outside")
}

var _ JobsEnder = (*jobs.Manager)(nil)

// Marked jobs stopped together are one stop: a job waiting to restart
// and a queued job waiting for it to complete both end, and the
// cancelled restart does not start the dependant on the way.
func TestStoppingMarkedJobsStartsNoneOfThem(t *testing.T) {
	mgr := newManager(t)
	a, err := mgr.Start(jobs.Spec{Name: "a", Command: "exit 1", Restart: jobs.RestartPolicy{Mode: jobs.RestartAlways, Backoff: time.Hour}})
	require.NoError(t, err)
	b, err := mgr.Start(jobs.Spec{Name: "b", Command: "echo b", DependsOn: map[string]jobs.Condition{"a": jobs.CondCompleted}})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 140, 30)
	pumpUntil(t, m, "a waiting to restart", func() bool {
		a, err = mgr.Get(a.ID)
		return err == nil && a.RestartAt != nil
	})

	m.Update(m.actOnAll(actionStop, []jobs.ID{a.ID, b.ID})())
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	b, err = mgr.Wait(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, jobs.StateKilled, b.State)
	require.Zero(t, b.PID, "it never ran")
	require.Contains(t, m.View(), "stopping 2 jobs", "neither refused")
}

// PgDn and PgUp move the selection a screen of rows, as in htop, and stop
// at the ends.
func TestTablePagesWithPgUpAndPgDn(t *testing.T) {
	mgr := newManager(t)
	for i := 1; i <= 30; i++ {
		start(t, mgr, fmt.Sprintf("job-%02d", i), "exec sleep 60")
	}
	m := newSizedModel(t, mgr, Config{}, 100, 40)
	pumpUntil(t, m, "30 jobs", func() bool { return m.table.Len() == 30 })
	press(t, m, "g")
	rows := m.table.visibleRows()
	require.Less(t, rows, 15, "a page is shorter than half the list")
	selected := func() string {
		sel, ok := m.table.Selected()
		require.True(t, ok)
		return sel.Name
	}
	press(t, m, "pgdown")
	require.Equal(t, fmt.Sprintf("job-%02d", 1+rows), selected())
	require.Contains(t, m.View(), fmt.Sprintf("job-%02d", 1+rows), "the selected row is shown")
	press(t, m, "pgdown")
	require.Equal(t, fmt.Sprintf("job-%02d", 1+2*rows), selected())
	press(t, m, "pgup")
	require.Equal(t, fmt.Sprintf("job-%02d", 1+rows), selected())
	for range 5 {
		press(t, m, "pgdown")
	}
	require.Equal(t, "job-30", selected())
	for range 5 {
		press(t, m, "pgup")
	}
	require.Equal(t, "job-01", selected())
}

// A countdown is drawn against the time of the event that brought it,
// not the last tick's (up to a second old): a 900 ms wait read ↻2s for
// a while (rev49).
func TestCountdownOfAJobEventIsDrawnAgainstNow(t *testing.T) {
	mgr := newManager(t)
	clock := time.Now()
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return clock }}, 120, 20)
	m.table.SetNow(clock.Add(-5 * time.Second)) // the last tick's
	code, at := 3, clock.Add(900*time.Millisecond)
	m.handleJobEvents([]jobs.Event{{Kind: jobs.EventState, Job: jobs.Info{ID: 1, Name: "flaky", State: jobs.StateFailed, ExitCode: &code, RestartAt: &at}}})
	require.Contains(t, m.View(), "✗ failed ↻<1s")
}
