package jobs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// holdKeeperLock takes dir's keeper lock as the keeper of an instance
// that died holds it; the returned func lets it go.
func holdKeeperLock(t *testing.T, dir string) func() {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, keeperLockName), os.O_RDWR|os.O_CREATE, 0o600)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	require.NoError(t, unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB))
	return func() { unix.Flock(int(f.Fd()), unix.LOCK_UN) } //nolint:errcheck // closing unlocks too
}

// The keeper holds the log directory's keeper lock with its manager, and
// alone once the manager has let go of it: until the keeper exits.
func TestTheKeeperHoldsTheLogDirsKeeperLock(t *testing.T) {
	dir := t.TempDir()
	m, err := NewManager(Options{LogDir: dir, SampleInterval: -1})
	require.NoError(t, err)
	wait(t, m, start(t, m, Spec{Command: "true"}).ID) // the keeper runs
	m.logLocks.keeper.Close()                         // as if the manager had died
	assert.True(t, lockHeld(filepath.Join(dir, keeperLockName)), "the keeper holds it")
	assert.True(t, dirInUse(dir))
	require.NoError(t, m.Shutdown(context.Background()))
	assert.False(t, lockHeld(filepath.Join(dir, keeperLockName)), "let go once the keeper has exited")
}

// A new instance in a fixed log directory waits while the keeper of one
// that died still writes there, and starts fresh once it has exited; one
// that does not exit in time makes it refuse, clearing nothing.
func TestFixedLogDirWaitsForTheKeeperOfAnInstanceThatDied(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "1.log")
	require.NoError(t, os.WriteFile(old, []byte("the old run's last output\n"), 0o600))
	release := holdKeeperLock(t, dir)
	pause := keeperLockPause
	t.Cleanup(func() { keeperLockPause = pause })
	keeperLockPause = func() {
		_, err := os.Stat(old)
		assert.NoError(t, err, "nothing is cleared while the keeper writes")
		release() // the keeper exits
	}
	m := newManager(t, Options{LogDir: dir})
	_, err := os.Stat(old)
	assert.True(t, os.IsNotExist(err), "the directory starts fresh once the keeper has exited")
	require.NoError(t, m.Shutdown(context.Background()))

	require.NoError(t, os.WriteFile(old, []byte("the old run's last output\n"), 0o600))
	holdKeeperLock(t, dir)
	keeperLockPause = pause
	wait := keeperLockWait
	t.Cleanup(func() { keeperLockWait = wait })
	keeperLockWait = 50 * time.Millisecond
	_, err = NewManager(Options{LogDir: dir, SampleInterval: -1})
	var draining *LogDirDrainingError
	require.True(t, errors.As(err, &draining), "refused: %v", err)
	assert.Contains(t, err.Error(), "still written to by the keeper of a jobtop that died")
	b, err := os.ReadFile(old)
	require.NoError(t, err)
	assert.Equal(t, "the old run's last output\n", string(b), "nothing is cleared")
	assert.False(t, lockHeld(filepath.Join(dir, logLockName)), "the refused instance holds no lock")
}

// A file another user planted in a fixed log directory is never written:
// a symlink N.log, there when the instance starts or put there once it
// runs, is replaced by a new regular file of the job's, and the file it
// points at is left as it was.
func TestAPlantedLogSymlinkIsNeverWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "keys.txt")
	require.NoError(t, os.WriteFile(outside, []byte("alice's keys\n"), 0o600))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "1.log")))
	m := newManager(t, Options{LogDir: dir})
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "2.log"))) // planted while it runs
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "2.log.1")))
	for _, id := range []ID{1, 2} {
		info := wait(t, m, start(t, m, Spec{Command: "echo job output"}).ID)
		require.Equal(t, id, info.ID)
		require.Equal(t, filepath.Join(dir, info.ID.String()+".log"), info.LogPath)
		st, err := os.Lstat(info.LogPath)
		require.NoError(t, err)
		assert.True(t, st.Mode().IsRegular(), "%s is a new regular file: %s", info.LogPath, st.Mode())
		assert.Contains(t, readFile(t, info.LogPath), "job output")
	}
	assert.Equal(t, "alice's keys\n", readFile(t, outside), "the file the symlinks point at is unchanged")
}

