package ui

import (
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheTableShowsAPausedJob: a job paused with kill -STOP read
// "● running", like one at work. The table and the pane header say
// "● paused" (as sampled), and "● running" again once it is continued.
func TestTheTableShowsAPausedJob(t *testing.T) {
	mgr := newManager(t)
	// No fork once up: a shell stopped while it forks (vfork) does not
	// show as stopped.
	info := start(t, mgr, "gs", "sleep 600 & echo up; wait")
	m := newSizedModel(t, mgr, Config{}, 160, 20)
	pumpUntil(t, m, "up", func() bool {
		got, err := mgr.Get(info.ID)
		require.NoError(t, err)
		info = got
		return got.LastLine == "up"
	})
	require.NoError(t, syscall.Kill(info.PID, syscall.SIGSTOP))
	t.Cleanup(func() { syscall.Kill(info.PID, syscall.SIGCONT) }) //nolint:errcheck // for the shutdown
	pumpUntil(t, m, "gs paused", func() bool { return strings.Count(m.View(), "● paused") == 2 })
	assert.NotContains(t, m.View(), "● running", "the table and the pane header both")

	require.NoError(t, syscall.Kill(info.PID, syscall.SIGCONT))
	pumpUntil(t, m, "gs running again", func() bool { return !strings.Contains(m.View(), "● paused") })
	assert.Contains(t, m.View(), "● running")
}
