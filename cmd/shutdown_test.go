package cmd

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// jobtop shutdown stops every job with its grace rules, and the instance
// ends and lets go of the socket: a new one can take it at once.
func TestShutdownEndsServeAndItsJobs(t *testing.T) {
	c := newCLI(t)
	serve := c.serve()
	graceful := c.startJob("trap 'echo cleanup done; exit 0' TERM; echo up; while :; do sleep 0.05; done", "--name", "graceful")
	c.startJob("exec sleep 60", "--name", "sleeper")
	c.ok("wait", graceful, "--until", "^up$", "--timeout", "20s")
	pids := []int{c.status("graceful").PID, c.status("sleeper").PID}
	logPath := c.status("graceful").LogPath

	r := c.run("shutdown")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "jobtop serve (pid "+strconv.Itoa(serve.Process.Pid)+") shut down; 2 jobs stopped\n", r.stdout)
	require.NoError(t, serve.Wait(), "serve exits 0")
	for _, pid := range pids {
		assert.False(t, processAlive(pid), "job process %d is gone", pid)
	}
	logged, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Contains(t, string(logged), "cleanup done", "the grace rules applied")

	r = c.run("ls")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "no jobtop is listening on "+c.socket)

	// The socket is free at once.
	c.serve()
	assert.Equal(t, "[]\n", c.ok("ls", "--json"))
}

func TestShutdownWithoutAnInstance(t *testing.T) {
	c := newCLI(t)
	r := c.run("shutdown")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "jobtop: no jobtop is listening on "+c.socket+" (start one with `jobtop serve`; `jobtop run` starts one for you)\n", r.stderr)
}

// ls and status show how long a stopping job has before SIGKILL.
func TestStoppingJobShowsTimeToSIGKILL(t *testing.T) {
	c := newCLI(t)
	c.serve()
	client := control.NewClient(c.socket)
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	info, err := client.StartJob(ctx, control.StartRequest{Name: "stubborn", Command: "trap '' TERM; echo up; while :; do sleep 0.1; done", Grace: "1m"})
	require.NoError(t, err)
	c.ok("wait", info.ID.String(), "--until", "^up$", "--timeout", "20s")
	_, err = client.StopJob(ctx, info.ID, false)
	require.NoError(t, err)

	assert.Regexp(t, `^1\s+stubborn\s+stopping \(SIGKILL in (59|60)s\)\s`, strings.Split(c.ok("ls"), "\n")[1])
	assert.Regexp(t, `state:\s+stopping \(SIGKILL in (59|60)s\)`, c.ok("status", "stubborn"))
	got := c.status("stubborn")
	require.NotNil(t, got.KillAt, "kill_at is in the JSON")
	assert.WithinDuration(t, time.Now().Add(time.Minute), *got.KillAt, 5*time.Second)
	c.ok("kill", "stubborn")
	assert.Nil(t, c.status("stubborn").KillAt)
}

// ls and status show when a failed job's restart policy runs it again.
func TestFailedJobShowsTimeToItsRestart(t *testing.T) {
	c := newCLI(t)
	c.serve()
	startFlaky(t, c, &control.RestartRequest{Policy: "on-failure", Backoff: "1m"})
	require.Eventually(t, func() bool { return c.status("flaky").RestartAt != nil }, testTimeout, 20*time.Millisecond)

	assert.Regexp(t, `^1\s+flaky\s+failed \(restart in (59|60)s\)\s`, strings.Split(c.ok("ls"), "\n")[1])
	assert.Regexp(t, `state:\s+failed \(restart in (59|60)s\)\n`, c.ok("status", "flaky"))
	assert.WithinDuration(t, time.Now().Add(time.Minute), *c.status("flaky").RestartAt, 5*time.Second)
	r := c.run("wait", "flaky", "--timeout", "0.1")
	assert.Equal(t, 124, r.code)
	assert.Regexp(t, `job 1 is failed \(restart in (59|60)s\) after 100ms: its restart policy runs it again`, r.stderr)
	assert.Equal(t, "job 1 (flaky): failed (1), its restart cancelled\n", c.ok("stop", "flaky"))
	assert.Nil(t, c.status("flaky").RestartAt, "no restart comes")
	assert.Regexp(t, `^1\s+flaky\s+failed\s`, strings.Split(c.ok("ls"), "\n")[1])
}

// A restart less than a second off reads "<1s": a job restarting every
// 300ms showed "restart in 1s" each time ls caught it waiting.
func TestFailedJobShowsASubSecondRestart(t *testing.T) {
	c := newCLI(t)
	c.serve()
	startFlaky(t, c, &control.RestartRequest{Policy: "on-failure", Backoff: "300ms", MaxBackoff: "300ms", Max: new(int)})
	var row string
	require.Eventually(t, func() bool {
		row = strings.Split(c.ok("ls"), "\n")[1]
		return strings.Contains(row, "restart in")
	}, testTimeout, 20*time.Millisecond, "ls catches it waiting out its backoff")
	assert.Regexp(t, `^1\s+flaky\s+failed \(restart in <1s\)\s`, row)
	c.ok("kill", "flaky")
}

// startFlaky starts job "flaky", which exits 1, with restart, through
// the API (the CLI has no restart flags).
func startFlaky(t *testing.T, c *cli, restart *control.RestartRequest) {
	t.Helper()
	client := control.NewClient(c.socket)
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	_, err := client.StartJob(ctx, control.StartRequest{Name: "flaky", Command: "exit 1", Restart: restart})
	require.NoError(t, err)
}

// Queued jobs that a shutdown ends never ran: `shutdown` counts them
// apart from the jobs it stopped ("3 jobs stopped" counted two that
// never started).
func TestShutdownSaysQueuedJobsNeverStarted(t *testing.T) {
	c := newCLI(t)
	serve := c.serveIn("", "--max-running", "1")
	running := c.startJob("exec sleep 60", "--name", "running")
	c.startJob("exec sleep 60", "--name", "second")
	c.startJob("exec sleep 60", "--name", "third")
	c.waitState(running, jobs.StateRunning)

	r := c.run("shutdown")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "jobtop serve (pid "+strconv.Itoa(serve.Process.Pid)+") shut down; 1 job stopped, 2 queued jobs never started\n", r.stdout)
}

// The same in --json: "stopped" counts the jobs that ran, "queued" those
// that never started.
func TestShutdownJSONCountsQueuedJobsApart(t *testing.T) {
	c := newCLI(t)
	c.serveIn("", "--max-running", "1")
	running := c.startJob("exec sleep 60", "--name", "running")
	c.startJob("exec sleep 60", "--name", "queued")
	c.waitState(running, jobs.StateRunning)

	var resp struct{ Stopped, Queued int }
	require.NoError(t, json.Unmarshal([]byte(c.ok("shutdown", "--json")), &resp))
	assert.Equal(t, 1, resp.Stopped)
	assert.Equal(t, 1, resp.Queued)
}
