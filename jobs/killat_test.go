package jobs

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A stopping job says when SIGKILL is due; a running or killed one does
// not.
func TestStoppingJobHasKillDeadline(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "trap 'echo got TERM' TERM; echo up; while :; do sleep 0.05; done", Grace: 30 * time.Second})
	waitFor(t, m, info.ID, "the trap to be set", func(i Info) bool { return i.LastLine == "up" })
	running, err := m.Get(info.ID)
	require.NoError(t, err)
	assert.Nil(t, running.KillAt)

	before := time.Now()
	require.NoError(t, m.Stop(info.ID))
	stopping, err := m.Get(info.ID)
	require.NoError(t, err)
	require.Equal(t, StateStopping, stopping.State)
	require.NotNil(t, stopping.KillAt)
	assert.WithinRange(t, *stopping.KillAt, before.Add(30*time.Second), time.Now().Add(30*time.Second))

	require.NoError(t, m.Kill(info.ID))
	killed, err := m.Get(info.ID)
	require.NoError(t, err)
	assert.Nil(t, killed.KillAt, "SIGKILL was sent: nothing to count down")
	assert.Nil(t, wait(t, m, info.ID).KillAt)

	// A kill of a running job has no countdown either.
	second := start(t, m, Spec{Command: "sleep 30"})
	require.NoError(t, m.Kill(second.ID))
	got, err := m.Get(second.ID)
	require.NoError(t, err)
	assert.Nil(t, got.KillAt)
}
