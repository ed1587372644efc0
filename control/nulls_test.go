package control

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// The job object writes null for what a job does not have, where the
// README lists the key: pid for a job never started (as exit_code,
// signal and started_at), and each run of history has every key, its
// exit_code null for a run a signal ended and its signal null for a run
// that exited. GET /v1/jobs (written by hand) and GET /v1/jobs/{id}
// (encoding/json) agree.
func TestJobObjectNulls(t *testing.T) {
	in := startInstance(t)
	exited := in.startJob(t, "exit 3")
	in.waitEnded(t, exited.ID)
	killed := in.startJob(t, "exec sleep 60")
	_, err := in.client.StopJob(ctxT(t), killed.ID, true)
	require.NoError(t, err)
	require.NoError(t, in.mgr.SetMaxRunning(1))
	in.startJob(t, "exec sleep 60")
	queued := in.startJob(t, "true")
	require.Equal(t, jobs.StateQueued, queued.State)

	get := func(path string) []byte {
		resp, err := in.client.http.Get("http://jobtop" + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return b
	}
	var list []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(get("/v1/jobs"), &list))
	require.Len(t, list, 4)
	for _, id := range []jobs.ID{exited.ID, killed.ID, queued.ID} {
		var one map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(get("/v1/jobs/"+id.String()), &one))
		require.Equal(t, list[id-1], one, "job %d: the list and the job agree", id)
	}

	job := list[queued.ID-1]
	for _, key := range []string{"pid", "exit_code", "signal", "started_at", "ended_at"} {
		require.Equal(t, "null", string(job[key]), "%s of a job never started", key)
	}

	run := func(id jobs.ID) map[string]json.RawMessage {
		var history []map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(list[id-1]["history"], &history))
		require.Len(t, history, 1)
		require.ElementsMatch(t, []string{"run", "started_at", "ready_at", "ended_at", "state", "exit_code", "signal"}, keys(history[0]))
		return history[0]
	}
	require.Equal(t, "3", string(run(exited.ID)["exit_code"]))
	require.Equal(t, "null", string(run(exited.ID)["signal"]))
	require.Equal(t, "null", string(run(killed.ID)["exit_code"]))
	require.Equal(t, `"SIGTERM"`, string(run(killed.ID)["signal"]))
	require.Equal(t, "null", string(list[killed.ID-1]["exit_code"]), "as the top level says it")
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A stop's or kill's answer (EndAnswer) keeps its "removed" beside the
// job object's fields, which jobs.Info's MarshalJSON writes.
func TestEndAnswerKeepsRemoved(t *testing.T) {
	code := 0
	for _, removed := range []bool{true, false} {
		b, err := json.Marshal(EndAnswer{Info: jobs.Info{ID: 3, Name: "web", State: jobs.StateKilled, ExitCode: &code}, Removed: removed})
		require.NoError(t, err)
		var back EndAnswer
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		require.Equal(t, removed, back.Removed, "%s", b)
		require.Equal(t, jobs.ID(3), back.ID)
		var raw map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(b, &raw))
		require.Equal(t, "null", string(raw["pid"]))
	}
}
