package jobs

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestARunEndsWhenItsProcessesDidNotWhenJobtopHeard: a job that exits while
// the manager reads nothing of the keeper (here its lock is held, as a
// serve stopped with SIGSTOP would be) ran for its own time, not until the
// manager heard of its end.
func TestARunEndsWhenItsProcessesDidNotWhenJobtopHeard(t *testing.T) {
	m := newManager(t, Options{})
	gate := filepath.Join(t.TempDir(), "go")
	info := start(t, m, Spec{Name: "short", Command: "while [ ! -e " + gate + " ]; do sleep 0.01; done"})
	info = waitFor(t, m, info.ID, "the job to run", func(i Info) bool { return i.PID > 0 })

	const pause = 3 * time.Second // well under keeper.MaxSilence
	m.mu.Lock()
	opened := time.Now()
	require.NoError(t, writeFile(gate))
	eventually(t, "the job's process to be reaped", func() bool {
		return syscall.Kill(info.PID, 0) == syscall.ESRCH
	})
	reaped := time.Now()
	time.Sleep(pause) // the manager hears nothing meanwhile
	m.mu.Unlock()

	info = wait(t, m, info.ID)
	require.NotNil(t, info.Ended)
	assert.False(t, info.Ended.Before(opened), "ended %v, before it could (%v)", info.Ended, opened)
	assert.True(t, info.Ended.Before(reaped.Add(pause/2)),
		"ended %v after it was reaped (%v)", info.Ended.Sub(reaped), pause)
	assert.Less(t, info.Runtime(time.Now()), reaped.Sub(*info.Started)+pause/2)
	require.Len(t, info.History, 1)
	assert.Equal(t, info.Ended, info.History[0].Ended, "its history says the same")
}

func TestRunEndKeepsBetweenStartAndNow(t *testing.T) {
	now := time.Now()
	started := now.Add(-10 * time.Second)
	wall := now.Round(0)
	for _, tc := range []struct {
		name string
		at   time.Time
		want time.Time
	}{
		{"no time from the keeper", time.Time{}, now},
		{"a time", wall.Add(-4 * time.Second), now.Add(-4 * time.Second)},
		{"before the start (clock set forward since)", wall.Add(-time.Hour), started},
		{"in the future (clock set back since)", wall.Add(time.Hour), now},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runEnd(now, &started, tc.at)
			assert.True(t, got.Equal(tc.want), "got %v, want %v", got, tc.want)
			assert.Equal(t, tc.want.Sub(started), got.Sub(started))
		})
	}
}
