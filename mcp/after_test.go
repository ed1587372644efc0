package mcp

import (
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// run_job's after: the job waits for the jobs named (by ID or name) to
// succeed, and an unknown one is refused.
func TestRunJobAfter(t *testing.T) {
	e := newEnv(t)
	fifo := mkfifo(t)
	build := e.run("build", "read l < "+fifo)
	var out RunJobOutput
	e.ok("run_job", map[string]any{"name": "test", "command": "echo tested", "after": []any{build, "build"}}, &out)
	require.Equal(t, "queued", out.Job.State)
	info := e.job(out.Job.ID)
	require.Equal(t, []jobs.ID{jobs.ID(build)}, info.After)
	require.Equal(t, "waiting for job 1 (build) to succeed", info.Reason)
	writeFifo(t, fifo, "go\n")
	require.Equal(t, jobs.StateSucceeded, e.waitEnded(out.Job.ID).State)

	msg := e.toolErr("run_job", map[string]any{"command": "true", "after": []any{"nope"}})
	require.Contains(t, msg, `after: no job "nope"`)
	require.Contains(t, msg, "list_jobs lists them", "the tool to call, not the HTTP API")
	require.NotContains(t, msg, "GET /v1/jobs")
	msg = e.toolErr("run_job", map[string]any{"command": "true", "after": []any{""}})
	require.Contains(t, msg, "after: give each job's ID (a number) or name; one is empty")
}
