package control

import (
	"errors"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// scriptedReloader answers reloads with what the test sets. The real one
// (a job file on the manager) is tested end to end in cmd.
type scriptedReloader struct {
	resp ReloadResponse
	err  error
}

func (r *scriptedReloader) JobFile() string                 { return "/work/jobtop.yaml" }
func (r *scriptedReloader) Reload() (ReloadResponse, error) { return r.resp, r.err }

func TestReloadWithoutAJobFileIsAConflict(t *testing.T) {
	in := startInstance(t)
	_, err := in.client.ReloadFile(ctxT(t))
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusConflict, apiErr.Status)
	assert.Contains(t, apiErr.Message, "this instance has no job file")
	_, err = in.client.Reload()
	assert.ErrorContains(t, err, "this instance has no job file")

	inst, err := in.client.Instance(ctxT(t))
	require.NoError(t, err)
	assert.Empty(t, inst.JobFile)
}

func TestReloadAnswersWithTheSummaryOrTheProblems(t *testing.T) {
	in := startInstance(t)
	rl := &scriptedReloader{resp: ReloadResponse{
		Summary: "reloaded jobtop.yaml: 1 added (api)", JobFile: "/work/jobtop.yaml",
		Added: []string{"api"}, Unchanged: []string{"db"},
	}}
	in.server.SetReloader(rl)

	inst, err := in.client.Instance(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, "/work/jobtop.yaml", inst.JobFile)

	resp, err := in.client.ReloadFile(ctxT(t))
	require.NoError(t, err)
	assert.Equal(t, rl.resp, resp)
	summary, err := in.client.Reload()
	require.NoError(t, err)
	assert.Equal(t, "reloaded jobtop.yaml: 1 added (api)", summary)

	rl.err = &ReloadError{
		Msg:      "cannot reload: jobtop.yaml:3:5: bad (and 1 more problem); nothing was changed",
		Problems: []string{"jobtop.yaml:3:5: bad", "jobtop.yaml:9:1: worse <here>"},
	}
	_, err = in.client.ReloadFile(ctxT(t))
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusUnprocessableEntity, apiErr.Status)
	assert.Equal(t, rl.err.Error(), apiErr.Message)
	assert.Equal(t, []string{"jobtop.yaml:3:5: bad", "jobtop.yaml:9:1: worse <here>"}, apiErr.Problems)

	rl.err = errors.New("job api: " + jobs.ErrShutdown.Error())
	_, err = in.client.Reload()
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusInternalServerError, apiErr.Status)
}

func TestWaitForReadiness(t *testing.T) {
	in := startInstance(t)
	fifo := mkfifo(t)
	info, err := in.client.StartJob(ctxT(t), StartRequest{
		Command: "read go < " + fifo + "; echo listening on :8080; exec sleep 600",
		Ready:   &ReadyRequest{LogPattern: "listening on"},
	})
	require.NoError(t, err)

	// Not ready yet: the wait's own timeout ends it, with neither.
	resp, err := in.client.WaitReady(ctxT(t), info.ID, 50*time.Millisecond)
	require.NoError(t, err)
	assert.False(t, resp.Ended)
	assert.False(t, resp.Job.Ready)

	done := make(chan WaitResponse, 1)
	go func() {
		resp, err := in.client.WaitReady(ctxT(t), info.ID, 0)
		assert.NoError(t, err)
		done <- resp
	}()
	writeFifo(t, fifo, "go\n")
	select {
	case resp = <-done:
	case <-time.After(testTimeout):
		t.Fatal("wait for readiness did not return")
	}
	assert.False(t, resp.Ended)
	assert.True(t, resp.Job.Ready)
	assert.Equal(t, jobs.StateRunning, resp.Job.State)

	// A job that ends before it is ready ends the wait too.
	quitter, err := in.client.StartJob(ctxT(t), StartRequest{
		Command: "echo starting; exit 3",
		Ready:   &ReadyRequest{LogPattern: "never printed"},
		Cwd:     filepath.Dir(fifo),
	})
	require.NoError(t, err)
	resp, err = in.client.WaitReady(ctxT(t), quitter.ID, 0)
	require.NoError(t, err)
	assert.True(t, resp.Ended)
	assert.False(t, resp.Job.Ready)
	assert.Equal(t, jobs.StateFailed, resp.Job.State)

	_, err = in.client.WaitReady(ctxT(t), 99, 0)
	assert.True(t, IsNotFound(err), "%v", err)
}

// startingReloader adds a job to the manager, as a reload that finds a new
// job in the file does.
type startingReloader struct {
	mgr  *jobs.Manager
	name string
}

func (r *startingReloader) JobFile() string { return "/work/jobtop.yaml" }
func (r *startingReloader) Reload() (ReloadResponse, error) {
	if _, err := r.mgr.Start(jobs.Spec{Name: r.name, Command: "exec sleep 60"}); err != nil {
		return ReloadResponse{}, err
	}
	return ReloadResponse{Summary: "reloaded jobtop.yaml: 1 added (" + r.name + ")", Added: []string{r.name}}, nil
}

// The jobs a reload added are in the attached mirror when Reload returns,
// before their events (held back here by a long frame) arrive: the TUI
// must not take them for jobs started elsewhere.
func TestReloadPutsAddedJobsInTheMirror(t *testing.T) {
	socket := filepath.Join(shortTempDir(t), "s.sock")
	m, err := jobs.NewManager(jobs.Options{LogDir: t.TempDir(), FrameInterval: 5 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { m.Shutdown(ctxT(t)) }) //nolint:errcheck // best effort
	srv, err := ListenAndServe(m, socket, Instance{Kind: "serve"})
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	srv.SetReloader(&startingReloader{mgr: m, name: "api"})
	c := NewClient(socket)
	t.Cleanup(func() { c.Close() })
	require.NoError(t, c.Attach(ctxT(t)))

	// A first job's events go out at once; the next batch waits a frame.
	_, err = m.Start(jobs.Spec{Name: "first", Command: "exec sleep 60"})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(c.List()) == 1 }, testTimeout, 5*time.Millisecond)

	summary, err := c.Reload()
	require.NoError(t, err)
	assert.Equal(t, "reloaded jobtop.yaml: 1 added (api)", summary)
	var names []string
	for _, j := range c.List() {
		names = append(names, j.Name)
	}
	assert.Equal(t, []string{"first", "api"}, names)
}