// A fixed log directory that another user may write to (or owns) is
// refused, with the owner or mode and what to do: another user could
// plant files there that the job's output would go into.
func TestALogDirOthersMayWriteToIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	require.NoError(t, os.Mkdir(dir, 0o700))
	require.NoError(t, os.Chmod(dir, 0o777))
	_, err := NewManager(Options{LogDir: dir, SampleInterval: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), dir)
	assert.Contains(t, err.Error(), "mode 0777")
	assert.Contains(t, err.Error(), "chmod go-w")
	_, err = os.Stat(filepath.Join(dir, logLockName))
	assert.True(t, os.IsNotExist(err), "nothing is made in it")

	if os.Getuid() != 0 {
		t.Skip("a directory of another owner needs root to make")
	}
	// Group-writable: by a group of others, refused; by the owner's own
	// group (root's is root, as a user private group: a log.dir made by
	// hand under umask 002 is so on Debian and Ubuntu), taken.
	require.NoError(t, os.Chmod(dir, 0o770))
	require.NoError(t, os.Chown(dir, 0, 65534))
	_, err = NewManager(Options{LogDir: dir, SampleInterval: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mode 0770")
	require.NoError(t, os.Chown(dir, 0, 0))
	m, err := NewManager(Options{LogDir: dir, SampleInterval: -1})
	require.NoError(t, err, "0770 in the owner's own group")
	require.NoError(t, m.Shutdown(context.Background()))

	require.NoError(t, os.Chmod(dir, 0o700))
	require.NoError(t, os.Chown(dir, 65534, 65534))
	_, err = NewManager(Options{LogDir: dir, SampleInterval: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "belongs to uid 65534")
	assert.Contains(t, err.Error(), "log.dir")
}

// The state directory's logs directory is held to the same rule.
func TestASessionLogsDirOthersMayWriteToIsRefused(t *testing.T) {
	state := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(state, "logs"), 0o700))
	require.NoError(t, os.Chmod(filepath.Join(state, "logs"), 0o777))
	_, err := NewManager(Options{StateDir: state, SampleInterval: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mode 0777")
}

// A log directory moved to a larger disk, a symlink of the user's to a
// private directory, is taken (rev55: refused as "not a directory");
// one to a directory others may write to, or in one they may write to
// (where they could replace it), is not.
func TestALogDirThatIsASymlinkOfOurs(t *testing.T) {
	base := t.TempDir()
	target := filepath.Join(base, "bigdisk", "logs")
	require.NoError(t, os.MkdirAll(target, 0o700))
	parent := filepath.Join(base, "state")
	require.NoError(t, os.Mkdir(parent, 0o700))
	link := filepath.Join(parent, "logs")
	require.NoError(t, os.Symlink(target, link))
	m, err := NewManager(Options{LogDir: link, SampleInterval: -1})
	require.NoError(t, err)
	require.NoError(t, m.Shutdown(context.Background()))

	require.NoError(t, os.Chmod(target, 0o777))
	_, err = NewManager(Options{LogDir: link, SampleInterval: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mode 0777")
	assert.Contains(t, err.Error(), "chmod go-w "+target, "the directory is the user's to mend")
	require.NoError(t, os.Chmod(target, 0o700))

	require.NoError(t, os.Chmod(parent, 0o777))
	_, err = NewManager(Options{LogDir: link, SampleInterval: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "other users may write to")
	require.NoError(t, os.Chmod(parent, 0o700))

	// A link to a link: the second could be anyone's, in /tmp (rev56).
	open := filepath.Join(base, "open")
	require.NoError(t, os.Mkdir(open, 0o700))
	require.NoError(t, os.Chmod(open, 0o777))
	second := filepath.Join(open, "jl")
	require.NoError(t, os.Symlink(target, second))
	require.NoError(t, os.Remove(link))
	require.NoError(t, os.Symlink(second, link))
	_, err = NewManager(Options{LogDir: link, SampleInterval: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "another symlink")

	// A link to a private directory in a directory others may write to
	// (where it could be swapped for theirs).
	swappable := filepath.Join(open, "logs")
	require.NoError(t, os.Mkdir(swappable, 0o700))
	require.NoError(t, os.Remove(link))
	require.NoError(t, os.Symlink(swappable, link))
	_, err = NewManager(Options{LogDir: link, SampleInterval: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "leads to "+swappable)
}

// The state directory's logs directory as a symlink (the logs moved to a
// larger disk) to a directory others may write to is refused before
// anything is made there: the session directory was made inside it
// first, then refused.
func TestASessionLogsLinkIsCheckedBeforeAnythingIsMadeThere(t *testing.T) {
	base := t.TempDir()
	target := filepath.Join(base, "bigdisk", "logs")
	require.NoError(t, os.MkdirAll(target, 0o700))
	require.NoError(t, os.Chmod(target, 0o777))
	state := filepath.Join(base, "state")
	require.NoError(t, os.Mkdir(state, 0o700))
	require.NoError(t, os.Symlink(target, filepath.Join(state, "logs")))

	_, err := NewManager(Options{StateDir: state, SampleInterval: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mode 0777")
	entries, err := os.ReadDir(target)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing made in the directory refused")

	require.NoError(t, os.Chmod(target, 0o700))
	m, err := NewManager(Options{StateDir: state, SampleInterval: -1})
	require.NoError(t, err, "a link to a private directory is taken")
	require.NoError(t, m.Shutdown(context.Background()))
}

// A logs link (or log.dir link) that leads nowhere says so: what it
// points at, that it does not exist, what to do. It said "mkdir ...:
// file exists".
func TestADanglingLogsLinkSaysWhereItLeads(t *testing.T) {
	base := t.TempDir()
	gone := filepath.Join(base, "unmounted", "logs")
	state := filepath.Join(base, "state")
	require.NoError(t, os.Mkdir(state, 0o700))
	link := filepath.Join(state, "logs")
	require.NoError(t, os.Symlink(gone, link))

	for _, opts := range []Options{{StateDir: state}, {LogDir: link}} {
		opts.SampleInterval = -1
		_, err := NewManager(opts)
		require.Error(t, err)
		assert.Equal(t, "log directory "+link+" is a symlink to "+gone+", which does not exist: "+
			"make that directory (mkdir -m 700 -p "+gone+"), or remove the link (rm "+link+")", err.Error())
		_, serr := os.Lstat(gone)
		assert.ErrorIs(t, serr, os.ErrNotExist, "nothing made where it leads")
	}
}

// A dangling symlink on the way to a log directory (log.dir: mnt/logs,
// mnt a link to a disk not mounted) is named, with the way out: MkdirAll
// said "mkdir mnt: file exists" (rev57).
func TestADanglingLinkAboveTheLogDirectoryIsNamed(t *testing.T) {
	base := t.TempDir()
	gone := filepath.Join(base, "unmounted")
	mnt := filepath.Join(base, "mnt")
	require.NoError(t, os.Symlink(gone, mnt))

	_, err := NewManager(Options{LogDir: filepath.Join(mnt, "logs"), SampleInterval: -1})
	require.Error(t, err)
	assert.Equal(t, "log directory: "+mnt+" is a symlink to "+gone+", which does not exist: "+
		"make that directory (mkdir -m 700 -p "+gone+"), or remove the link (rm "+mnt+")", err.Error())

	_, err = NewManager(Options{StateDir: filepath.Join(mnt, "state"), SampleInterval: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), mnt+" is a symlink to "+gone+", which does not exist")

	t.Setenv("XDG_STATE_HOME", mnt)
	_, err = DefaultStateDir()
	require.Error(t, err)
	assert.Contains(t, err.Error(), mnt+" is a symlink to "+gone+", which does not exist")
}
