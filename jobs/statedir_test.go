package jobs

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stateEnv gives the test a HOME, no XDG_STATE_HOME and a temp directory
// of its own, and returns where the fallback state directory is.
func stateEnv(t *testing.T, home, tmp string) (fallback string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	return filepath.Join(tmp, "jobtop-"+strconv.Itoa(os.Getuid()), "state")
}

// defaultManager starts a manager with the default state directory (no
// StateDir, no LogDir), shut down at the end of the test.
func defaultManager(t *testing.T) (*Manager, error) {
	t.Helper()
	m, err := NewManager(Options{Emulator: testEmulator})
	if err == nil {
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), patience)
			defer cancel()
			require.NoError(t, m.Shutdown(ctx))
		})
	}
	return m, err
}

// A HOME that does not exist (a system user's /nonexistent), or one under
// which the state directory cannot be made, is not made: the state goes
// to the temp directory, as with no HOME at all. `jobtop run` failed
// with "mkdir /nonexistent: permission denied", and root made the HOME.
func TestStateDirWithoutAUsableHome(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	for name, home := range map[string]string{
		"missing":      filepath.Join(dir, "nonexistent", "home"),
		"under a file": filepath.Join(file, "home"), // ENOTDIR, as a read-only HOME would refuse it (root writes through 0555)
	} {
		t.Run(name, func(t *testing.T) {
			fallback := stateEnv(t, home, t.TempDir())
			m, err := defaultManager(t)
			require.NoError(t, err)
			assert.Equal(t, filepath.Join(fallback, "logs"), filepath.Dir(m.LogDir()))
			assert.NoDirExists(t, filepath.Join(dir, "nonexistent"), "HOME is never made")
		})
	}

	t.Run("read-only", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root writes in a 0555 directory")
		}
		home := filepath.Join(t.TempDir(), "home")
		require.NoError(t, os.Mkdir(home, 0o555))
		fallback := stateEnv(t, home, t.TempDir())
		m, err := defaultManager(t)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(fallback, "logs"), filepath.Dir(m.LogDir()))
	})

	t.Run("a usable HOME", func(t *testing.T) {
		home := filepath.Join(t.TempDir(), "home")
		require.NoError(t, os.Mkdir(home, 0o700))
		stateEnv(t, home, t.TempDir())
		m, err := defaultManager(t)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(home, ".local", "state", "jobtop", "logs"), filepath.Dir(m.LogDir()))
	})

	// With no usable temp directory either, the error says what to set.
	t.Run("no fallback", func(t *testing.T) {
		stateEnv(t, filepath.Join(dir, "nonexistent", "home"), filepath.Join(file, "tmp"))
		_, err := defaultManager(t)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "set XDG_STATE_HOME")
		assert.NoDirExists(t, filepath.Join(dir, "nonexistent"), "HOME is never made")
	})
}

// The temp directory is every user's: a jobtop-UID directory there that
// another user made first (or a symlink to one) is refused, not written
// in; one of ours that others may write to is made private.
func TestStateDirInTheTempDirectoryMustBeOurs(t *testing.T) {
	missingHome := filepath.Join(t.TempDir(), "nonexistent", "home")
	t.Run("another user's", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("only root can make a directory another user owns")
		}
		tmp := t.TempDir()
		fallback := stateEnv(t, missingHome, tmp)
		require.NoError(t, os.Mkdir(filepath.Dir(fallback), 0o777))
		require.NoError(t, os.Chown(filepath.Dir(fallback), 65534, 65534))
		_, err := DefaultStateDir()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "belongs to uid 65534")
		assert.NoDirExists(t, fallback, "nothing is made in another user's directory")
	})
	t.Run("a symlink", func(t *testing.T) {
		tmp := t.TempDir()
		fallback := stateEnv(t, missingHome, tmp)
		target := t.TempDir()
		require.NoError(t, os.Symlink(target, filepath.Dir(fallback)))
		_, err := DefaultStateDir()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "not a directory")
		assert.NoDirExists(t, filepath.Join(target, "state"), "nothing is made through the link")
	})
	t.Run("ours, open to others", func(t *testing.T) {
		tmp := t.TempDir()
		fallback := stateEnv(t, missingHome, tmp)
		require.NoError(t, os.Mkdir(filepath.Dir(fallback), 0o777))
		require.NoError(t, os.Chmod(filepath.Dir(fallback), 0o777))
		dir, err := DefaultStateDir()
		require.NoError(t, err)
		assert.Equal(t, fallback, dir)
		st, err := os.Stat(filepath.Dir(fallback))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	})
}
