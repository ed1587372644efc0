package workspace

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A dependency that exits 0 before its readiness_probe or ready_log_line
// passed does not meet process_healthy or process_log_ready, as in
// process-compose (its issues/issue_102): the dependant cannot start,
// is marked so (exit_on_skipped applies, exit_on_failure does not).
// jobtop's own ready and healthy are met by such an exit.
func TestProcessComposeExitBeforeReadyFailsTheDependant(t *testing.T) {
	f := openPC(t, `processes:
  watcher:
    command: 'exit 0'
    readiness_probe:
      exec: {command: 'false'}
      period_seconds: 1
  logger:
    command: 'echo starting; exit 0'
    ready_log_line: listening
  wait4it:
    command: echo watcher is healthy
    depends_on: {watcher: {condition: process_healthy}}
    availability: {exit_on_skipped: true}
  wait4log:
    command: echo logger is ready
    depends_on: {logger: {condition: process_log_ready}}
    availability: {restart: exit_on_failure}
`)
	req := f.nextExit()
	assert.Equal(t, "wait4it", req.Job)
	assert.Equal(t, 1, req.Code)
	assert.Equal(t, "exit_on_skipped", req.Why)
	assert.Contains(t, req.Reason, "dependency watcher succeeded before its ready check passed")
	f.eventually("wait4log cannot start", func() bool { return f.job("wait4log").State == jobs.StateError })
	assert.Contains(t, f.job("wait4log").Error, "dependency logger succeeded before its ready check passed")
	assert.Equal(t, jobs.StateSucceeded, f.job("watcher").State)
	select {
	case req := <-f.ws.ExitRequests():
		t.Fatalf("exit_on_failure applied to a job that could not start: %+v", req)
	default:
	}
}

// One that passed its check first meets them, whether it runs still or
// succeeded since: a ready line printed just before the exit counts.
func TestProcessComposeReadyThenExitMeetsTheDependant(t *testing.T) {
	f := openPC(t, `processes:
  logger:
    command: 'echo listening; exit 0'
    ready_log_line: listening
  wait4log:
    command: 'exec sleep 1000'
    depends_on: {logger: {condition: process_log_ready}}
`)
	f.running("wait4log")
	f.eventually("logger succeeds", func() bool { return f.job("logger").State == jobs.StateSucceeded })
}

// jobtop's own job file keeps its documented ready: "its ready check
// passed, or it succeeded".
func TestJobFileReadyIsMetBySucceeding(t *testing.T) {
	f := open(t, `jobs:
  setup:
    cmd: 'exit 0'
    ready: {log: never-printed}
  web:
    cmd: exec sleep 1000
    depends_on: {setup: ready}
`)
	require.NoError(t, f.ws.Start())
	f.running("web")
}
