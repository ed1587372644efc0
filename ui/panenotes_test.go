package ui

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// smallStoreManager keeps only maxLines lines of each job in memory.
func smallStoreManager(t *testing.T, maxLines int) *jobs.Manager {
	t.Helper()
	mgr, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), Store: jobs.StoreOptions{MaxLines: maxLines}})
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		require.NoError(t, mgr.Shutdown(ctx))
	})
	return mgr
}

// Lines dropped from memory are not silently gone: the pane's first row
// says how many there are and where they are.
func TestDroppedLinesNoteTopsThePane(t *testing.T) {
	mgr := smallStoreManager(t, 50)
	start(t, mgr, "counter", "seq 1 16699")
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	pumpUntil(t, m, "the job to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	const note = "16,649 older lines are in the log file — o opens it"
	require.NotContains(t, m.View(), note, "following: the newest lines fill the pane")

	press(t, m, "enter", "g")
	rows := paneRows(m)
	require.Equal(t, note, rows[0])
	require.Equal(t, "16650", rows[1], "the oldest line held follows the note")
	press(t, m, "k")
	require.Equal(t, note, paneRows(m)[0], "nothing above the note")
	press(t, m, "j")
	require.Equal(t, "16650", paneRows(m)[0], "the note scrolls like a line")
	press(t, m, "G")
	require.Equal(t, "16699", paneRows(m)[len(paneRows(m))-1])

	// A pane taller than what memory holds shows the note while following.
	tall := newSizedModel(t, mgr, Config{}, 100, 80)
	require.Equal(t, note, paneRows(tall)[0])
	require.Equal(t, "16699", paneRows(tall)[50])
}

func TestDroppedLinesNoteTopsTheAllView(t *testing.T) {
	mgr := smallStoreManager(t, 20)
	start(t, mgr, "big", "seq 1 1020")
	pumpDone := func(m *Model) {
		pumpUntil(t, m, "the jobs to end", func() bool { return m.liveJobs() == 0 })
	}
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpDone(m)
	start(t, mgr, "small", "seq 1 10")
	start(t, mgr, "mid", "seq 1 25")
	pumpUntil(t, m, "three jobs to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 3 })

	press(t, m, "A", "enter", "g")
	rows := paneText(m.all)
	require.Equal(t, "1,005 older lines are in the log files — A then o opens the selected job's (big 1,000, mid 5)", rows[0])
	require.Equal(t, "big   │ 1001", rows[1])
}

// A job that could not start says why in its pane, not "(no output
// yet)"; a run that could not start after others did says it after
// their output.
func TestPaneSaysWhyAJobCouldNotStart(t *testing.T) {
	mgr := newManager(t)
	info, err := mgr.Start(jobs.Spec{Name: "ghost", Argv: []string{"nosuchprog-jobtop-test"}})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 200, 20)
	pumpUntil(t, m, "the error", func() bool { return m.stateCountForTest(jobs.StateError) == 1 })
	got, err := mgr.Get(info.ID)
	require.NoError(t, err)
	require.NotEmpty(t, got.Error)
	require.Equal(t, []string{"could not start: " + got.Error}, paneRows(m))
	require.NotContains(t, m.View(), "(no output yet)")

	// A later run that cannot start (its directory is gone) says why
	// after the lines of the run before.
	dir := t.TempDir()
	flaky, err := mgr.Start(jobs.Spec{Name: "flaky", Command: "echo first run", Dir: dir})
	require.NoError(t, err)
	pumpUntil(t, m, "the first run", func() bool {
		j, _ := m.table.Get(flaky.ID)
		return j.State == jobs.StateSucceeded
	})
	press(t, m, "j")
	require.NoError(t, os.RemoveAll(dir))
	press(t, m, "r")
	pumpUntil(t, m, "the second run to fail", func() bool {
		j, _ := m.table.Get(flaky.ID)
		return j.State == jobs.StateError
	})
	got, err = mgr.Get(flaky.ID)
	require.NoError(t, err)
	require.Equal(t, []string{"first run", "── run 2 ──", "could not start: " + got.Error}, paneRows(m))
}

// The state symbols and the row marks are told apart without colour: no
// state is drawn with the mark of a job that ended unseen.
func TestStateSymbolsDifferFromRowMarks(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	for i, s := range stateOrder {
		info := jobs.Info{ID: jobs.ID(i + 1), Name: "job", State: s}
		m.table.Upsert(info)
		for _, a := range []attention{unseenEnd, unseenOutput} {
			m.table.unseen[info.ID] = a
			row := []rune(m.table.rowView(info))
			mark := string(row[2])
			require.NotEqual(t, " ", mark, "%s: the row is marked", s)
			require.NotContains(t, statusText(info), mark, "%s: the state's symbol is the mark %q", s, mark)
		}
	}
}

// d on a job that has not ended says why it does nothing, as jobtop rm
// does.
func TestRemoveOnALiveJobSaysWhy(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "web", "exec sleep 60")
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	pumpUntil(t, m, "running", func() bool { return m.stateCountForTest(jobs.StateRunning) == 1 })
	require.NotContains(t, m.helpView(), "d remove", "help shows only what works")
	press(t, m, "d")
	require.Contains(t, m.statusView(), "cannot remove job 1: it is running; stop it first with x")
	require.Equal(t, 1, m.table.Len())

	press(t, m, "enter", "d")
	require.Contains(t, m.statusView(), "cannot remove job 1", "also from the pane")
}

