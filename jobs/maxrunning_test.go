package jobs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func running(i Info) bool { return i.State == StateRunning && i.PID != 0 }

// A higher limit starts queued jobs at once, in queue order, as far as it
// goes; 0 lifts it.
func TestRaisingMaxRunningStartsQueuedJobs(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 1})
	var ids []ID
	for _, name := range []string{"a", "b", "c"} {
		ids = append(ids, start(t, m, Spec{Name: name, Command: "exec sleep 1000"}).ID)
	}
	c, err := m.Get(ids[2])
	require.NoError(t, err)
	require.Equal(t, StateQueued, c.State)
	assert.Equal(t, 1, m.MaxRunning())

	require.NoError(t, m.SetMaxRunning(2))
	assert.Equal(t, 2, m.MaxRunning())
	waitFor(t, m, ids[1], "b to run", running)
	c, err = m.Get(ids[2])
	require.NoError(t, err)
	assert.Equal(t, StateQueued, c.State)
	assert.Equal(t, "waiting for a free slot (2 running)", c.Reason)

	require.NoError(t, m.SetMaxRunning(0))
	waitFor(t, m, ids[2], "c to run", running)
}

// A lower limit stops nothing: the jobs running go on, and a new one waits
// until fewer than the limit run.
func TestLoweringMaxRunningStopsNothing(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 3})
	var ids []ID
	for _, name := range []string{"a", "b", "c"} {
		ids = append(ids, waitFor(t, m, start(t, m, Spec{Name: name, Command: "exec sleep 1000"}).ID, name+" to run", running).ID)
	}
	require.NoError(t, m.SetMaxRunning(1))
	for _, id := range ids {
		info, err := m.Get(id)
		require.NoError(t, err)
		assert.Equal(t, StateRunning, info.State, "job %d", id)
	}
	d := start(t, m, Spec{Name: "d", Command: "echo d"})
	assert.Equal(t, "waiting for a free slot (3 running)", d.Reason)
	for _, id := range ids[:2] {
		require.NoError(t, m.Stop(id))
		wait(t, m, id)
	}
	d, err := m.Get(d.ID)
	require.NoError(t, err)
	assert.Equal(t, StateQueued, d.State, "one still runs, and the limit is 1")
	assert.Equal(t, "waiting for a free slot (1 running)", d.Reason)
	require.NoError(t, m.Stop(ids[2]))
	assert.Equal(t, StateSucceeded, wait(t, m, d.ID).State)
}

func TestNegativeMaxRunningIsRefused(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 2})
	assert.EqualError(t, m.SetMaxRunning(-1), "max running -1 is negative")
	assert.Equal(t, 2, m.MaxRunning())
}

// A running job restarted while jobs wait for a slot keeps its slot: its
// new run starts at once, ahead of them, as a restart of what runs means
// "again, now" (a pueue or mprocs user restarts a dev server, not requeues
// it behind a batch).
func TestARestartedRunningJobKeepsItsSlot(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 1})
	a := waitFor(t, m, start(t, m, Spec{Name: "a", Command: "exec sleep 1000"}).ID, "a to run", running)
	b := start(t, m, Spec{Name: "b", Command: "exec sleep 1000"})
	require.Equal(t, StateQueued, b.State)

	_, err := m.Restart(a.ID)
	require.NoError(t, err)
	again := waitFor(t, m, a.ID, "a's new run", func(i Info) bool { return running(i) && i.PID != a.PID })
	assert.NotEqual(t, a.PID, again.PID)
	b, err = m.Get(b.ID)
	require.NoError(t, err)
	assert.Equal(t, StateQueued, b.State, "b still waits for the slot")
	assert.Equal(t, "waiting for a free slot (1 running)", b.Reason)
}

// A job waiting in the queue holds no log file open (a thousand queued
// jobs would hold a thousand files); it opens it when it starts, and its
// output is all there.
func TestQueuedJobsHoldNoLogFileOpen(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 1})
	gate, open := gate(t, "0")
	first := start(t, m, Spec{Name: "first", Command: gate})
	var queued []Info
	for i := range 5 {
		queued = append(queued, start(t, m, Spec{Name: fmt.Sprintf("q%d", i), Command: fmt.Sprintf("echo queued %d", i)}))
	}
	openLogs := func() int {
		n := 0
		fds, _ := os.ReadDir("/proc/self/fd")
		for _, fd := range fds {
			if link, err := os.Readlink("/proc/self/fd/" + fd.Name()); err == nil && strings.HasPrefix(link, m.LogDir()) && strings.HasSuffix(link, ".log") {
				n++
			}
		}
		return n
	}
	assert.Equal(t, 1, openLogs(), "only the running job's")
	require.NoError(t, writeFile(open))
	wait(t, m, first.ID)
	for i, q := range queued {
		wait(t, m, q.ID)
		b, err := os.ReadFile(filepath.Join(m.LogDir(), q.ID.String()+".log"))
		require.NoError(t, err)
		assert.Contains(t, string(b), fmt.Sprintf("queued %d\n", i))
	}
}

// ReplaceQueued edits a job that waits for a slot and never ran, in its
// place; one that has started is refused, and runs on as it started.
func TestReplaceQueuedOnlyBeforeTheFirstRun(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 1})
	a := waitFor(t, m, start(t, m, Spec{Name: "a", Command: "exec sleep 1000"}).ID, "a to run", running)
	b := start(t, m, Spec{Name: "b", Command: "echo typo"})
	edited, err := m.ReplaceQueued(b.ID, Spec{Command: "echo fixed"})
	require.NoError(t, err)
	assert.Equal(t, "b", edited.Name, "its name kept")
	assert.Equal(t, StateQueued, edited.State)

	_, err = m.ReplaceQueued(a.ID, Spec{Command: "echo other"})
	var invalid *InvalidActionError
	require.ErrorAs(t, err, &invalid)
	assert.Equal(t, "cannot edit job 1: it has started", err.Error())
	again, err := m.Get(a.ID)
	require.NoError(t, err)
	assert.Equal(t, "exec sleep 1000", again.Command, "its spec untouched")

	require.NoError(t, m.Kill(a.ID))
	done := wait(t, m, b.ID)
	assert.Equal(t, StateSucceeded, done.State)
	assert.Equal(t, "echo fixed", done.Command)
}
