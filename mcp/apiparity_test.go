package mcp

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// The tools describe a job with the API's names and meanings: a field
// job_status shares with the API's job object holds the same value,
// written the same way.

// statusJSON is job_status's job as its structured content has it.
func (e *env) statusJSON(id int) map[string]any {
	e.t.Helper()
	res := e.call("job_status", map[string]any{"id": id})
	require.False(e.t, res.IsError, resultText(e.t, res))
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(e.t, err)
	var out struct{ Job map[string]any }
	require.NoError(e.t, json.Unmarshal(b, &out))
	return out.Job
}

// apiJSON is the API's job object (GET /v1/jobs/{id}).
func (e *env) apiJSON(id int) map[string]any {
	e.t.Helper()
	info, err := e.api.Job(ctxT(e.t), jobs.ID(id))
	require.NoError(e.t, err)
	b, err := json.Marshal(info)
	require.NoError(e.t, err)
	var out map[string]any
	require.NoError(e.t, json.Unmarshal(b, &out))
	return out
}

// A job run twice has a run marker among its lines: lines is the API's
// lines in job_status and list_jobs (a cursor for read_output), and
// job_lines leaves the marker out.
func TestLinesAsTheAPICountsThem(t *testing.T) {
	e := newEnv(t)
	id := e.run("twice", "echo one; echo two")
	e.waitEnded(id)
	e.ok("restart_job", map[string]any{"id": id}, nil)
	require.Eventually(t, func() bool { j := e.job(id); return j.Runs == 2 && j.State.Done() }, deadline, 10*time.Millisecond)

	api, got := e.apiJSON(id), e.statusJSON(id)
	require.EqualValues(t, 5, api["lines"])
	require.EqualValues(t, 1, api["meta_lines"])
	require.Equal(t, api["lines"], got["lines"])
	require.EqualValues(t, 4, got["job_lines"])
	var list ListJobsOutput
	e.ok("list_jobs", map[string]any{}, &list)
	require.Equal(t, uint64(5), list.Jobs[0].Lines)
	require.Equal(t, uint64(4), list.Jobs[0].JobLines)
}
