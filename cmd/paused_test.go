package cmd

import (
	"encoding/json"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestAPausedJobShowsPaused: a job paused with kill -STOP showed as
// running in status, ls and ls --json, as one at work. Each says it is
// paused (as sampled: within a few seconds), and no longer once it is
// continued.
func TestAPausedJobShowsPaused(t *testing.T) {
	c := newCLI(t)
	c.serve()
	// No fork once ready: a shell stopped while it forks (vfork) does
	// not show as stopped.
	id := c.startJob("sleep 600 & echo ready; wait", "--name", "gs")
	c.ok("wait", id, "--until", "^ready$", "--timeout", "20s")
	pid := c.status(id).PID
	require.NotZero(t, pid)
	require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) }) //nolint:errcheck // for the shutdown

	stopped := func() any {
		var obj map[string]any
		require.NoError(t, json.Unmarshal([]byte(c.ok("status", id, "--json")), &obj))
		return obj["stopped"]
	}
	require.Eventually(t, func() bool { return stopped() == true }, testTimeout, 50*time.Millisecond,
		"status --json says stopped")
	assert.Contains(t, c.ok("status", id), "running · paused")
	var list []map[string]any
	require.NoError(t, json.Unmarshal([]byte(c.ok("ls", "--json")), &list))
	require.Len(t, list, 1)
	assert.Equal(t, true, list[0]["stopped"], "ls --json")
	row := strings.Split(c.ok("ls"), "\n")[1]
	assert.Contains(t, row, "running · paused")
	assert.Contains(t, row, strconv.Itoa(pid))

	require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))
	require.Eventually(t, func() bool { return stopped() == nil }, testTimeout, 50*time.Millisecond,
		"continued, it is not stopped (the field left out)")
	assert.NotContains(t, c.ok("status", id), "paused")
	assert.Equal(t, jobs.StateRunning, c.status(id).State)
}
