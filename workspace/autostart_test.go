package workspace

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestReloadTurnsJobsOnAndOff: a reload that turns a job's autostart on
// starts it, unless it runs; one that turns it off stops it, and nothing
// restarts it (a new spec is kept for a start by hand), as
// process-compose's project update does with disabled. Before, a reload
// said "no job changed" and left both as they were.
func TestReloadTurnsJobsOnAndOff(t *testing.T) {
	f := open(t, `
jobs:
  off:
    cmd: echo off v1; exec sleep 600
    autostart: false
  on:
    cmd: exec sleep 600
  ended:
    cmd: echo ended v1
    autostart: false
  edited:
    cmd: exec sleep 600
`)
	on, edited := f.running("on"), f.running("edited")
	require.Equal(t, jobs.StateCreated, f.job("off").State)
	_, err := f.mgr.Restart(f.job("ended").ID) // run by hand
	require.NoError(t, err)
	f.eventually("ended ran", func() bool { return f.job("ended").State == jobs.StateSucceeded })

	f.write(`
jobs:
  off:
    cmd: echo off v1; exec sleep 600
  on:
    cmd: exec sleep 600
    autostart: false
  ended:
    cmd: echo ended v1
  edited:
    cmd: echo edited v2; exec sleep 600
    autostart: false
`)
	res, err := f.ws.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"off", "ended"}, res.Enabled)
	assert.Equal(t, []string{"on", "edited"}, res.Disabled)
	assert.Equal(t, []string{"edited"}, res.Changed)
	assert.Empty(t, res.Unchanged)
	assert.Equal(t, "reloaded jobtop.yaml: 1 changed (edited), 2 enabled (off, ended), 2 disabled (on, edited)", res.String())

	f.running("off")
	f.eventually("ended runs again", func() bool { in := f.job("ended"); return in.Runs == 2 && in.State == jobs.StateSucceeded })
	f.eventually("on and edited stop", func() bool {
		return f.job("on").State == jobs.StateKilled && f.job("edited").State == jobs.StateKilled
	})
	assert.True(t, processGone(on.PID) && processGone(edited.PID))
	in := f.job("edited")
	assert.Equal(t, 1, in.Runs, "not restarted")
	assert.Equal(t, "echo edited v2; exec sleep 600", in.Command, "its new spec, for a start by hand")

	// Turned on again while it runs (started by hand): left as it is.
	_, err = f.mgr.Restart(in.ID)
	require.NoError(t, err)
	edited = f.running("edited")
	f.write(`
jobs:
  off:
    cmd: echo off v1; exec sleep 600
  on:
    cmd: exec sleep 600
    autostart: false
  ended:
    cmd: echo ended v1
  edited:
    cmd: echo edited v2; exec sleep 600
`)
	res, err = f.ws.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"edited"}, res.Enabled)
	assert.Equal(t, edited.PID, f.job("edited").PID)
	assert.Equal(t, jobs.StateRunning, f.job("edited").State)
}
