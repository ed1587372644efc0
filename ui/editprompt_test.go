package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// e opens the add prompt filled in with the selected job's command and
// its terminal or pipes: the user edits the arguments and starts a new
// job. There was no way to run a job again changed but to type it all.
func TestEditRunsTheSelectedJobChanged(t *testing.T) {
	mgr := newManager(t)
	first, err := mgr.Start(jobs.Spec{Name: "train", Command: "echo lr=0.1", TTY: false})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 40, 200) // the help in one column
	pumpUntil(t, m, "the job", func() bool { return strings.Contains(m.View(), "✓ succeeded") })
	press(t, m, "?")
	require.Regexp(t, helpLine("e", "edit & run as new"), group(t, helpText(t, m), "everywhere"))
	press(t, m, "esc")

	press(t, m, "e")
	require.NotNil(t, m.prompt)
	require.Equal(t, "echo lr=0.1", m.prompt.inputs[0].Value())
	require.Contains(t, m.View(), "on pipes", "the job's pipes chosen")
	press(t, m, "backspace")
	typeText(t, m, "2")
	press(t, m, "enter")
	require.Nil(t, m.prompt)
	pumpUntil(t, m, "the new job", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 2 })
	sel, ok := m.table.Selected()
	require.True(t, ok)
	require.NotEqual(t, first.ID, sel.ID, "a new job, the first left as it was")
	require.Equal(t, "echo lr=0.2", sel.Command)
	require.False(t, sel.TTY)
	require.Contains(t, paneRows(m), "lr=0.2")
}

// ↑ and ↓ in the add prompt walk the commands started from it in this
// session; past the newest, the command being typed comes back.
func TestAddPromptHistory(t *testing.T) {
	mgr := newManager(t)
	m := newSizedModel(t, mgr, Config{}, 100, 30)
	for _, c := range []string{"echo one", "echo two"} {
		press(t, m, "a")
		typeText(t, m, c)
		press(t, m, "enter")
		require.Nil(t, m.prompt)
	}
	press(t, m, "a")
	require.Contains(t, m.helpView(), "↑/↓ earlier commands")
	typeText(t, m, "echo thr")
	command := func() string { return m.prompt.inputs[0].Value() }
	press(t, m, "up")
	require.Equal(t, "echo two", command())
	press(t, m, "up")
	require.Equal(t, "echo one", command())
	press(t, m, "up")
	require.Equal(t, "echo one", command(), "the oldest stays")
	press(t, m, "down")
	require.Equal(t, "echo two", command())
	press(t, m, "down")
	require.Equal(t, "echo thr", command(), "what was being typed")
	press(t, m, "up")
	typeText(t, m, " again")
	press(t, m, "enter")
	pumpUntil(t, m, "three jobs", func() bool { return m.table.Len() == 3 })
	sel, _ := m.table.Selected()
	require.Equal(t, "echo two again", sel.Command)
}

// e keeps what the job ran with besides its command: its directory and
// the variables its spec adds (a job file's env:, .env and PORT; jobtop
// run's --env). The edited job ran in the TUI's directory with none of
// them: a job file's web, edited, could not find its database.
func TestEditKeepsTheJobsDirectoryAndEnvironment(t *testing.T) {
	mgr := newManager(t)
	dir := t.TempDir()
	_, err := mgr.Start(jobs.Spec{Name: "web", Command: `echo "dir=$(pwd) DB=$DB"; exit 1`, Dir: dir,
		Env: map[string]string{"DB": "postgres://x"}})
	require.NoError(t, err)
	m := newSizedModel(t, mgr, Config{}, 120, 30)
	pumpUntil(t, m, "the job", func() bool { return m.stateCountForTest(jobs.StateFailed) == 1 })

	press(t, m, "e")
	require.NotNil(t, m.prompt)
	require.Contains(t, m.View(), "run as a new job in "+dir, "where it runs")
	for range len("exit 1") {
		press(t, m, "backspace")
	}
	typeText(t, m, "exit 0")
	press(t, m, "enter")
	require.Nil(t, m.prompt)
	pumpUntil(t, m, "the edited job", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 1 })
	sel, ok := m.table.Selected()
	require.True(t, ok)
	require.Equal(t, `echo "dir=$(pwd) DB=$DB"; exit 0`, sel.Command)
	require.Equal(t, dir, sel.Dir)
	require.Contains(t, paneRows(m), "dir="+dir+" DB=postgres://x")
}

// e on a job that waits for a slot and never ran edits that job: the
// edited command takes its place in the queue, under its name, and the
// command it had never runs. Both versions used to run, one after the
// other. A job that has started is still run as new.
func TestEditReplacesAQueuedJob(t *testing.T) {
	mgr := newManager(t)
	require.NoError(t, mgr.SetMaxRunning(1))
	gate := mkfifo(t, "gate")
	busy := start(t, mgr, "busy", "cat "+gate)
	queued := start(t, mgr, "build", "echo typo")
	require.Equal(t, jobs.StateQueued, queued.State)
	m := newSizedModel(t, mgr, Config{Select: queued.ID}, 120, 30)

	press(t, m, "e")
	require.NotNil(t, m.prompt)
	require.Contains(t, m.View(), "edit job 2: not started yet, the edit replaces it")
	for range len("typo") {
		press(t, m, "backspace")
	}
	typeText(t, m, "fixed")
	press(t, m, "enter")
	require.Nil(t, m.prompt)
	require.Contains(t, m.View(), "edited job 2")
	require.Len(t, mgr.List(), 2, "no job added")
	edited, err := mgr.Get(queued.ID)
	require.NoError(t, err)
	require.Equal(t, "echo fixed", edited.Command)
	require.Equal(t, "build", edited.Name)
	require.Equal(t, jobs.StateQueued, edited.State, "in its place, waiting")

	writeFifo(t, gate, "")
	pumpUntil(t, m, "both to end", func() bool { return m.stateCountForTest(jobs.StateSucceeded) == 2 })
	m.table.Select(queued.ID)
	m.syncPanes()
	require.Contains(t, paneRows(m), "fixed")
	require.NotContains(t, paneRows(m), "typo")

	// The busy job has run: e runs it as new.
	m.table.Select(busy.ID)
	press(t, m, "e")
	require.NotContains(t, m.View(), "the edit replaces it")
	press(t, m, "enter")
	pumpUntil(t, m, "a third job", func() bool { return len(mgr.List()) == 3 })
}