// x and X on a job that has ended say why they do nothing, and what
// would run it, as d on a live one does.
func TestStopOnAnEndedJobSaysWhy(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "done", "true")
	m := newSizedModel(t, mgr, Config{}, 120, 20)
	pumpUntil(t, m, "ended", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "x")
	require.Contains(t, m.statusView(), "cannot stop job 1: it has ended (succeeded); r runs it again")
	press(t, m, "X")
	require.Contains(t, m.statusView(), "cannot kill job 1: it has ended (succeeded); r runs it again")
}

// A log file that could not be written (a full disk) is not said to hold
// the lines dropped from memory.
func TestDroppedLinesNoteSaysTheLogFileMissedSome(t *testing.T) {
	mgr := smallStoreManager(t, 50)
	// The first job's log file is full: every write fails, no space.
	jobs.FillLogForTest(t, filepath.Join(mgr.LogDir(), "1.log"))
	start(t, mgr, "counter", "seq 1 200")
	m := newSizedModel(t, mgr, Config{}, 140, 30)
	pumpUntil(t, m, "the job to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	press(t, m, "enter", "g")
	require.Equal(t, "150 older lines were dropped from memory; the log file missed some output (a full disk?) — o opens it", paneRows(m)[0])
}

// TestAllViewNoteSaysWhichLogFilesMissedOutput: in the "all" view too,
// dropped lines are not said to be in the log files when a job's log file
// could not all be written.
func TestAllViewNoteSaysWhichLogFilesMissedOutput(t *testing.T) {
	mgr := smallStoreManager(t, 50)
	// The first job's log file is full: every write fails, no space.
	jobs.FillLogForTest(t, filepath.Join(mgr.LogDir(), "1.log"))
	start(t, mgr, "full", "seq 1 200")
	start(t, mgr, "fine", "seq 1 100")
	m := newSizedModel(t, mgr, Config{}, 200, 30)
	pumpUntil(t, m, "the jobs to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 2 })
	press(t, m, "A", "enter", "g")
	require.Equal(t, "200 older lines were dropped from memory (full 150, fine 50); full's log file missed some output (a full disk?); the others' are in their log files — A then o opens the selected job's",
		paneText(m.all)[0])
}

// A job that ended without writing a line says so, not that its output
// is still to come ("(no output yet)" read as if it still ran).
func TestPaneOfAnEndedSilentJobSaysNoOutput(t *testing.T) {
	mgr := newManager(t)
	start(t, mgr, "quiet", "true")
	m := newSizedModel(t, mgr, Config{}, 100, 20)
	pumpUntil(t, m, "the job to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	require.Contains(t, m.View(), "(no output)")
	require.NotContains(t, m.View(), "(no output yet)")

	mgr2 := newManager(t)
	start(t, mgr2, "sleeper", "exec sleep 60")
	m2 := newSizedModel(t, mgr2, Config{}, 100, 20)
	pumpUntil(t, m2, "running", func() bool { return m2.stateCountForTest(jobs.StateRunning) == 1 })
	require.Contains(t, m2.View(), "(no output yet)", "a running job's may still come")
}
