package cmd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A job can be stopped with SIGINT from the CLI, as Python's
// KeyboardInterrupt handlers need: its stop signal (run --stop-signal),
// or this stop's (stop --signal), for one job or several; INT, SIGINT
// and 2 alike.
func TestStopWithSIGINTFromTheCLI(t *testing.T) {
	c := newCLI(t)
	c.serve()
	const script = `trap 'echo got INT; exit 3' INT; echo ready; while :; do sleep 0.1; done`
	own := c.startJob(script, "--name", "own", "--stop-signal", "INT")
	one := c.startJob(script, "--name", "one")
	many := c.startJob(script, "--name", "many")
	for _, id := range []string{own, one, many} {
		c.ok("wait", id, "--until", "^ready$", "--timeout", "20s")
	}

	c.ok("stop", own)
	c.ok("stop", "--signal", "SIGINT", one)
	c.ok("stop", "--signal", "2", "--name", "many")
	for _, id := range []string{own, one, many} {
		info := c.status(id)
		assert.Equal(t, jobs.StateKilled, info.State, "job %s: stopped", id)
		require.NotNil(t, info.ExitCode, "job %s", id)
		assert.Equal(t, 3, *info.ExitCode, "job %s", id)
		assert.Equal(t, []string{"ready", "got INT"}, c.logLines(id), "job %s", id)
	}

	r := c.run("stop", "--signal", "NOPE", one)
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "--signal")
	r = c.run("run", "--stop-signal", "NOPE", "--", "true")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "--stop-signal")
}
