package cmd

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"jobtop/control"
	"jobtop/jobs"
)

// TestDropNotesCoalesce: --follow says lines were dropped at most once a
// second, counting every gap held back, and says the rest at the end.
func TestDropNotesCoalesce(t *testing.T) {
	var out bytes.Buffer
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	d := &dropNotes{w: &out, id: 7, now: func() time.Time { return now }}
	notes := func() []string {
		return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	}
	d.add(0)
	assert.Empty(t, out.String(), "no gap, no note")
	d.add(10)
	assert.Equal(t, []string{"jobtop: 10 lines are no longer held in memory here; every line is in the log file (jobtop status 7)"}, notes(), "the first gap is told at once")
	for range 150 {
		now = now.Add(5 * time.Millisecond)
		d.add(100)
	}
	// 150 gaps over 750ms: none told yet.
	assert.Len(t, notes(), 1)
	now = now.Add(250 * time.Millisecond)
	d.add(1)
	assert.Len(t, notes(), 2)
	assert.Contains(t, notes()[1], "jobtop: 15001 lines are no longer held")
	now = now.Add(10 * time.Millisecond)
	d.add(3)
	d.add(0)
	assert.Len(t, notes(), 2, "within the second: held back")
	d.flush()
	assert.Len(t, notes(), 3)
	assert.Contains(t, notes()[2], "jobtop: 3 lines are no longer held")
	d.flush()
	assert.Len(t, notes(), 3, "nothing held, nothing said")
}

// TestAllDropNotesOncePerJob: logs --all names a job's gap once, however
// many answers name it and however slowly they are read; following, at
// most once a second a job.
func TestAllDropNotesOncePerJob(t *testing.T) {
	for _, follow := range []bool{false, true} {
		var out bytes.Buffer
		now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
		d := &allDropNotes{w: &out, follow: follow, last: map[jobs.ID]time.Time{}, now: func() time.Time { return now },
			logLost: func(jobs.ID) func() bool { return nil }}
		big := []control.DroppedLines{{Job: 2, Name: "big", Lines: 15000}}
		for range 3 {
			d.add(big)
			now = now.Add(2 * time.Second) // a slow reader
		}
		d.add([]control.DroppedLines{{Job: 3, Name: "other"}})
		want := []string{
			"jobtop: big: 15000 of its lines are no longer held in memory here; every line is in the log file (jobtop status 2)",
			"jobtop: other: some of its lines are no longer held in memory here; every line is in the log file (jobtop status 3)",
		}
		if follow {
			want = append(want[:1:1], want[0], want[0], want[1])
		}
		assert.Equal(t, want, strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"), "follow %v", follow)
	}
}

// logs with no job (pueue's `log` shows every task's) or several names
// --all, which prints them all.
func TestLogsWithoutOneJobNamesAll(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{{"logs"}, {"logs", "1", "2"}} {
		r := c.run(args...)
		assert.Equal(t, usageExit, r.code, "%v", args)
		assert.Contains(t, r.stderr, "or --all for every job's lines", "%v", args)
	}
}

// logs says why it prints nothing where lines were expected: --stderr of
// a job on a terminal (one stream: all stdout), --follow of a job never
// started (it would have nothing to follow).
func TestLogsSaysWhyThereIsNothingToRead(t *testing.T) {
	c := newCLI(t)
	c.serveJobFile("jobs:\n  term:\n    cmd: echo on a terminal\n    tty: true\n  later:\n    cmd: echo later\n    autostart: false\n")
	c.ok("wait", "term")
	r := c.run("logs", "--stderr", "term")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stdout)
	assert.Equal(t, "jobtop: job 1 runs on a terminal, which has one stream: its output is all on stdout (jobtop logs 1)\n", r.stderr)

	r = c.run("logs", "--follow", "later")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "jobtop: job 2 was never started, so there is nothing to follow (jobtop restart 2 starts it)\n", r.stderr)
}
