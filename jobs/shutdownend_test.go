package jobs

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A job jobtop's end stops has no end of its own: Shutdown, or the stops
// a quitting TUI makes once it said it ends (Ending), mark it ShutDown, so
// that a wait tells it from a job someone stopped (jobtop wait said "job 1
// was killed by SIGTERM", 143, when the TUI quit). A job that ended by
// itself, or was stopped before, is not marked.
func TestJobsStoppedByTheEndAreMarked(t *testing.T) {
	m := newManager(t, Options{MaxRunning: 2})
	failed := start(t, m, Spec{Command: "exit 2"})
	waitFor(t, m, failed.ID, "the failed job's end", func(i Info) bool { return i.State.Done() })
	before := start(t, m, Spec{Command: "exec sleep 600"})
	require.NoError(t, m.Stop(before.ID))
	waitFor(t, m, before.ID, "the job stopped by hand", func(i Info) bool { return i.State.Done() })
	long := start(t, m, Spec{Command: "exec sleep 600"})
	other := start(t, m, Spec{Command: "exec sleep 600"})
	queued := start(t, m, Spec{Command: "true"})
	waitFor(t, m, queued.ID, "the third queued", func(i Info) bool { return i.State == StateQueued })

	m.Ending()
	require.NoError(t, m.Stop(long.ID))
	require.NoError(t, m.Stop(queued.ID))
	require.Error(t, m.Stop(failed.ID), "already over")
	for _, id := range []ID{long.ID, queued.ID} {
		info, err := m.Wait(context.Background(), id)
		require.NoError(t, err)
		assert.True(t, info.ShutDown, "job %d was stopped by the end", id)
		assert.Equal(t, StateKilled, info.State)
	}
	for _, id := range []ID{failed.ID, before.ID} {
		info, err := m.Get(id)
		require.NoError(t, err)
		assert.False(t, info.ShutDown, "job %d ended before", id)
	}

	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	require.NoError(t, m.Shutdown(ctx))
	info, err := m.Wait(context.Background(), other.ID)
	require.NoError(t, err)
	assert.True(t, info.ShutDown, "Shutdown stopped it")
}
