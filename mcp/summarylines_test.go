package mcp

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// job_status's and list_jobs' lines is the API's lines: the newest
// line's number, jobtop's notes (run markers, health notes, a stop
// command's output) included, a cursor for read_output. job_lines is
// what the job wrote, as jobtop's LINES and status count it.
func TestJobStatusLinesAreTheAPIs(t *testing.T) {
	info := jobs.Info{ID: 1, Name: "hc", State: jobs.StateRunning, Lines: 11, MetaLines: 2, LineCuts: 1, Runs: 1}
	d := detail(info, time.Now())
	require.Equal(t, uint64(11), d.Lines, "the API's lines, for read_output")
	require.Equal(t, uint64(8), d.JobLines)
	require.Contains(t, d.text(), "output: 8 lines, newest line's cursor 11")
	require.Equal(t, uint64(11), summarize(info, time.Now()).Lines)
	b, err := json.Marshal(d)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	require.EqualValues(t, 11, m["lines"])
	require.EqualValues(t, 8, m["job_lines"])
	require.NotContains(t, m, "cursor", "one name per meaning: lines is the cursor")
}
