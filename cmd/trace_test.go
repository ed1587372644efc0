package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// TestTraceIsAChromeTrace checks the trace against the Trace Event
// Format's required fields, and that each run's slice lasts exactly as
// long as the run did.
func TestTraceIsAChromeTrace(t *testing.T) {
	c := newCLI(t)
	file := writeJobFile(t, t.TempDir(), "jobtop.yaml", `jobs:
  flaky:
    cmd: sleep 0.1; exit 3
    restart: {policy: on-failure, backoff: 50ms, max: 2}
  server:
    cmd: echo listening; exec sleep 600
    ready: {log: listening}
`)
	c.serveIn("", "-f", file)
	flaky, server := "flaky", "server"
	c.run("wait", flaky) // exits 1: the job failed
	require.Eventually(t, func() bool { return c.status(server).Ready }, testTimeout, 20e6)

	path := filepath.Join(c.dir, "trace.json")
	r := c.run("trace", "--output", path)
	require.Equal(t, 0, r.code, r.stderr)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var trace struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(raw, &trace), "the trace is JSON")
	require.NotEmpty(t, trace.TraceEvents)

	slices := map[float64][]map[string]any{} // tid -> its "X" events
	names := map[float64]string{}
	readies := 0
	for _, ev := range trace.TraceEvents {
		for _, field := range []string{"name", "ph", "pid", "tid", "ts"} {
			require.Contains(t, ev, field, "every event has %s: %v", field, ev)
		}
		ph := ev["ph"].(string)
		require.Contains(t, []string{"X", "i", "M"}, ph)
		tid := ev["tid"].(float64)
		switch ph {
		case "X":
			require.Contains(t, ev, "dur", "a complete event has a duration")
			require.GreaterOrEqual(t, ev["dur"].(float64), 0.0)
			slices[tid] = append(slices[tid], ev)
		case "i":
			assert.Equal(t, "ready", ev["name"])
			readies++
		case "M":
			if ev["name"] == "thread_name" {
				names[tid] = ev["args"].(map[string]any)["name"].(string)
			}
		}
	}
	assert.Equal(t, 1, readies, "one marker: the server's readiness")

	info := c.status(flaky)
	id := float64(info.ID)
	assert.Equal(t, info.ID.String()+" flaky", names[id])
	require.Len(t, info.History, 3, "the first run and two restarts")
	require.Len(t, slices[id], 3)
	for i, ev := range slices[id] {
		run := info.History[i]
		assert.Equal(t, float64(run.Started.UnixMicro()), ev["ts"])
		assert.Equal(t, float64(run.Ended.Sub(run.Started).Microseconds()), ev["dur"], "run %d lasts as long as it ran", run.Run)
		args := ev["args"].(map[string]any)
		assert.Equal(t, "sleep 0.1; exit 3", args["command"])
		assert.Equal(t, 3.0, args["exit_code"])
		assert.Equal(t, string(jobs.StateFailed), args["state"])
	}
	srv := c.status(server)
	require.Len(t, slices[float64(srv.ID)], 1)
	assert.Equal(t, true, slices[float64(srv.ID)][0]["args"].(map[string]any)["running"])

	// Without --output it goes to stdout.
	require.True(t, json.Valid([]byte(c.ok("trace"))))
}

// A trace on a terminal must not carry C1 controls (CSI as U+009B) from
// a job's name or command: they are escaped as --json escapes them, and
// the JSON means the same.
func TestTraceEscapesC1Controls(t *testing.T) {
	var out strings.Builder
	list := []jobs.Info{{ID: 1, Name: "web\u009b2J", Command: "echo \u009b2J"}}
	require.NoError(t, writeTrace(&out, list, time.Now()))
	assert.NotContains(t, out.String(), "\u009b")
	assert.Contains(t, out.String(), `web\u009b2J`)
	var trace traceFile
	require.NoError(t, json.Unmarshal([]byte(out.String()), &trace))
	assert.Equal(t, "1 web\u009b2J", trace.TraceEvents[1].Args["name"])
}
