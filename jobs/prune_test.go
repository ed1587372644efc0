package jobs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deadPID is the PID of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}

// makeSession makes a finished session directory of size bytes, named
// for the minute'th minute (later minutes are newer).
func makeSession(t *testing.T, logs string, minute, size, pid int) string {
	dir := filepath.Join(logs, fmt.Sprintf("20250101-10%02d00-%d", minute, pid))
	require.NoError(t, os.MkdirAll(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "1.log"), make([]byte, size), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, logLockName), nil, 0o600))
	return dir
}

func remaining(t *testing.T, logs string) []string {
	entries, err := os.ReadDir(logs)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func TestPruneKeepsTheNewestSessions(t *testing.T) {
	logs := t.TempDir()
	dead := deadPID(t)
	var dirs []string
	for i := 0; i < 30; i++ {
		dirs = append(dirs, makeSession(t, logs, i, 10, dead))
	}
	require.NoError(t, os.WriteFile(filepath.Join(logs, "README"), nil, 0o600))
	require.NoError(t, os.Mkdir(filepath.Join(logs, "not-a-session"), 0o700))

	removed, err := PruneSessions(logs, Retention{})
	require.NoError(t, err)
	assert.Equal(t, dirs[:10], sortedCopy(removed), "past the newest 20, the oldest go")
	assert.Len(t, remaining(t, logs), 22, "20 sessions, and what is not a session is left alone")
}

func TestPruneBoundsTheTotalSize(t *testing.T) {
	logs := t.TempDir()
	dead := deadPID(t)
	oldest := makeSession(t, logs, 1, 100, dead)
	older := makeSession(t, logs, 2, 500, dead)
	small := makeSession(t, logs, 3, 10, dead)
	newest := makeSession(t, logs, 4, 500, dead)
	removed, err := PruneSessions(logs, Retention{MaxTotal: 1000})
	require.NoError(t, err)
	assert.Equal(t, []string{oldest, older}, sortedCopy(removed), "the newest that fit in 1000 bytes stay; everything older goes")
	assert.DirExists(t, small)
	assert.DirExists(t, newest)

	removed, err = PruneSessions(logs, Retention{Sessions: -1, MaxTotal: -1})
	require.NoError(t, err)
	assert.Empty(t, removed, "negative: no limit")
}

// A directory a live instance uses stays, however old or big: one whose
// lock is held, or (a jobtop that did not lock) whose PID is alive.
func TestPruneNeverRemovesALiveSession(t *testing.T) {
	logs := t.TempDir()
	dead := deadPID(t)
	locked := makeSession(t, logs, 1, 5000, dead)
	lock, err := lockLogDir(locked)
	require.NoError(t, err)
	defer lock.Close()
	unlockedLive := makeSession(t, logs, 2, 5000, os.Getpid())
	require.NoError(t, os.Remove(filepath.Join(unlockedLive, logLockName)))
	unlockedDead := makeSession(t, logs, 3, 10, dead)
	require.NoError(t, os.Remove(filepath.Join(unlockedDead, logLockName)))
	for i := 10; i < 15; i++ {
		makeSession(t, logs, i, 10, dead)
	}
	removed, err := PruneSessions(logs, Retention{Sessions: 2, MaxTotal: 100})
	require.NoError(t, err)
	assert.DirExists(t, locked)
	assert.DirExists(t, unlockedLive)
	assert.Contains(t, removed, unlockedDead)
	assert.Len(t, removed, 4, "the newest 2 stay, with the live ones")
}

// A manager making its session directory prunes the others, never its
// own.
func TestManagerPrunesOldSessionsOnStart(t *testing.T) {
	state := t.TempDir()
	logs := filepath.Join(state, "logs")
	dead := deadPID(t)
	for i := 0; i < 5; i++ {
		makeSession(t, logs, i, 10, dead)
	}
	m, err := NewManager(Options{StateDir: state, Sessions: Retention{Sessions: 2}, SampleInterval: -1})
	require.NoError(t, err)
	defer m.Shutdown(context.Background()) //nolint:errcheck // no jobs
	left := remaining(t, logs)
	require.Len(t, left, 2)
	assert.Contains(t, left, filepath.Base(m.LogDir()), "its own session is kept")
	assert.Contains(t, left, fmt.Sprintf("20250101-100400-%d", dead), "and the newest other")
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// A session that ended keeps its lock file, so it is judged by the lock,
// never by the PID in its name: a PID in use again by another process
// does not keep an ended session from being pruned.
func TestPruneEndedSessionWhosePIDIsReused(t *testing.T) {
	state := t.TempDir()
	logs := filepath.Join(state, "logs")
	for i := 0; i < 2; i++ {
		m, err := NewManager(Options{StateDir: state, Sessions: Retention{Sessions: -1}, SampleInterval: -1})
		require.NoError(t, err)
		require.NoError(t, m.Shutdown(context.Background()))
		// Name it for a live process (this test's), as if the PID were
		// reused, and keep the names apart.
		reused := filepath.Join(logs, fmt.Sprintf("20250101-10%02d00-%d", i, os.Getpid()))
		require.NoError(t, os.Rename(m.LogDir(), reused))
	}
	removed, err := PruneSessions(logs, Retention{Sessions: 1})
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(logs, fmt.Sprintf("20250101-100000-%d", os.Getpid()))}, removed,
		"the older ended session goes although a live process has its PID")
}

// A new session is not refused because another instance's prune is
// checking its directory at that moment (dirInUse holds a shared lock for
// a moment).
func TestNewSessionWaitsOutAPruneCheck(t *testing.T) {
	dir := t.TempDir()
	probe, err := os.OpenFile(filepath.Join(dir, logLockName), os.O_RDWR|os.O_CREATE, 0o600)
	require.NoError(t, err)
	defer probe.Close()
	require.NoError(t, unix.Flock(int(probe.Fd()), unix.LOCK_SH|unix.LOCK_NB))
	// The check ends while the session waits.
	pause := sessionLockPause
	defer func() { sessionLockPause = pause }()
	sessionLockPause = func() { unix.Flock(int(probe.Fd()), unix.LOCK_UN) } //nolint:errcheck // checked below
	f, err := lockSessionDir(dir)
	require.NoError(t, err, "a prune's check refused the session")
	defer f.Close()
	assert.True(t, dirInUse(dir))

	// A directory really in use is still refused, after the wait.
	sessionLockPause = pause
	wait := sessionLockWait
	defer func() { sessionLockWait = wait }()
	sessionLockWait = 10 * time.Millisecond
	_, err = lockSessionDir(dir)
	var inUse *LogDirInUseError
	assert.ErrorAs(t, err, &inUse)
}
