package jobs

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Past KeepFinished finished jobs, the ones that ended first are removed
// (with an event); running and created jobs are never counted, and the
// logs stay on disk.
func TestOldFinishedJobsAreDropped(t *testing.T) {
	m := newManager(t, Options{KeepFinished: 3})
	sub := m.Subscribe()
	defer sub.Close()
	running := start(t, m, Spec{Command: "sleep 1000"})
	created, err := m.Add(Spec{Command: "true"})
	require.NoError(t, err)
	var done []Info
	for i := 0; i < 5; i++ {
		done = append(done, wait(t, m, start(t, m, Spec{Command: "echo job"}).ID))
	}
	var ids []ID
	for _, info := range m.List() {
		ids = append(ids, info.ID)
	}
	assert.Equal(t, []ID{running.ID, created.ID, done[2].ID, done[3].ID, done[4].ID}, ids)
	for _, gone := range done[:2] {
		_, err := m.Get(gone.ID)
		assert.Error(t, err, "job %d was dropped", gone.ID)
		_, err = os.Stat(gone.LogPath)
		assert.NoError(t, err, "its log stays")
	}
	removed := map[ID]bool{}
	eventually(t, "removal events", func() bool {
		select {
		case batch := <-sub.C():
			for _, ev := range batch {
				if ev.Kind == EventRemoved {
					removed[ev.Job.ID] = true
				}
			}
		default:
		}
		return removed[done[0].ID] && removed[done[1].ID]
	})
	require.NoError(t, m.Kill(running.ID))
	wait(t, m, running.ID)
	_, err = m.Get(done[2].ID)
	assert.Error(t, err, "the killed job is finished too: the oldest other goes")
}

func TestKeepFinishedDefaultAndNoLimit(t *testing.T) {
	assert.Equal(t, DefaultKeepFinished, Options{}.keepFinished())
	assert.Equal(t, 500, DefaultKeepFinished)
	m := newManager(t, Options{KeepFinished: -1})
	for i := 0; i < 3; i++ {
		wait(t, m, start(t, m, Spec{Command: "true"}).ID)
	}
	assert.Len(t, m.List(), 3)
}

// A running job restarted at the limit of finished jobs kept is never
// finished on its way to its next run: no kept job is dropped for it
// (one was, and the job itself could be, then running unlisted).
func TestRestartAtTheKeepLimitDropsNothing(t *testing.T) {
	m := newManager(t, Options{KeepFinished: 2})
	a := wait(t, m, start(t, m, Spec{Command: "true"}).ID)
	b := wait(t, m, start(t, m, Spec{Command: "true"}).ID)
	s := start(t, m, Spec{Command: "sleep 1000"})
	_, err := m.Restart(s.ID)
	require.NoError(t, err)
	waitFor(t, m, s.ID, "its next run", func(i Info) bool { return i.State == StateRunning && i.Runs == 2 })
	var ids []ID
	for _, i := range m.List() {
		ids = append(ids, i.ID)
	}
	assert.Equal(t, []ID{a.ID, b.ID, s.ID}, ids, "both finished jobs kept")
}
