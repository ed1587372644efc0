package jobfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A job file and .env found in a directory run without asking: one that
// others may write to, or another user's, is warned of (not refused),
// since whoever can write it runs commands as this user.
func TestAFoundFileOthersMayWriteIsWarnedOf(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "jobtop.yaml")
	env := filepath.Join(dir, ".env")
	require.NoError(t, os.WriteFile(file, []byte("jobs:\n  web:\n    cmd: echo hi\n"), 0o644))
	require.NoError(t, os.WriteFile(env, []byte("A=1\n"), 0o644))
	warnings := func(o LoadOptions) []string {
		plan, err := LoadWith(file, o)
		require.NoError(t, err)
		var out []string
		for _, w := range plan.Warnings {
			out = append(out, w.Warning())
		}
		return out
	}
	assert.Empty(t, warnings(LoadOptions{Found: true}), "0644, yours: nothing to say")

	require.NoError(t, os.Chmod(file, 0o666))
	require.NoError(t, os.Chmod(env, 0o602))
	assert.Equal(t, []string{
		file + ": warning: jobtop.yaml is writable by others (mode 0666): anyone who can write it runs commands as you",
		env + ": warning: .env is writable by others (mode 0602): anyone who can write it runs commands as you",
	}, warnings(LoadOptions{Found: true}))
	assert.Len(t, warnings(LoadOptions{Found: true, NoEnvFile: true}), 1, "a .env that is not read is not warned of")

	if os.Getuid() != 0 {
		t.Skip("a file of another owner needs root to make")
	}
	// Group-writable: by a group of others, warned of; by the owner's own
	// group (root's is root, as a user private group: umask 002 makes
	// every file so on Debian and Ubuntu), not.
	require.NoError(t, os.Chmod(env, 0o600))
	require.NoError(t, os.Chmod(file, 0o664))
	require.NoError(t, os.Chown(file, 0, 0))
	assert.Empty(t, warnings(LoadOptions{Found: true}), "0664 in the owner's own group")
	require.NoError(t, os.Chown(file, 0, 65534))
	assert.Equal(t, []string{
		file + ": warning: jobtop.yaml is writable by others (mode 0664): anyone who can write it runs commands as you",
	}, warnings(LoadOptions{Found: true}))

	require.NoError(t, os.Chmod(file, 0o644))
	require.NoError(t, os.Chown(file, 4242, 4242))
	assert.Equal(t, []string{
		file + ": warning: jobtop.yaml belongs to uid 4242, not to you: anyone who can write it runs commands as you",
	}, warnings(LoadOptions{Found: true}))
}
