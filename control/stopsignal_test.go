package control

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// A stop takes a signal for this stop (?signal=, as pueue's kill -s), on
// one job or several, in place of the job's stop signal; a kill, a
// restart or a signal jobtop does not know is refused.
func TestStopTakesASignal(t *testing.T) {
	in := startInstance(t)
	ctx := ctxT(t)
	one := in.startJob(t, "exec sleep 60")
	a := in.startJob(t, "exec sleep 60")
	b := in.startJob(t, "exec sleep 60")

	for _, path := range []string{
		fmt.Sprintf("/v1/jobs/%d/kill?signal=INT", one.ID),
		fmt.Sprintf("/v1/jobs/%d/stop?signal=NOPE", one.ID),
		"/v1/jobs/restart?signal=INT",
		"/v1/jobs/kill?signal=INT",
	} {
		r := postRaw(t, in, path, `{"all": true}`)
		assert.Equal(t, 400, r.status, "%s: %s", path, r.body)
		assert.Contains(t, r.body, "signal", path)
	}
	for _, id := range []jobs.ID{one.ID, a.ID, b.ID} {
		info, err := in.client.Job(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, jobs.StateRunning, info.State, "a refused request did nothing")
	}

	answer, err := in.client.StopJobWith(ctx, one.ID, "SIGINT", true)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateKilled, answer.Info.State)
	assert.Equal(t, "SIGINT", answer.Info.Signal.String())

	resp, err := in.client.BulkWith(ctx, BulkStop, BulkRequest{Jobs: []JobRef{JobRef(a.ID.String()), JobRef(b.ID.String())}}, true, "2")
	require.NoError(t, err)
	require.Len(t, resp.Jobs, 2)
	for _, j := range resp.Jobs {
		assert.Equal(t, "SIGINT", j.Signal.String(), "job %d", j.ID)
	}
}

// TestAStopRefusesASignalThatDoesNotEndAProcess: a stop with SIGSTOP,
// SIGCONT, SIGTSTP... sent it, waited out the grace and SIGKILLed the
// job, though such a signal never ends a process. It is refused, on one
// job or several, pointing at the signal endpoint, and the job is left
// alone.
func TestAStopRefusesASignalThatDoesNotEndAProcess(t *testing.T) {
	in := startInstance(t)
	ctx := ctxT(t)
	job := in.startJob(t, "exec sleep 60")
	for _, sig := range []string{"STOP", "SIGTSTP", "TTIN", "TTOU", "CONT"} {
		for _, path := range []string{
			fmt.Sprintf("/v1/jobs/%d/stop?signal=%s", job.ID, sig),
			"/v1/jobs/stop?signal=" + sig,
		} {
			r := postRaw(t, in, path, `{"all": true}`)
			assert.Equal(t, 400, r.status, "%s: %s", path, r.body)
			assert.Contains(t, r.body, "does not end a process", path)
			assert.Contains(t, r.body, "/signal?signal=", path)
		}
	}
	info, err := in.client.Job(ctx, job.ID)
	require.NoError(t, err)
	assert.Equal(t, jobs.StateRunning, info.State, "a refused request did nothing")
	assert.False(t, info.Stopped)
}
