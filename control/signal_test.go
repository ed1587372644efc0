package control

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestSignalSendsOnlyTheSignal: POST /v1/jobs/{id}/signal?signal= and
// POST /v1/jobs/signal send the signal to the job and do nothing else:
// a job trapping USR1 gets it and runs on, not stopping. A signal is
// required; a job with no process to signal is refused (named) or
// skipped (picked by a selector).
func TestSignalSendsOnlyTheSignal(t *testing.T) {
	in := startInstance(t)
	ctx := ctxT(t)
	dir := t.TempDir()
	start := func(name string) jobs.Info {
		got := filepath.Join(dir, name)
		return in.startNamed(t, name, "trap 'echo USR1 >> "+got+"' USR1; touch "+got+"; while :; do sleep 0.05; done")
	}
	got := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
	srv, a, b := start("srv"), start("web-a"), start("web-b")
	for _, name := range []string{"srv", "web-a", "web-b"} {
		require.Eventually(t, func() bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil },
			testTimeout, 10*time.Millisecond, "%s's trap", name)
	}

	info, err := in.client.SignalJob(ctx, srv.ID, "USR1")
	require.NoError(t, err)
	assert.Equal(t, jobs.StateRunning, info.State)
	require.Eventually(t, func() bool { return got("srv") == "USR1\n" }, testTimeout, 10*time.Millisecond, "srv's USR1")
	info, err = in.client.Job(ctx, srv.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateRunning, info.State, "no stop")
	assert.Nil(t, info.KillAt, "no SIGKILL coming")

	resp, err := in.client.BulkWith(ctx, BulkSignal, BulkRequest{Name: "web-*"}, true, "SIGUSR1")
	require.NoError(t, err)
	require.Len(t, resp.Jobs, 2)
	for _, j := range resp.Jobs {
		assert.Equal(t, jobs.StateRunning, j.State, "wait=true waits for nothing: job %d", j.ID)
	}
	for _, name := range []string{"web-a", "web-b"} {
		require.Eventually(t, func() bool { return got(name) == "USR1\n" }, testTimeout, 10*time.Millisecond, "%s's USR1", name)
	}

	for _, path := range []string{fmt.Sprintf("/v1/jobs/%d/signal", srv.ID), "/v1/jobs/signal", fmt.Sprintf("/v1/jobs/%d/signal?signal=NOPE", srv.ID)} {
		r := postRaw(t, in, path, `{"all": true}`)
		assert.Equal(t, 400, r.status, "%s: %s", path, r.body)
		assert.Contains(t, r.body, "signal", path)
	}

	_, err = in.client.StopJob(ctx, a.ID, true)
	require.NoError(t, err)
	_, err = in.client.SignalJob(ctx, a.ID, "USR1")
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("cannot signal job %d: it has ended", a.ID))
	resp, err = in.client.BulkWith(ctx, BulkSignal, BulkRequest{Name: "web-*"}, false, "USR1")
	require.NoError(t, err)
	require.Len(t, resp.Jobs, 1)
	assert.Equal(t, b.ID, resp.Jobs[0].ID)
	require.Len(t, resp.Skipped, 1, "the ended one, picked by the pattern")
	assert.Equal(t, a.ID, resp.Skipped[0].ID)
	// (One at a time: two signals sent before the shell runs its trap
	// are one.)
	require.Eventually(t, func() bool { return got("web-b") == "USR1\nUSR1\n" }, testTimeout, 10*time.Millisecond, "web-b's second USR1")
	resp, err = in.client.BulkWith(ctx, BulkSignal, BulkRequest{Jobs: []JobRef{JobRef(a.ID.String()), "web-b"}}, false, "USR1")
	require.NoError(t, err)
	require.Len(t, resp.Failed, 1, "the ended one, named")
	assert.True(t, strings.HasPrefix(resp.Failed[0].Error, "cannot signal job"), resp.Failed[0].Error)
	require.Eventually(t, func() bool { return got("web-b") == "USR1\nUSR1\nUSR1\n" }, testTimeout, 10*time.Millisecond, "web-b's USR1s")
}
