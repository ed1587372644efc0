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

// TestWaitSaysKilledFromOutside: jobtop wait on a job a kill -9 from
// outside ended says so on stderr, as status and the TUI do, where it
// said "was killed by SIGKILL" as for jobtop kill; --ready on one killed
// before it was ready says it too. The exit stays 128+9.
func TestWaitSaysKilledFromOutside(t *testing.T) {
	c := newCLI(t)
	file := writeJobFile(t, t.TempDir(), "jobtop.yaml",
		"jobs:\n  plain: {cmd: exec sleep 60}\n  checked: {cmd: exec sleep 60, ready: {log: never printed}}\n")
	c.serveIn("", "-f", file)
	for _, w := range []struct{ name, flag, said string }{
		{"plain", "", "jobtop: job 1 was killed by SIGKILL from outside jobtop (out of memory?)\n"},
		{"checked", "--ready", "jobtop: job 2 was killed by SIGKILL from outside jobtop (out of memory?) before it was ready\n"},
	} {
		var info jobs.Info
		require.Eventually(t, func() bool { info = c.status(w.name); return info.PID > 0 }, testTimeout, 20*time.Millisecond)
		require.NoError(t, syscall.Kill(info.PID, syscall.SIGKILL))
		args := []string{"wait", w.name, "--timeout", "20s"}
		if w.flag != "" {
			args = append(args, w.flag)
		}
		r := c.run(args...)
		if w.flag == "" {
			assert.Equal(t, 128+9, r.code, "%s: %s", w.name, r.stderr)
		} else {
			assert.Equal(t, 1, r.code, "%s: %s", w.name, r.stderr)
		}
		assert.Equal(t, w.said, r.stderr, w.name)
	}
}
