package mcp

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/control"
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

// A queued job has no error: why it waits is its reason, as in the API,
// so a harness that takes a non-empty error for a failure does not fail
// every queued job. The text form still says why it waits.
func TestQueuedReasonIsNoError(t *testing.T) {
	e := newEnvWith(t, jobs.Options{MaxRunning: 1})
	e.run("busy", "exec sleep 60")
	id := e.run("waits", "true")
	require.Equal(t, jobs.StateQueued, e.job(id).State)

	api, got := e.apiJSON(id), e.statusJSON(id)
	require.Equal(t, "", api["error"])
	require.NotEmpty(t, api["reason"])
	require.Empty(t, got["error"])
	require.Equal(t, api["reason"], got["reason"])
	var list ListJobsOutput
	text := e.ok("list_jobs", map[string]any{"state": "queued"}, &list)
	require.Len(t, list.Jobs, 1)
	require.Empty(t, list.Jobs[0].Error)
	require.Equal(t, api["reason"], list.Jobs[0].Reason)
	require.Contains(t, text, "waits queued [mcp]: "+list.Jobs[0].Reason)
}

// job_status writes its times as the API does: RFC 3339 with
// nanoseconds, not cut to whole seconds.
func TestTimesAsTheAPIWritesThem(t *testing.T) {
	e := newEnv(t)
	id := e.run("quick", "true")
	e.waitEnded(id)
	api, got := e.apiJSON(id), e.statusJSON(id)
	for _, key := range []string{"started_at", "ended_at"} {
		require.NotNil(t, api[key], key)
		require.Equal(t, api[key], got[key], key)
	}
}

// read_output names each line's stream as the API does: stdout, stderr,
// and meta for jobtop's own lines (a run's marker), which the text form
// marks [jobtop] as the log file does.
func TestStreamsAsTheAPINamesThem(t *testing.T) {
	e := newEnv(t)
	id := e.run("twice", "echo out; echo err >&2")
	e.waitEnded(id)
	e.ok("restart_job", map[string]any{"id": id}, nil)
	require.Eventually(t, func() bool { j := e.job(id); return j.Runs == 2 && j.State.Done() }, deadline, 10*time.Millisecond)

	resp, err := e.api.ReadOutput(ctxT(t), jobs.ID(id), control.OutputQuery{})
	require.NoError(t, err)
	b, err := json.Marshal(resp.Lines)
	require.NoError(t, err)
	var api []map[string]any
	require.NoError(t, json.Unmarshal(b, &api))

	res := e.call("read_output", map[string]any{"id": id})
	text := resultText(t, res)
	b, err = json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var got struct{ Lines []map[string]any }
	require.NoError(t, json.Unmarshal(b, &got))
	require.Len(t, got.Lines, len(api))
	streams := map[any]bool{}
	for i := range api {
		require.Equal(t, api[i]["seq"], got.Lines[i]["seq"])
		require.Equal(t, api[i]["stream"], got.Lines[i]["stream"], "line %v", api[i]["seq"])
		streams[got.Lines[i]["stream"]] = true
	}
	require.Equal(t, map[any]bool{"stdout": true, "stderr": true, "meta": true}, streams)
	require.Contains(t, text, "\n[jobtop] ── run 2 ──\n")
	require.Contains(t, text, "\n[stderr] err\n")
	require.Contains(t, text, "\nout\n")
}

// requireAsTheAPI checks that job_status has each key, with the API's
// value: null where the API has null (or leaves the key out).
func (e *env) requireAsTheAPI(id int, keys ...string) map[string]any {
	e.t.Helper()
	api, got := e.apiJSON(id), e.statusJSON(id)
	for _, key := range keys {
		require.Contains(e.t, got, key)
		require.Equal(e.t, api[key], got[key], "%s of job %d", key, id)
	}
	return got
}

// exit_code, signal, pid and the times are null when there is none, as
// in the API, not left out; CPU and memory are the API's usage numbers.
func TestNoneIsNullAndUsageIsNumbers(t *testing.T) {
	e := newEnvWith(t, jobs.Options{MaxRunning: 1})
	running := e.run("runs", "exec sleep 60")
	queued := e.run("waits", "true")
	got := e.requireAsTheAPI(queued, "exit_code", "signal", "pid", "started_at", "ended_at")
	require.Nil(t, got["exit_code"])
	require.Nil(t, got["pid"])

	require.Eventually(t, func() bool {
		usage, _ := e.statusJSON(running)["usage"].(map[string]any)
		rss, _ := usage["rss_bytes"].(float64)
		_, cpu := usage["cpu_percent"].(float64)
		return rss > 0 && cpu
	}, deadline, 50*time.Millisecond, "usage.rss_bytes and usage.cpu_percent are numbers")
	got = e.requireAsTheAPI(running, "pid", "exit_code", "signal", "started_at", "ended_at")
	require.NotNil(t, got["pid"])
	require.NotContains(t, got, "cpu")
	require.NotContains(t, got, "memory")
	require.Regexp(t, `pid: \d+, cpu \d+\.\d%, memory [\d.]+ [KMG]iB`, resultText(t, e.call("job_status", map[string]any{"id": running})))

	e.ok("stop_job", map[string]any{"id": running}, nil)
	e.waitEnded(running)
	got = e.requireAsTheAPI(running, "pid", "exit_code", "signal", "started_at", "ended_at")
	require.Nil(t, got["exit_code"])
	require.Equal(t, "SIGTERM", got["signal"])
	require.NotContains(t, resultText(t, e.call("job_status", map[string]any{"id": running})), "pid:", "an ended job's pid is no process to act on")
	res := e.call("list_jobs", map[string]any{})
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var list struct{ Jobs []map[string]any }
	require.NoError(t, json.Unmarshal(b, &list))
	require.Contains(t, list.Jobs[0], "exit_code")
	require.Nil(t, list.Jobs[0]["exit_code"])
}
