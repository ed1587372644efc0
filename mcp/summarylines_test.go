package mcp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// job_status's lines are the job's own, as jobtop's LINES and status
// count them: jobtop's notes (run markers, health notes, a stop
// command's output) are not lines the job wrote. Its cursor counts
// them, as read_output's cursors do.
func TestJobStatusLinesAreTheJobsOwn(t *testing.T) {
	info := jobs.Info{ID: 1, Name: "hc", State: jobs.StateRunning, Lines: 11, MetaLines: 3, Runs: 1}
	d := detail(info, time.Now())
	require.Equal(t, uint64(8), d.Lines)
	require.Contains(t, d.text(), "lines: 8")
	require.Equal(t, uint64(8), summarize(info, time.Now()).Lines)
	require.Equal(t, uint64(11), d.Cursor, "the cursor still counts every line held, for read_output")
}
