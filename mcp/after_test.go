package mcp

import (
	"encoding/json"
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

// A number that is no job ID says so, as the CLI and the API do: 0 was
// taken as no job given, and 2^70 was called no whole number. (The MCP
// SDK reads arguments as floats first: past 2^53 the ID is rounded.)
func TestJobRefThatIsNoID(t *testing.T) {
	e := newEnv(t)
	e.run("a", "true")
	for _, tc := range []struct {
		id   any
		want string
	}{
		{0, "0 is not a job ID (IDs start at 1)"},
		{-3, "-3 is not a job ID (IDs start at 1)"},
		{"0", "0 is not a job ID (IDs start at 1)"},
		{json.Number("99999999999999999999"), "no job with ID 1"},
		{"99999999999999999999", "no job with ID 99999999999999999999"},
	} {
		msg := e.toolErr("job_status", map[string]any{"id": tc.id})
		require.Contains(t, msg, tc.want, "id %v", tc.id)
	}
}
