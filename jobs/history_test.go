package jobs

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHistoryRecordsEveryRun(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{
		Command: "sleep 0.05; exit 3",
		Restart: RestartPolicy{Mode: RestartOnFailure, Backoff: 20 * time.Millisecond, Max: 2},
	})
	info = wait(t, m, info.ID)
	require.Len(t, info.History, 3)
	for i, r := range info.History {
		assert.Equal(t, i+1, r.Run)
		assert.Equal(t, StateFailed, r.State)
		require.NotNil(t, r.ExitCode)
		assert.Equal(t, 3, *r.ExitCode)
		require.NotNil(t, r.Ended)
		assert.GreaterOrEqual(t, r.Duration(time.Time{}), 50*time.Millisecond)
		if i > 0 {
			assert.GreaterOrEqual(t, r.Started.Sub(*info.History[i-1].Ended), 20*time.Millisecond, "the backoff is a gap between runs")
		}
	}
	last := info.History[2]
	assert.Equal(t, *info.Started, last.Started, "the last run is the job's own")
	assert.Equal(t, *info.Ended, *last.Ended)
	assert.Equal(t, info.History, info.RunRecords(), "an ended job has no run going on")
}

func TestHistoryShowsTheRunGoingOnAndReadiness(t *testing.T) {
	m := newManager(t, Options{})
	info := start(t, m, Spec{Command: "echo up; sleep 1000", Ready: ReadyCheck{LogPattern: "up"}})
	info = waitFor(t, m, info.ID, "ready", func(i Info) bool { return i.Ready })
	require.NotNil(t, info.ReadyAt)
	assert.Empty(t, info.History)
	runs := info.RunRecords()
	require.Len(t, runs, 1)
	assert.Equal(t, StateRunning, runs[0].State)
	assert.Nil(t, runs[0].Ended)
	assert.False(t, runs[0].Ready.Before(runs[0].Started))
	require.NoError(t, m.Kill(info.ID))
	info = wait(t, m, info.ID)
	require.Len(t, info.History, 1)
	assert.Equal(t, StateKilled, info.History[0].State)
	assert.NotNil(t, info.History[0].Ready, "readiness stays on the run's record")
	assert.Equal(t, Signal(sigKill), info.History[0].Signal)
}

func TestHistoryIsBounded(t *testing.T) {
	var h runHistory
	t0 := time.Unix(1000, 0)
	var snap []RunRecord
	for run := 1; run <= MaxRunHistory+5; run++ {
		h.begin(run, t0.Add(time.Duration(run)*time.Second))
		h.end(t0.Add(time.Duration(run)*time.Second+time.Millisecond), StateSucceeded, new(int), 0)
		if run == MaxRunHistory {
			snap = h.snapshot()
		}
	}
	got := h.snapshot()
	require.Len(t, got, MaxRunHistory)
	assert.Equal(t, 6, got[0].Run, "the oldest runs go first")
	assert.Equal(t, MaxRunHistory+5, got[len(got)-1].Run)
	assert.Equal(t, 1, snap[0].Run, "an earlier snapshot is left as it was")
	assert.Equal(t, MaxRunHistory, snap[len(snap)-1].Run)
}
