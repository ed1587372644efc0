package jobs

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// holdNextSpawn holds the next run's launch just before its main process
// is spawned, until release is closed; held is closed once it is held.
func holdNextSpawn(t *testing.T) (held, release chan struct{}) {
	held, release = make(chan struct{}), make(chan struct{})
	var once sync.Once
	spawnPause = func() { once.Do(func() { close(held); <-release }) }
	t.Cleanup(func() { spawnPause = nil })
	return held, release
}

// launchInFlight starts a job that ignores SIGTERM, with an hour's
// grace, on a new manager, and returns once its launch is held in flight
// (release lets it go on; started gets Start's answer).
func launchInFlight(t *testing.T) (m *Manager, release chan struct{}, started <-chan Info) {
	m, err := NewManager(Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	held, release := holdNextSpawn(t)
	started = startInBackground(m, Spec{Command: "trap '' TERM; sleep 1000", Grace: time.Hour})
	<-held
	return m, release, started
}

// startInBackground starts spec on its own goroutine (Start waits for the
// launch) and returns where its answer comes.
func startInBackground(m *Manager, spec Spec) <-chan Info {
	started := make(chan Info, 1)
	go func() {
		info, _ := m.Start(spec)
		started <- info
	}()
	return started
}

// shutdownInBackground runs Shutdown(ctx) on its own goroutine and
// returns where its error comes.
func shutdownInBackground(m *Manager, ctx context.Context) <-chan error {
	done := make(chan error, 1)
	go func() { done <- m.Shutdown(ctx) }()
	return done
}

// awaitShutdown returns Shutdown's error, failing the test if it takes
// longer than patience (the jobs' grace is an hour).
func awaitShutdown(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(patience):
		t.Fatal("Shutdown waited out the grace of a run it was to kill")
		return nil
	}
}

// A run whose launch is in flight when Shutdown's deadline has passed is
// killed as it lands, not stopped with its grace: a second SIGTERM to
// serve while a big job file's jobs started left such runs their grace
// (5 s by default) before serve exited.
func TestShutdownDeadlineKillsALaunchInFlight(t *testing.T) {
	m, release, started := launchInFlight(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the deadline has passed: kill
	done := shutdownInBackground(m, ctx)
	eventually(t, "the kill asked of the launch in flight", func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, j := range m.jobs {
			return j.request == reqKill
		}
		return false
	})
	close(release)
	assert.ErrorIs(t, awaitShutdown(t, done), context.Canceled)
	assertKilled(t, m, <-started)
}

// A run that lands after Shutdown found nothing to stop is stopped with
// its grace, and killed when Shutdown's deadline passes meanwhile: the
// wait for the last runs to end heeds the deadline too.
func TestShutdownDeadlineKillsARunThatLandedAfterTheStop(t *testing.T) {
	m, release, started := launchInFlight(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := shutdownInBackground(m, ctx)
	eventually(t, "Shutdown to begin", func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.closed
	})
	close(release)
	info := <-started
	waitFor(t, m, info.ID, "the run stopping with its grace", func(i Info) bool { return i.State == StateStopping })
	cancel()
	assert.ErrorIs(t, awaitShutdown(t, done), context.Canceled)
	assertKilled(t, m, info)
}

// assertKilled checks that the job's run was killed and its process is
// gone.
func assertKilled(t *testing.T, m *Manager, info Info) {
	t.Helper()
	got, err := m.Get(info.ID)
	require.NoError(t, err)
	assert.Equal(t, StateKilled, got.State)
	assert.False(t, alive(info.PID), "its process is gone")
}
