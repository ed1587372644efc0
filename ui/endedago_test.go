package ui

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"jobtop/jobs"
)

// An ended job's pane header says how long ago it ended, against the
// model's clock: "✗ failed (1) · run 2" alone did not tell whether it
// failed a minute or a day ago.
func TestPaneHeaderSaysHowLongAgoTheJobEnded(t *testing.T) {
	mgr := newManager(t)
	info := start(t, mgr, "build", "echo compiling; exit 1")
	clock := time.Now()
	m := newSizedModel(t, mgr, Config{Now: func() time.Time { return clock }}, 120, 20)
	pumpUntil(t, m, "the job to fail", func() bool { return m.stateCountForTest(jobs.StateFailed) == 1 })
	j, _ := m.table.Get(info.ID)
	require.NotNil(t, j.Ended)

	at := func(d time.Duration) string {
		clock = j.Ended.Add(d)
		m.Update(tickMsg{})
		return m.single.headerView()
	}
	require.Contains(t, at(300*time.Millisecond), "✗ failed (1) · <1s ago")
	require.Contains(t, at(42*time.Second+600*time.Millisecond), "✗ failed (1) · 42s ago")
	require.Contains(t, at(3*time.Minute+50*time.Second), "✗ failed (1) · 3m ago", "whole minutes past 99s, as countdowns")
	require.Contains(t, at(26*time.Hour), "✗ failed (1) · 26h ago")
	require.Contains(t, at(-time.Second), "✗ failed (1) · <1s ago", "a clock behind the job's (another host's) is no negative time")
	require.True(t, m.ticking, "the clock runs while an ended job's pane is drawn, though no job runs")

	// The time a person looks is the time drawn: a key brings the clock
	// up to date without waiting for its tick.
	clock = j.Ended.Add(5 * time.Minute)
	press(t, m, "j")
	require.Contains(t, m.View(), "✗ failed (1) · 5m ago")

	// A job that runs says nothing of an end.
	_, err := mgr.Restart(info.ID)
	require.NoError(t, err)
	pumpUntil(t, m, "the second run", func() bool { j, _ := m.table.Get(info.ID); return j.Runs == 2 })
	clock = time.Now()
	pumpUntil(t, m, "its end", func() bool { return m.stateCountForTest(jobs.StateFailed) == 1 })
	j, _ = m.table.Get(info.ID)
	require.Contains(t, at(2*time.Minute), "✗ failed (1) · run 2 · 2m ago")
}

// The ago text: floored in the units of the countdowns (99s, then
// minutes to 99m, hours to 99h, then days).
func TestEndedAgoFormat(t *testing.T) {
	now := time.Now()
	ended := func(d time.Duration) jobs.Info {
		at, code := now.Add(-d), 1
		return jobs.Info{State: jobs.StateFailed, ExitCode: &code, Ended: &at}
	}
	require.Equal(t, "<1s ago", endedAgo(ended(999*time.Millisecond), now))
	require.Equal(t, "1s ago", endedAgo(ended(1500*time.Millisecond), now))
	require.Equal(t, "99s ago", endedAgo(ended(99*time.Second), now))
	require.Equal(t, "1m ago", endedAgo(ended(100*time.Second), now))
	require.Equal(t, "99m ago", endedAgo(ended(99*time.Minute+59*time.Second), now))
	require.Equal(t, "1h ago", endedAgo(ended(100*time.Minute), now))
	require.Equal(t, "99h ago", endedAgo(ended(99*time.Hour+59*time.Minute), now))
	require.Equal(t, "4d ago", endedAgo(ended(100*time.Hour), now))
	require.Equal(t, "", endedAgo(ended(time.Minute), time.Time{}), "no clock yet")
	running := ended(time.Minute)
	running.State = jobs.StateRunning
	require.Equal(t, "", endedAgo(running, now))
	created := jobs.Info{State: jobs.StateCreated}
	require.Equal(t, "", endedAgo(created, now), "never ran")
}
