package workspace

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobfile"
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
