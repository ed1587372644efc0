package cmd

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"jobtop/jobs"
)

// jobtop restart of a job that waits for a slot and never ran printed
// "job 2 (b): queued" as if it had restarted: it says the job has not
// started yet (exit 0: it will start as it would have). A job that ran
// and is restarted into the queue is queued by the restart, as before.
func TestRestartOfAQueuedJobSaysItHasNotStarted(t *testing.T) {
	c := newCLI(t)
	c.serveJobFile("max_parallel: 1\njobs:\n  a: {cmd: exec sleep 600}\n  b: {cmd: exec sleep 600}\n  c: {cmd: exec sleep 600}\n")
	now := c.eventually("a runs, b and c wait", func(j map[string]jobs.Info) bool {
		return j["a"].State == jobs.StateRunning && j["b"].State == jobs.StateQueued && j["c"].State == jobs.StateQueued
	})
	r := c.run("restart", now["b"].ID.String())
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "job "+now["b"].ID.String()+" (b) is queued: it has not started yet\n", r.stdout)
	assert.Equal(t, jobs.StateQueued, c.jobsByName()["b"].State)

	c.ok("kill", "a")
	c.eventually("b runs", func(j map[string]jobs.Info) bool { return j["b"].State == jobs.StateRunning })
	r = c.run("restart", "a")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "job "+now["a"].ID.String()+" (a): queued\n", r.stdout, "queued by the restart")
}
