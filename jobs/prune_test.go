package jobs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

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

// A session that ends leaves its logs and no lock file; one that ended
// without letting go (killed) loses its lock at the next prune that keeps
// it; a live one keeps its lock, and a second instance in its fixed log
// directory is still refused until it ends.
func TestEndedSessionsLeaveNoLock(t *testing.T) {
	state := t.TempDir()
	m, err := NewManager(Options{StateDir: state, SampleInterval: -1})
	require.NoError(t, err)
	dir := m.LogDir()
	wait(t, m, start(t, m, Spec{Command: "echo kept"}).ID)
	assert.FileExists(t, filepath.Join(dir, logLockName), "held while the session lives")
	require.NoError(t, m.Shutdown(context.Background()))
	assert.NoFileExists(t, filepath.Join(dir, logLockName), "an ended session leaves no lock")
	assert.FileExists(t, filepath.Join(dir, "1.log"), "and keeps its logs")

	logs := filepath.Join(state, "logs")
	crashed := makeSession(t, logs, 1, 10, deadPID(t)) // its lock file left behind
	live := makeSession(t, logs, 2, 10, deadPID(t))
	lock, err := lockLogDir(live)
	require.NoError(t, err)
	defer lock.Close()
	_, err = PruneSessions(logs, Retention{})
	require.NoError(t, err)
	assert.NoFileExists(t, filepath.Join(crashed, logLockName), "a stale lock goes at the next prune")
	assert.FileExists(t, filepath.Join(crashed, "1.log"))
	assert.FileExists(t, filepath.Join(live, logLockName), "a held one stays")

	fixed := t.TempDir()
	first, err := NewManager(Options{LogDir: fixed, SampleInterval: -1})
	require.NoError(t, err)
	_, err = NewManager(Options{LogDir: fixed, SampleInterval: -1})
	var inUse *LogDirInUseError
	require.ErrorAs(t, err, &inUse, "a live instance's log directory is still refused")
	require.NoError(t, first.Shutdown(context.Background()))
	assert.NoFileExists(t, filepath.Join(fixed, logLockName))
	second, err := NewManager(Options{LogDir: fixed, SampleInterval: -1})
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(fixed, logLockName))
	_, err = NewManager(Options{LogDir: fixed, SampleInterval: -1})
	require.ErrorAs(t, err, &inUse, "and so is the next one's")
	require.NoError(t, second.Shutdown(context.Background()))
}
