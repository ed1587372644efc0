package cmd

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestStatusSaysKilledFromOutside: a run killed by a SIGKILL jobtop did
// not send (the OOM killer, a kill -9 PID) says so in status, with the
// memory it reached; a run killed by jobtop kill does not. They looked
// the same: "killed", "SIGKILL".
func TestStatusSaysKilledFromOutside(t *testing.T) {
	c := newCLI(t)
	c.serve()
	outside := c.startJob("exec sleep 300")
	own := c.startJob("exec sleep 300")
	var info jobs.Info
	require.Eventually(t, func() bool { info = c.status(outside); return info.Usage.RSS > 0 }, testTimeout, 50*time.Millisecond,
		"the sampler sees the run's memory")
	require.NoError(t, syscall.Kill(info.PID, syscall.SIGKILL))
	c.ok("kill", own)
	require.Eventually(t, func() bool { return c.status(outside).State == jobs.StateKilled }, testTimeout, 20*time.Millisecond)

	info = c.status(outside)
	assert.True(t, info.KilledFromOutside)
	assert.Positive(t, info.PeakRSS, "the run's peak RSS is kept once it ended")
	text := c.ok("status", outside)
	assert.Contains(t, text, "\nend:      killed by SIGKILL from outside jobtop (out of memory?)\n")
	assert.Contains(t, text, "\npeak rss: "+jobs.FormatBytes(info.PeakRSS)+"\n")

	mine := c.status(own)
	assert.Equal(t, jobs.StateKilled, mine.State)
	assert.False(t, mine.KilledFromOutside)
	assert.NotContains(t, c.ok("status", own), "outside")
}
