package control

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An instance that has begun to end (its TUI quits, stopping every job)
// says so and takes no new job nor a new run of one: a restart then
// (jobtop restart, MCP restart_job) started a run that held the quit up
// until someone pressed X (rev44).
func TestAnEndingInstanceStartsNothing(t *testing.T) {
	in := startInstance(t)
	job := in.startJob(t, "exec sleep 600")
	inst, err := in.client.Instance(ctxT(t))
	require.NoError(t, err)
	assert.False(t, inst.Ending)

	in.server.Quitting()
	inst, err = in.client.Instance(ctxT(t))
	require.NoError(t, err)
	assert.True(t, inst.Ending)
	_, err = in.client.StartJob(ctxT(t), StartRequest{Command: "true"})
	assert.ErrorContains(t, err, "shutting down")
	_, err = in.client.RestartJob(ctxT(t), job.ID, false)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusServiceUnavailable, apiErr.Status)
	_, err = in.client.Bulk(ctxT(t), BulkRestart, BulkRequest{All: true}, false)
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusServiceUnavailable, apiErr.Status)
	now, err := in.client.Job(ctxT(t), job.ID)
	require.NoError(t, err)
	assert.Equal(t, 1, now.Runs, "not restarted")
	_, err = in.client.StopJob(ctxT(t), job.ID, false)
	assert.NoError(t, err, "stopping goes on")
}
