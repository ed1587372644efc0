package workspace

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobfile"
	"jobtop/jobs"
)

// exit_on_end: the job's end, success included, asks jobtop to exit, with
// 0 when it succeeded (a success_exit_codes code too, as process-compose's
// fixture success-exit-on-end.yaml has it); a restart still coming
// (on_failure) is no end.
func TestExitOnEnd(t *testing.T) {
	f := openFile(t, "../testdata/process-compose/upstream/success-exit-on-end.yaml", jobfile.LoadOptions{NoEnvFile: true})
	require.NoError(t, f.ws.Start())
	req := f.nextExit()
	assert.Equal(t, ExitRequest{Job: "signal_exit", ID: req.ID, Code: 0, Why: "exit_on_end"}, req)

	f = openPC(t, `processes:
  flaky:
    command: 'exit 4'
    availability: {restart: on_failure, max_restarts: 2, backoff_seconds: 1, exit_on_end: true}
`)
	req = f.nextExit()
	assert.Equal(t, ExitRequest{Job: "flaky", ID: req.ID, Code: 4, Why: "exit_on_end"}, req)
	assert.Equal(t, 3, f.job("flaky").Runs, "after the restarts on_failure asked for")
}

// exit_on_skipped: a job that cannot start, its dependency having failed
// (process-compose's issues/issue_400), asks jobtop to exit with 1.
func TestExitOnSkipped(t *testing.T) {
	f := openFile(t, "../testdata/process-compose/upstream/issue_400/process-compose.yaml", jobfile.LoadOptions{NoEnvFile: true})
	require.NoError(t, f.ws.Start())
	req := f.nextExit()
	assert.Equal(t, "dependent_process", req.Job)
	assert.Equal(t, 1, req.Code)
	assert.Equal(t, "exit_on_skipped", req.Why)
	assert.Contains(t, req.Reason, "failing_process failed (exit 1)")
}

// exit_on_end: a job that could not start, what it depends on having
// failed, has ended too, with no run coming (process-compose, which has no
// such state, exits once every process has ended): jobtop exits with 1, as
// for exit_on_skipped. It ran on for ever, the README's CI advice
// (exit_on_end on the last process) hanging when an earlier one failed.
func TestExitOnEndWhenItCouldNotStart(t *testing.T) {
	f := openPC(t, `processes:
  build:
    command: "echo broke; exit 1"
  test:
    command: "echo testing"
    depends_on: {build: {condition: process_completed_successfully}}
    availability: {exit_on_end: true}
`)
	req := f.nextExit()
	assert.Equal(t, ExitRequest{Job: "test", ID: req.ID, Code: 1, Why: "exit_on_end", Reason: "dependency build failed (exit 1)"}, req)
	assert.Equal(t, jobs.StateError, f.job("test").State)
}

// exit_on_end on a job that cannot start at all (its working_dir is
// missing): it ends inside Start, and every time the request comes (the
// watch once subscribed only after the plan's jobs had begun, and
// missed it in 1 run in 3 to 10: serve ran on).
func TestExitOnEndWhenItFailsInStart(t *testing.T) {
	for range 20 {
		f := openPC(t, `processes:
  build:
    command: "echo never"
    working_dir: /nonexistent/dir
    availability: {exit_on_end: true}
`)
		req := f.nextExit()
		assert.Equal(t, "exit_on_end", req.Why)
		assert.Equal(t, 1, req.Code)
	}
}

// exit_on_end: a stop asked by hand (jobtop stop) is an end with no run
// coming, as process-compose's onProcessEnd has it: jobtop exits, with
// 128 + the stop signal for a job the signal ended.
func TestExitOnEndOnAStopByHand(t *testing.T) {
	f := openPC(t, `processes:
  server:
    command: exec sleep 1000
    availability: {exit_on_end: true}
`)
	info := f.running("server")
	require.NoError(t, f.mgr.Stop(info.ID))
	req := f.nextExit()
	assert.Equal(t, ExitRequest{Job: "server", ID: info.ID, Code: 143, Signal: jobs.Signal(syscall.SIGTERM), Why: "exit_on_end", Asked: "stopped"}, req)
}

// exit_on_end: not when jobtop itself shuts down (its stops end every
// job), nor for a job a reload removed from the file.
func TestExitOnEndNotOnShutdownOrRemoval(t *testing.T) {
	f := openPC(t, `processes:
  server:
    command: exec sleep 1000
    availability: {exit_on_end: true}
  other:
    command: exec sleep 1000
    availability: {exit_on_end: true}
`)
	server, other := f.running("server"), f.running("other")

	f.write(`processes:
  server:
    command: exec sleep 1000
    availability: {exit_on_end: true}
`)
	_, err := f.ws.Reload()
	require.NoError(t, err)
	// The other as the reload's stop ends it.
	ended := other
	ended.State, ended.Signal, ended.EndRequested = jobs.StateKilled, jobs.Signal(syscall.SIGTERM), true
	_, asks := f.ws.exitRequest(ended)
	assert.False(t, asks, "a job the reload removed ends nothing")

	// The server as jobtop's shutdown ends it.
	ended = f.job("server")
	require.Equal(t, server.ID, ended.ID)
	ended.State, ended.Signal, ended.EndRequested, ended.ShuttingDown = jobs.StateKilled, jobs.Signal(syscall.SIGTERM), true, true
	_, asks = f.ws.exitRequest(ended)
	assert.False(t, asks, "jobtop's own shutdown is no end that asks it to exit")
	ended.ShuttingDown = false
	req, asks := f.ws.exitRequest(ended)
	assert.True(t, asks, "the same end by hand does")
	assert.Equal(t, 143, req.Code)
}
