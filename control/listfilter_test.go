package control

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// GET /v1/jobs takes the bulk actions' selectors: named jobs, state and
// name globs; an unknown job is a 404, an unreadable selector a 400.
func TestJobListFilter(t *testing.T) {
	in := startInstance(t)
	start := func(name, command string) jobs.Info {
		info, err := in.client.StartJob(ctxT(t), StartRequest{Name: name, Command: command})
		require.NoError(t, err)
		return info
	}
	web1 := start("web-1", "exec sleep 60")
	web2 := start("web-2", "exit 3")
	api := start("api", "exec sleep 60")
	in.waitEnded(t, web2.ID)
	ids := func(f JobFilter) []jobs.ID {
		t.Helper()
		list, err := JobsAs[jobs.Info](ctxT(t), in.client, f)
		require.NoError(t, err)
		out := []jobs.ID{}
		for _, j := range list {
			out = append(out, j.ID)
		}
		return out
	}
	assert.Equal(t, []jobs.ID{web1.ID, web2.ID, api.ID}, ids(JobFilter{}))
	assert.Equal(t, []jobs.ID{web1.ID, web2.ID}, ids(JobFilter{Name: "web-*"}))
	assert.Equal(t, []jobs.ID{web1.ID, api.ID}, ids(JobFilter{State: "running"}))
	assert.Equal(t, []jobs.ID{web1.ID}, ids(JobFilter{State: "running", Name: "web-*"}))
	assert.Equal(t, []jobs.ID{web2.ID}, ids(JobFilter{State: "ended"}))
	assert.Equal(t, []jobs.ID{web1.ID, api.ID}, ids(JobFilter{Jobs: []string{"api", web1.ID.String()}}), "oldest first")
	assert.Equal(t, []jobs.ID{}, ids(JobFilter{Name: "db*"}), "an empty list, not null")

	_, err := in.client.JobsJSON(ctxT(t), JobFilter{Jobs: []string{"nosuch"}})
	assert.True(t, IsNotFound(err), "%v", err)
	_, err = in.client.JobsJSON(ctxT(t), JobFilter{State: "sleeping"})
	assert.True(t, IsBadRequest(err), "%v", err)
	assert.ErrorContains(t, err, "sleeping")
	for _, q := range []string{"name=", "state=", "job=", "name=web-*&name="} {
		rec := httptest.NewRecorder()
		in.server.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/v1/jobs?"+q, nil))
		assert.Equal(t, 400, rec.Code, q)
		assert.Contains(t, rec.Body.String(), "picks nothing", q)
	}
	rec := httptest.NewRecorder()
	in.server.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/v1/jobs?status=running", nil))
	assert.Equal(t, 400, rec.Code)
	assert.Contains(t, rec.Body.String(), `unknown parameter \"status\"`)
}
