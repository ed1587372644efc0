package cmd

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestSignalSendsASignalAndNothingElse: stop --signal USR1 sent a
// server its "reload" and SIGKILLed it 5 s later. jobtop signal sends
// the signal and does nothing else: a job trapping USR1 gets it, once
// each time, and runs on (not stopping: no SIGKILL is coming); several
// jobs by name or --name pattern as stop takes them.
func TestSignalSendsASignalAndNothingElse(t *testing.T) {
	c := newCLI(t)
	c.serve()
	const script = `trap 'echo got USR1' USR1; echo ready; while :; do sleep 0.1; done`
	srv := c.startJob(script, "--name", "srv")
	a := c.startJob(script, "--name", "web-a")
	b := c.startJob(script, "--name", "web-b")
	for _, id := range []string{srv, a, b} {
		c.ok("wait", id, "--until", "^ready$", "--timeout", "20s")
	}

	out := c.ok("signal", "USR1", "srv")
	assert.Contains(t, out, "job "+srv+" (srv): sent SIGUSR1")
	c.ok("wait", srv, "--until", "^got USR1$", "--timeout", "20s")
	info := c.status(srv)
	assert.Equal(t, jobs.StateRunning, info.State, "no stop")
	assert.Nil(t, info.KillAt, "no SIGKILL coming")

	out = c.ok("signal", "SIGUSR1", "--name", "web-*")
	assert.Equal(t, 2, strings.Count(out, "sent SIGUSR1"), out)
	for _, id := range []string{a, b} {
		c.ok("wait", id, "--until", "^got USR1$", "--timeout", "20s")
		assert.Equal(t, jobs.StateRunning, c.status(id).State, "job %s", id)
	}
	c.ok("signal", "10", srv)
	require.Eventually(t, func() bool {
		return strings.Count(strings.Join(c.logLines(srv), "\n"), "got USR1") == 2
	}, testTimeout, 20*time.Millisecond, "the second USR1")

	var resp map[string]any
	require.NoError(t, json.Unmarshal([]byte(c.ok("signal", "USR1", srv, "--json")), &resp))
	assert.Equal(t, "running", resp["state"], "--json: the job")

	r := c.run("signal", "NOPE", srv)
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "unknown signal")
	r = c.run("signal", "srv", "USR1")
	assert.Equal(t, 2, r.code, "the signal comes first")
	assert.Contains(t, r.stderr, "jobtop signal SIG")
	r = c.run("signal", "USR1")
	assert.Equal(t, 2, r.code, "which jobs?")

	c.ok("stop", a)
	r = c.run("signal", "USR1", a)
	assert.Equal(t, 1, r.code, "an ended job has no process to signal")
	assert.Contains(t, r.stderr, "cannot signal job "+a)
}

// TestSignalPausesAndResumesAJob: signal STOP pauses a job (status says
// so), signal CONT resumes it, as pueue's pause and start; neither ends
// it. The counter runs in bash without a fork per line (read -t on a
// FIFO no one writes): a shell stopped while it forks does not show as
// stopped.
func TestSignalPausesAndResumesAJob(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	c := newCLI(t)
	c.serve()
	fifo := mkfifo(t)
	id := c.startJob(`exec bash -c 'exec 9<>`+fifo+`; i=0; while :; do i=$((i+1)); echo $i; read -t 0.05 -u 9 x; done'`, "--name", "counter")
	c.ok("wait", id, "--until", "^3$", "--timeout", "20s")

	c.ok("signal", "STOP", id)
	require.Eventually(t, func() bool { return c.status(id).Stopped }, testTimeout, 20*time.Millisecond,
		"the job to show paused")
	assert.Contains(t, c.ok("status", id), "paused")
	paused := len(c.logLines(id))

	c.ok("signal", "CONT", id)
	require.Eventually(t, func() bool { return len(c.logLines(id)) > paused+5 }, testTimeout, 20*time.Millisecond,
		"the counter to go on once continued")
	assert.Equal(t, jobs.StateRunning, c.status(id).State)
	require.Eventually(t, func() bool { return !c.status(id).Stopped }, testTimeout, 20*time.Millisecond,
		"the job to show running again (as sampled)")
}
