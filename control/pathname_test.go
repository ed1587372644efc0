package control

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestPathsTakeNames checks that every /v1/jobs/{id} path takes a job's
// name as the CLI, MCP and bulk actions do: the newest job with it.
func TestPathsTakeNames(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	mgr := newManager(t, socket)
	h := NewServer(mgr, Instance{Kind: "serve"}).Handler()
	older, err := mgr.Start(jobs.Spec{Name: "t0", Command: "echo old"})
	require.NoError(t, err)
	newer, err := mgr.Start(jobs.Spec{Name: "t0", Command: "echo new"})
	require.NoError(t, err)
	for _, id := range []jobs.ID{older.ID, newer.ID} {
		_, err := mgr.Wait(ctxT(t), id)
		require.NoError(t, err)
	}
	do := func(method, path string, out any) int {
		t.Helper()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
		if out != nil {
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), out), rec.Body.String())
		}
		return rec.Code
	}

	var info jobs.Info
	require.Equal(t, http.StatusOK, do("GET", "/v1/jobs/t0", &info))
	assert.Equal(t, newer.ID, info.ID, "a name is its newest job")

	var out OutputResponse
	require.Equal(t, http.StatusOK, do("GET", "/v1/jobs/t0/output", &out))
	require.Len(t, out.Lines, 1)
	assert.Equal(t, "new", out.Lines[0].Text)

	var wait WaitResponse
	require.Equal(t, http.StatusOK, do("GET", "/v1/jobs/t0/wait", &wait))
	assert.Equal(t, newer.ID, wait.Job.ID)
	assert.True(t, wait.Ended)

	require.Equal(t, http.StatusOK, do("DELETE", "/v1/jobs/t0", &info))
	assert.Equal(t, newer.ID, info.ID)
	require.Equal(t, http.StatusOK, do("DELETE", "/v1/jobs/t0", &info))
	assert.Equal(t, older.ID, info.ID, "the name now names the older job")

	var e struct{ Error string }
	assert.Equal(t, http.StatusNotFound, do("DELETE", "/v1/jobs/t0", &e))
	assert.Equal(t, `no job "t0": give a job ID (a number) or a job's name; GET /v1/jobs lists them`, e.Error)
	assert.Equal(t, http.StatusNotFound, do("POST", "/v1/jobs/nope/kill", &e))
	assert.Contains(t, e.Error, `no job "nope": give a job ID (a number) or a job's name`)
}
